package e2e

import "testing"

// wasm/CONTRACT.md §7: no input from page code stops the module. Each hostile
// call may throw (or reject), but afterwards the module still works.
func TestHostileInputs(t *testing.T) {
	runScenarios(t, []scenario{{
		name: "hostile calls leave the module working",
		js: lines(
			`const hostile = [`,
			`  () => mc.registerResource(new Proxy({}, {get() { throw new Error('trap'); }})),`,
			`  () => mc.registerResource({get uri() { throw new Error('uri getter'); }, name: 'n', get: () => 1}),`,
			`  () => mc.registerResource({uri: 'state://h', get name() { throw new Error('name getter'); }, get: () => 1}),`,
			`  () => mc.registerResource({uri: Symbol('s'), name: 'n', get: () => 1}),`,
			`  () => mc.registerResource({uri: 'state://h', name: 'n', get: () => 1, annotations: {get audience() { throw new Error('aud'); }}}),`,
			`  () => mc.registerResource({uri: 'state://h', name: 'n', get: () => 1, annotations: {audience: new Proxy([], {get() { throw new Error('arr'); }})}}),`,
			`  () => mc.registerResource({uri: 'x:' + 'y'.repeat(100000), name: 'n'.repeat(100000), get: () => 1}),`,
			`  () => mc.registerResource({uri: 'state://\u0000\ud800', name: '\u2028', get: () => 1}),`,
			`  () => mc.registerResource(Object.create(null)),`,
			`  () => mc.readResource(Symbol('s')),`,
			`  () => mc.readResource({toString() { throw new Error('toString'); }}),`,
			`  () => mc.subscribeResource(Symbol('s'), () => {}),`,
			`  () => mc.subscribeResource('state://none', () => {}),`,
			`  () => mc.getResources.call(null),`,
			`  () => mc.registerResource.call(undefined, {uri: 'state://unbound', name: 'n', get: () => 1}),`,
			`];`,
			`const outcomes = [];`,
			`for (const f of hostile) {`,
			`  try { const r = f(); if (r instanceof Promise) await r.catch(() => {}); outcomes.push('ok'); } catch (e) { outcomes.push('threw'); }`,
			`}`,
			`// A value whose get throws something odd, pushed repeatedly.`,
			`let onChange;`,
			`mc.registerResource({uri: 'state://odd', name: 'odd', get: () => { throw Object.create(null); }, subscribe: (cb) => { onChange = cb; return () => {}; }});`,
			`for (let i = 0; i < 3; i++) { try { onChange(); } catch (_) {} }`,
			`// And afterwards everything still works.`,
			`const a = H.pushable(mc, {uri: 'state://sane'});`,
			`const rec = H.record(mc, 'state://sane');`,
			`a.push('fine');`,
			`await H.settle();`,
			`const exited = H.log.some((l) => l.args.join(' ').includes('Go program has already exited')) ||`,
			`  H.uncaught.some((m) => m.includes('Go program has already exited'));`,
			`return {count: outcomes.length, events: rec.events, handler: rec.handler, read: await mc.readResource('state://sane'), exited,`,
			`  listed: mc.getResources().map((d) => d.uri).filter((u) => u === 'state://sane' || u === 'state://odd')};`,
		),
		want: `{"count": 15, "events": ["fine"], "handler": ["fine"], "read": "fine", "exited": false, "listed": ["state://odd", "state://sane"]}`,
	}})
}

// TestRegistrationsAfterGoMemoryGrew: growing the WebAssembly memory detaches
// the loader's view of Go's buffer while the buffer itself stays where it
// was; registrations and template reads made after that must reach Go
// intact (written into the live memory, not the detached view).
func TestRegistrationsAfterGoMemoryGrew(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got struct {
			Grew       bool
			Read       any
			ReplaceErr string
			Templates  int
			Registered int
		}
		faultRun(t, `
const before = I.stats().wasmMemoryBytes;
// Registrations with long, distinct uris, each pushed once from its
// subscribe: each key is copied into Go's heap
// until Go grows its memory (the export buffer grows once, early).
const pushOnce = (onChange) => { onChange(); return () => {}; };
const long = 'x'.repeat(4000);
let n = 0;
while (I.stats().wasmMemoryBytes === before && n < 50000) {
  mc.registerResource({uri: 'state://grow/' + n + '/' + long, name: 'g', get: () => 1, subscribe: pushOnce});
  n++;
}
const grew = I.stats().wasmMemoryBytes > before;
// Short encodings next: they fit the buffer that did not move: a template,
// and a replacement of a resource.
mc.registerResource({uriTemplate: 'state://tpl/{id}', name: 't', get: (p) => p.id});
let replaceErr = '';
try {
  mc.registerResource({uri: 'state://after', name: 'a', get: () => 1, subscribe: pushOnce});
  mc.registerResource({uri: 'state://after', name: 'b', get: () => 2});
} catch (e) { replaceErr = String(e && e.message); }
return {grew, read: await mc.readResource('state://tpl/7'), replaceErr, templates: I.stats().registrations - mc.getResources().length,
  registered: n};
`, &got)
		if !got.Grew {
			t.Fatalf("Go's memory did not grow after %d registrations: the test proves nothing", got.Registered)
		}
		if got.Read != "7" || got.ReplaceErr != "" || got.Templates != 1 {
			t.Errorf("after the memory grew: read %v (want \"7\"), replace error %q, %d templates in Go (want 1)", got.Read, got.ReplaceErr, got.Templates)
		}
	})
}
