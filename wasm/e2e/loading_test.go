package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// SPEC §2: loading, ready, the queue before ready, augmenting an existing
// document.modelContext, loading twice, data-wasm, load failures, CSP.

// wasmOnly runs f as the subtest "wasm": behaviour only a module that boots
// asynchronously has.
func wasmOnly(t *testing.T, f func(t *testing.T)) {
	t.Run("wasm", func(t *testing.T) {
		requireImpl(t, "wasm")
		f(t)
	})
}

func TestReady(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl string) {
		var got json.RawMessage
		open(t, impl, "", "").runRaw(lines(
			`const mc = document.modelContext;`,
			`const ready = mc.ready;`,
			`const value = await ready;`,
			`return {promise: ready instanceof Promise, stable: mc.ready === ready, eventTarget: mc instanceof EventTarget,`,
			`  members: ['registerResource', 'getResources', 'readResource', 'subscribeResource', 'addEventListener', 'dispatchEvent'].map((m) => typeof mc[m])};`,
		), &got)
		if d := jsonDiff(got, `{"promise": true, "stable": true, "eventTarget": true, "members": ["function", "function", "function", "function", "function", "function"]}`); d != "" {
			t.Error(d)
		}
	})
}

// earlyCheck is evaluated after ready on a page loaded with early=1 (see
// testdata/pages/early.js, which made its calls right after the script tag).
const earlyCheck = `
const r = window.__early;
const out = {
  members: r.members, readyIsPromise: r.readyIsPromise, unregisterAType: r.unregisterAType, unsubscribeType: r.unsubscribeType,
  listedBeforeReady: r.listedBeforeReady, listedAfterUnregister: r.listedAfterUnregister,
};
await document.modelContext.ready;
await H.settle();
const mc = document.modelContext;
out.read = await r.read;
out.readMissing = (await H.rejection(r.readMissing)).name;
out.subscribeCalls = r.subscribeCalls;
out.listChanges = r.listChanges.slice();
out.listed = mc.getResources().map((d) => d.uri);
r.push('v2'); r.push('v2');
await H.settle();
out.events = r.events;
out.handler = r.handler;
r.unregA();
await H.settle();
out.tornDown = r.tornDown === true;
out.finalList = mc.getResources().length;
out.lastListChange = r.listChanges[r.listChanges.length - 1];
return out;
`

// Calls made right after the script tag behave as if the module were ready.
func TestCallsRightAfterTheScriptTag(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl string) {
		var got json.RawMessage
		open(t, impl, "", "early=1").runRaw(earlyCheck, &got)
		if d := jsonDiff(got, `{
			"members": ["registerResource:function", "getResources:function", "readResource:function", "subscribeResource:function"],
			"readyIsPromise": true, "unregisterAType": "function", "unsubscribeType": "function",
			"listedBeforeReady": ["early://a", "early://b"], "listedAfterUnregister": ["early://a"],
			"read": {"b": true}, "readMissing": "NotFoundError",
			"subscribeCalls": 1,
			"listChanges": [["early://a"], ["early://a", "early://b"], ["early://a"]],
			"listed": ["early://a"],
			"events": [["early://a", "v2"]], "handler": [["early://a", "v2"]],
			"tornDown": true, "finalList": 0, "lastListChange": []
		}`); d != "" {
			t.Error(d)
		}
	})
}

// Before ready, the module queues: subscribe is called and resourcelistchanged
// fires at replay, not before.
func TestQueueReplay(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got json.RawMessage
		open(t, "wasm", "", "early=1").runRaw(lines(
			`const r = window.__early;`,
			`await document.modelContext.ready;`,
			`return {subscribeCallsBeforeReady: r.subscribeCallsBeforeReady, listChangesBeforeReady: r.listChangesBeforeReady,`,
			`  subscribeCalls: r.subscribeCalls, read: await r.read};`,
		), &got)
		if d := jsonDiff(got, `{"subscribeCallsBeforeReady": 0, "listChangesBeforeReady": 0, "subscribeCalls": 1, "read": {"b": true}}`); d != "" {
			t.Error(d)
		}
	})
}

