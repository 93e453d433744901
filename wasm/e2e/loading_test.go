package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// wasm/CONTRACT.md §2: loading, ready, the queue before ready, augmenting an
// existing document.modelContext, loading twice, data-wasm, load failures, CSP.

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

// earlyWant is what earlyCheck returns: the calls made right after the
// script tag behaved as if the module were ready.
const earlyWant = `{
	"members": ["registerResource:function", "getResources:function", "readResource:function", "subscribeResource:function"],
	"readyIsPromise": true, "unregisterAType": "function", "unsubscribeType": "function",
	"listedBeforeReady": ["early://a", "early://b"], "listedAfterUnregister": ["early://a"],
	"read": {"b": true}, "readMissing": "NotFoundError",
	"subscribeCalls": 1,
	"listChanges": [["early://a"], ["early://a", "early://b"], ["early://a"]],
	"listed": ["early://a"],
	"events": [["early://a", "v2"]], "handler": [["early://a", "v2"]],
	"tornDown": true, "finalList": 0, "lastListChange": []
}`

// Calls made right after the script tag behave as if the module were ready.
func TestCallsRightAfterTheScriptTag(t *testing.T) {
	eachImpl(t, func(t *testing.T, impl string) {
		var got json.RawMessage
		open(t, impl, "", "early=1").runRaw(earlyCheck, &got)
		if d := jsonDiff(got, earlyWant); d != "" {
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

// A failed load never breaks the page's own code: ready rejects with an
// Error that names the URL and the fix; registerResource, queued or later,
// keeps returning an unregister that does nothing; the consumers fail with
// that very error; it is reported once with console.error, and a page that
// handles ready sees no unhandled rejection.
func TestLoadFailures(t *testing.T) {
	cases := []struct {
		name, path, query string
		mention           []string
	}{
		{"wasm not found", "", "wasm=/missing/nope.wasm", []string{"/missing/nope.wasm", "HTTP 404", `correct data-wasm="/missing/nope.wasm" on the script tag`}},
		{"HTML where the wasm should be", "", "wasm=/html-fallback/modelcontext.wasm", []string{"/html-fallback/modelcontext.wasm", "is missing", "HTML", `correct data-wasm="/html-fallback/modelcontext.wasm"`}},
		{"bytes that are not WebAssembly", "", "wasm=/octet/modelcontext.wasm", []string{"/octet/modelcontext.wasm", "is not a WebAssembly module", "application/octet-stream"}},
		{"CSP without wasm-unsafe-eval", "/csp-strict.html", "", []string{"wasm-unsafe-eval"}},
	}
	wasmOnly(t, func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				q := "early=1"
				if c.query != "" {
					q += "&" + c.query
				}
				p := open(t, "wasm", c.path, q)
				checkFailedLoad(t, p, c.mention)
			})
		}
	})
}

// failedLoadScenario runs after a page's load failed (early.js made calls
// before it did) and reports what a page sees.
const failedLoadScenario = `
const mc = document.modelContext;
let readyErr = null;
try { await mc.ready; } catch (e) { readyErr = e; }
if (readyErr === null) return {resolved: true};
const caught = (fn) => { try { fn(); } catch (e) { return e; } return null; };
const settled = async (p) => { try { await p; } catch (e) { return e; } return null; };
const describe = (e) => e === null ? null : {same: e === readyErr, message: e && e.message};
let unregisterLater;
const registerThrew = caught(() => { unregisterLater = mc.registerResource({uri: 'state://later', name: 'n', get: () => 1}); });
const unregisterThrew = caught(() => { unregisterLater(); unregisterLater(); if (window.__early.unregA) window.__early.unregA(); });
const invalidThrew = caught(() => mc.registerResource({uri: 'no-scheme', name: 'n', get: () => 1}));
await H.settle();
return {
  isError: readyErr instanceof Error,
  message: readyErr.message,
  earlyRegistered: window.__early.unregisterAType === 'function',
  register: registerThrew === null && typeof unregisterLater === 'function' && unregisterThrew === null,
  invalidStillThrows: invalidThrew instanceof TypeError,
  list: describe(caught(() => mc.getResources())),
  subscribe: describe(caught(() => mc.subscribeResource('early://a', () => {}))),
  read: describe(await settled(mc.readResource('early://a'))),
  queuedRead: window.__early.read ? describe(await settled(window.__early.read)) : 'not queued',
  errors: H.mine('error').filter((m) => m.includes(readyErr.message)).length,
  uncaught: H.uncaught,
};`

