package e2e

import (
	"strings"
	"testing"
)

// wasm/CONTRACT.md §5: debug mode, on via data-debug or
// globalThis.__MODELCONTEXT_DEBUG__ === true (read at log time), off otherwise.

// debugActions performs one action per entry and returns, per action, the
// first argument of every console.debug call it caused.
const debugActions = `
const out = {};
const step = async (name, fn) => { H.clearLog(); await fn(); await H.settle(); out[name] = H.logs('debug'); };
let onChange, value = 'A', deferreds = null;
const get = () => deferreds ? deferreds.shift().promise : value;
let unregister;
await step('register', () => { unregister = mc.registerResource({uri: 'state://d', name: 'd', get, subscribe: (cb) => { onChange = cb; return () => {}; }}); });
await step('push', () => onChange());
await step('push equal', () => onChange());
await step('push changed', () => { value = 'B'; onChange(); });
await step('push cycle', () => { value = {}; value.self = value; onChange(); });
await step('replace', () => { unregister = mc.registerResource({uri: 'state://d', name: 'd', get, subscribe: (cb) => { onChange = cb; return () => {}; }}); });
await step('late result', async () => {
  const d1 = H.deferred(), d2 = H.deferred();
  deferreds = [d1, d2];
  onChange(); onChange();
  d2.resolve('new'); await H.settle();
  d1.resolve('old'); await H.settle();
  deferreds = null;
});
await step('unregister', () => unregister());
await step('pull-only register', () => { unregister = mc.registerResource({uri: 'state://pull', name: 'p', get}); });
await step('pull-only unregister', () => unregister());
await step('read', () => mc.readResource('state://none').catch(() => {}));  // off: must log nothing either
return out;
`

func TestDebugMode(t *testing.T) {
	const p = `[modelcontext] `
	// contains: lines each action must log (in debug mode); exact: the
	// action must log exactly these lines.
	type expectation struct {
		contains, exact, absent []string
	}
	want := map[string]expectation{
		"register":     {contains: []string{p + `registered "state://d"`}, absent: []string{p + `replaced "state://d"`}},
		"push":         {exact: []string{p + `resource "state://d" changed`}},
		"push equal":   {exact: []string{p + `resource "state://d": push suppressed (value unchanged)`}},
		"push changed": {exact: []string{p + `resource "state://d" changed`}},
		"push cycle":   {contains: []string{p + `resource "state://d": value has no comparison key; pushed anyway (fail-open)`}},
		"replace":      {contains: []string{p + `replaced "state://d"`, p + `teardown of "state://d"`}, absent: []string{p + `registered "state://d"`}},
		"late result": {contains: []string{p + `resource "state://d" changed`,
			p + `resource "state://d": late result dropped (a newer push was already handled)`}},
		"unregister":           {contains: []string{p + `unregistered "state://d"`, p + `teardown of "state://d"`}},
		"pull-only register":   {contains: []string{p + `registered "state://pull"`}},
		"pull-only unregister": {contains: []string{p + `unregistered "state://pull"`}, absent: []string{p + `teardown of "state://pull"`}},
	}
	variants := []struct {
		name, query, setup string
		on                 bool
	}{
		{"off", "", "", false},
		{"off with the global set to other values", "", `globalThis.__MODELCONTEXT_DEBUG__ = 'true';`, false},
		{"data-debug", "debug=1", "", true},
		{"global flag", "", `globalThis.__MODELCONTEXT_DEBUG__ = true;`, true},
	}
	eachImpl(t, func(t *testing.T, impl string) {
		for _, v := range variants {
			t.Run(v.name, func(t *testing.T) {
				pg := open(t, impl, "", v.query)
				var got map[string][]string
				// Listeners for both events, so that each is made and the
				// lines are those of the actions alone (without them, the
				// module says once that no listener hears a type:
				// TestEventsOnlyWhenHeard).
				pg.run(v.setup+heardByListeners+debugActions, &got)
				for action, logged := range got {
					for _, l := range logged {
						if !v.on {
							t.Errorf("%s: debug off, yet console.debug(%q)", action, l)
						} else if !strings.HasPrefix(l, p) {
							t.Errorf("%s: console.debug(%q) lacks the prefix %q", action, l, p)
						}
					}
				}
				if !v.on {
					return
				}
				for action, w := range want {
					logged := got[action]
					has := func(s string) bool {
						for _, l := range logged {
							if l == s {
								return true
							}
						}
						return false
					}
					if w.exact != nil && strings.Join(logged, "\n") != strings.Join(w.exact, "\n") {
						t.Errorf("%s: logged %q, want exactly %q", action, logged, w.exact)
					}
					for _, s := range w.contains {
						if !has(s) {
							t.Errorf("%s: logged %q, want it to include %q", action, logged, s)
						}
					}
					for _, s := range w.absent {
						if has(s) {
							t.Errorf("%s: logged %q, must not include %q", action, logged, s)
						}
					}
				}
			})
		}
	})
}

// heardByListeners adds a listener for each of the module's events.
const heardByListeners = "mc.addEventListener('resourceupdated', () => {}); mc.addEventListener('resourcelistchanged', () => {});\n"

func TestDebugFlagReadAtLogTime(t *testing.T) {
	runScenarios(t, []scenario{{
		name: "flipping globalThis.__MODELCONTEXT_DEBUG__ at runtime",
		js: lines(
			heardByListeners,
			`const a = H.pushable(mc);`,
			`const out = [];`,
			`let n = 0;`,
			`for (const flag of [undefined, true, 'true', 1, false, true, null]) {`,
			`  globalThis.__MODELCONTEXT_DEBUG__ = flag;`,
			`  H.clearLog();`,
			`  a.push(++n);`,
			`  await H.settle();`,
			`  out.push(H.logs('debug'));`,
			`}`,
			`delete globalThis.__MODELCONTEXT_DEBUG__;`,
			`H.clearLog(); a.push(++n); await H.settle(); out.push(H.logs('debug'));`,
			`return out.map((l, i) => l.join('|').replace(a.uri, 'U'));`,
		),
		want: `["", "[modelcontext] resource \"U\" changed", "", "", "", "[modelcontext] resource \"U\" changed", "", ""]`,
	}})
}
