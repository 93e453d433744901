package e2e

import "testing"

// SPEC §7: no input from page code stops the module. Each hostile call may
// throw (or reject), but afterwards the module still works.
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