func TestExistingModelContext(t *testing.T) {
	const check = `
const existing = window.__existing;
const own = Object.getOwnPropertyDescriptor(document, 'modelContext');
const proto = Object.getOwnPropertyDescriptor(Document.prototype, 'modelContext');
const tool = mc.registerTool({name: 'search'});
const a = H.pushable(mc, {uri: 'state://a'});
const rec = H.record(mc, 'state://a');
const lc = H.listChanges(mc);
a.push(1);
mc.registerResource({uri: 'state://b', name: 'b', get: () => 2});
await H.settle();
return {
  same: mc === existing,
  marker: mc.__existingMarker,
  registerToolKept: mc.registerTool === window.__existingRegisterTool,
  ownKeysKept: window.__existingOwnKeys.every((k) => Reflect.ownKeys(mc).map(String).includes(k)),
  prototypeKept: Object.getPrototypeOf(mc) === EventTarget.prototype,
  tools: mc.listTools(),
  ownProperty: own === undefined ? 'none' : ('value' in own ? 'data' : 'accessor'),
  prototypeAccessor: proto !== undefined && typeof proto.get === 'function',
  events: rec.events, handler: rec.handler, listChanges: lc.count,
  read: await mc.readResource('state://b'),
  listed: mc.getResources().map((d) => d.uri),
};`
	eachImpl(t, func(t *testing.T, impl string) {
		t.Run("own property", func(t *testing.T) {
			var got json.RawMessage
			p := open(t, impl, "", "existing=own")
			p.run(check, &got)
			p.compare(got, `{"same": true, "marker": "existing", "registerToolKept": true, "ownKeysKept": true, "prototypeKept": true,
				"tools": ["search"], "ownProperty": "data", "prototypeAccessor": false,
				"events": [1], "handler": [1], "listChanges": 1, "read": 2, "listed": ["state://a", "state://b"]}`)
		})
		t.Run("accessor on Document.prototype", func(t *testing.T) {
			var got json.RawMessage
			p := open(t, impl, "", "existing=accessor")
			p.run(check, &got)
			p.compare(got, `{"same": true, "marker": "existing", "registerToolKept": true, "ownKeysKept": true, "prototypeKept": true,
				"tools": ["search"], "ownProperty": "none", "prototypeAccessor": true,
				"events": [1], "handler": [1], "listChanges": 1, "read": 2, "listed": ["state://a", "state://b"]}`)
		})
	})
}

func TestLoadingTwice(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name:  "two script tags install once and keep the registration made between them",
			query: "twice=1",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://a'});`,
				`const rec = H.record(mc, 'state://a');`,
				`const lc = H.listChanges(mc);`,
				`a.push(1); a.push(2);`,
				`mc.registerResource({uri: 'state://c', name: 'c', get: () => 3});`,
				`await H.settle();`,
				`return {same: mc === window.__between.sameObjectBefore, listed: mc.getResources().map((d) => d.uri),`,
				`  between: await mc.readResource('test://between'), events: rec.events, handler: rec.handler, listChanges: lc.count, tornDown: a.tornDown};`,
			),
			want: `{"same": true, "listed": ["test://between", "state://a", "state://c"], "between": "kept",
				"events": [1, 2], "handler": [1, 2], "listChanges": 1, "tornDown": false}`,
		},
		{
			name: "a second copy loaded later changes nothing",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://a'});`,
				`const rec = H.record(mc, 'state://a');`,
				`a.push(1);`,
				`const members = ['registerResource', 'getResources', 'readResource', 'subscribeResource', 'ready'].map((m) => mc[m]);`,
				`await H.loadAgain();`,
				`await document.modelContext.ready;`,
				`await H.settle();`,
				`const mc2 = document.modelContext;`,
				`const lc = H.listChanges(mc2);`,
				`a.push(2);`,
				`mc2.registerResource({uri: 'state://b', name: 'b', get: () => 'b'});`,
				`await H.settle();`,
				`return {sameObject: mc2 === mc, sameMembers: members.every((f, i) => f === mc2[['registerResource', 'getResources', 'readResource', 'subscribeResource', 'ready'][i]]),`,
				`  listed: mc2.getResources().map((d) => d.uri), events: rec.events, handler: rec.handler, listChanges: lc.count,`,
				`  read: await mc2.readResource('state://a'), tornDown: a.tornDown, uncaught: H.uncaught};`,
			),
			want: `{"sameObject": true, "sameMembers": true, "listed": ["state://a", "state://b"], "events": [1, 2], "handler": [1, 2],
				"listChanges": 1, "read": 2, "tornDown": false, "uncaught": []}`,
		},
	})
}