func checkFailedLoad(t *testing.T, p *page, mention []string) {
	t.Helper()
	type failure struct {
		Same    bool
		Message string
	}
	var got struct {
		Resolved, IsError, EarlyRegistered, Register, InvalidStillThrows bool
		Message                                                          string
		List, Subscribe, Read                                            *failure
		QueuedRead                                                       json.RawMessage
		Errors                                                           int
		Uncaught                                                         []string
	}
	p.runRaw(failedLoadScenario, &got)
	if got.Resolved {
		t.Fatalf("ready resolved; want it to reject with an Error mentioning %q\n%s", mention, p.ConsoleText())
	}
	for _, m := range mention {
		if !got.IsError || !strings.Contains(got.Message, m) {
			t.Errorf("ready rejected with %q (an Error: %v); want an Error mentioning %q", got.Message, got.IsError, m)
		}
	}
	if !got.EarlyRegistered || !got.Register {
		t.Errorf("registerResource broke the page's code: early registrations worked %v, later register/unregister worked %v", got.EarlyRegistered, got.Register)
	}
	var queued *failure
	if string(got.QueuedRead) != `"not queued"` { // a load that failed before early.js could queue a read
		if err := json.Unmarshal(got.QueuedRead, &queued); err != nil {
			t.Fatal(err)
		}
	}
	if !got.InvalidStillThrows {
		t.Error("an invalid descriptor no longer throws its TypeError after a failed load")
	}
	for what, e := range map[string]*failure{"getResources (throws)": got.List, "subscribeResource (throws)": got.Subscribe,
		"readResource (rejects)": got.Read, "a readResource queued before ready (rejects)": queued} {
		if what[0] == 'a' && string(got.QueuedRead) == `"not queued"` {
			continue
		}
		switch {
		case e == nil:
			t.Errorf("%s: did not fail", what)
		case !e.Same:
			t.Errorf("%s: failed with %q, not with the error ready rejected with (%q)", what, e.Message, got.Message)
		}
	}
	if got.Errors != 1 {
		t.Errorf("the failure was reported %d times with console.error, want once", got.Errors)
	}
	for _, l := range p.Console() {
		if strings.Contains(l, "uncaught") || strings.Contains(l, "Uncaught") {
			t.Errorf("the page saw %s", l)
		}
	}
	if t.Failed() {
		t.Log(p.ConsoleText())
	}
}

// TestWasmUnderAWrongTypeStillLoads: real WebAssembly served as text/plain
// is compiled anyway, with a warning that names application/wasm.
func TestWasmUnderAWrongTypeStillLoads(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		p := open(t, "wasm", "", "wasm=/textplain/modelcontext.wasm")
		p.expect(lines(
			`mc.registerResource({uri: 'state://x', name: 'x', get: () => 'works'});`,
			`return {read: await mc.readResource('state://x'), warned: H.mine('warn').filter((w) => w.includes('application/wasm') && w.includes('text/plain')).length};`,
		), `{"read": "works", "warned": 1}`)
	})
}

// TestFilePage: a page opened from a file says that it needs a web server.
func TestFilePage(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		dir := t.TempDir()
		root := browsertest.RepoRoot()
		for _, f := range []string{"harness.js", "early.js"} {
			copyFile(t, filepath.Join(root, "testdata", "pages", f), filepath.Join(dir, f))
		}
		for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
			copyFile(t, filepath.Join(root, "dist", f), filepath.Join(dir, f))
		}
		html := `<!doctype html><meta charset="utf-8"><script src="harness.js"></script>` +
			`<script src="modelcontext.js"></script><script src="early.js"></script>`
		if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		tab := browsertest.NewTab(t)
		tab.Navigate("file://" + filepath.Join(dir, "page.html"))
		checkFailedLoad(t, &page{Tab: tab, impl: "wasm"}, []string{"file://", "HTTP", "modelcontext.wasm"})
	})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