// A page whose CSP allows 'wasm-unsafe-eval' (and nothing inline) works.
func TestCSPWithWasmUnsafeEval(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl string) {
		p := open(t, impl, "/csp-wasm.html", "")
		p.expect(lines(
			`const a = H.pushable(mc, {uri: 'state://csp'});`,
			`const rec = H.record(mc, 'state://csp');`,
			`a.push({ok: true});`,
			`await H.settle();`,
			`return {events: rec.events, read: await mc.readResource('state://csp')};`,
		), `{"events": [{"ok": true}], "read": {"ok": true}}`)
	})
}

func TestDataWasm(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		for _, c := range []struct{ name, attr string }{
			{"absolute path", "/alt/mc.wasm"},
			{"relative to the document", "alt/mc.wasm"},
		} {
			t.Run(c.name, func(t *testing.T) {
				p := open(t, "wasm", "", "wasm="+c.attr)
				p.expect(lines(
					`mc.registerResource({uri: 'state://x', name: 'x', get: () => 'works'});`,
					`const wasm = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm'));`,
					`return {read: await mc.readResource('state://x'), wasm};`,
				), `{"read": "works", "wasm": ["/alt/mc.wasm"]}`)
			})
		}
	})
}

// ready rejects with a clear Error when the module cannot load, and every
// call, queued or later, fails with that error instead of waiting forever.
func TestLoadFailures(t *testing.T) {
	cases := []struct {
		name, path, query string
		mention           string
	}{
		{"wasm not found", "", "wasm=/missing/nope.wasm", "/missing/nope.wasm"},
		{"wasm served as text/plain", "", "wasm=/textplain/modelcontext.wasm", "application/wasm"},
		{"CSP without wasm-unsafe-eval", "/csp-strict.html", "", "wasm-unsafe-eval"},
	}
	const scenario = `
const mc = document.modelContext;
let readyErr = null;
try { await mc.ready; } catch (e) { readyErr = e; }
if (readyErr === null) return {resolved: true};
const caught = (fn) => { try { fn(); } catch (e) { return e; } return null; };
const settled = async (p) => { try { await p; } catch (e) { return e; } return null; };
const describe = (e) => e === null ? null : {same: e === readyErr, message: e && e.message};
return {
  isError: readyErr instanceof Error,
  message: readyErr.message,
  register: describe(caught(() => mc.registerResource({uri: 'state://later', name: 'n', get: () => 1}))),
  subscribe: describe(caught(() => mc.subscribeResource('early://a', () => {}))),
  read: describe(await settled(mc.readResource('early://a'))),
  queuedRead: describe(window.__early.threw !== undefined ? window.__early.threw : await settled(window.__early.read)),
};`
	wasmOnly(t, func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				q := "early=1"
				if c.query != "" {
					q += "&" + c.query
				}
				p := open(t, "wasm", c.path, q)
				type failure struct {
					Same    bool
					Message string
				}
				var got struct {
					Resolved                              bool
					IsError                               bool
					Message                               string
					Register, Subscribe, Read, QueuedRead *failure
				}
				p.runRaw(scenario, &got)
				if got.Resolved {
					t.Fatalf("ready resolved; want it to reject with an Error mentioning %q\n%s", c.mention, p.ConsoleText())
				}
				if !got.IsError || !strings.Contains(got.Message, c.mention) {
					t.Errorf("ready rejected with %q (an Error: %v); want an Error mentioning %q", got.Message, got.IsError, c.mention)
				}
				for what, e := range map[string]*failure{"registerResource (throws)": got.Register, "subscribeResource (throws)": got.Subscribe,
					"readResource (rejects)": got.Read, "a readResource queued before ready (rejects)": got.QueuedRead} {
					switch {
					case e == nil:
						t.Errorf("%s: did not fail", what)
					case !e.Same:
						t.Errorf("%s: failed with %q, not with the error ready rejected with (%q)", what, e.Message, got.Message)
					}
				}
				if t.Failed() {
					t.Log(p.ConsoleText())
				}
			})
		}
	})
}
