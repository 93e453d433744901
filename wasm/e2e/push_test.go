package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
)

// wasm/CONTRACT.md §3.1: pushes, de-duplication, fail-open, failing and
// asynchronous getters, re-entrancy.

// TestDeduplication pushes a sequence of values and checks which of them were
// dispatched, counted both through resourceupdated and through a
// subscribeResource handler (each must see the very objects, in order).
func TestDeduplication(t *testing.T) {
	cases := []struct {
		name   string
		values string // JavaScript array expression of the values pushed in turn
		want   []int  // indexes of the values dispatched
	}{
		{"A A A dispatches 1", `['A', 'A', 'A']`, []int{0}},
		{"A B A dispatches 3", `['A', 'B', 'A']`, []int{0, 1, 2}},
		{"A B B C dispatches 3", `['A', 'B', 'B', 'C']`, []int{0, 1, 3}},
		{"A B B A A dispatches 3", `['A', 'B', 'B', 'A', 'A']`, []int{0, 1, 3}},
		{"equal objects are compared by content", `[{a: 1, b: [1, 2]}, {a: 1, b: [1, 2]}, {a: 1, b: [1, 3]}]`, []int{0, 2}},
		{"the same object pushed twice", `(() => { const o = {n: 1}; return [o, o]; })()`, []int{0}},
		{"key order is part of the JSON form", `[{a: 1, b: 2}, {b: 2, a: 1}]`, []int{0, 1}},
		{"numbers, strings and booleans differ", `[1, '1', true, 'true', null, 0, false]`, []int{0, 1, 2, 3, 4, 5, 6}},
		{"null then null", `[null, null]`, []int{0}},
		{"undefined then undefined", `[undefined, undefined, null]`, []int{0, 2}},
		{"empty object then empty array", `[{}, []]`, []int{0, 1}},
		{"Date values by their JSON form", `[new Date(0), new Date(0), new Date(1)]`, []int{0, 2}},
		{"toJSON is honoured", `[{toJSON: () => 'x', n: 1}, {toJSON: () => 'x', n: 2}, {toJSON: () => 'y'}]`, []int{0, 2}},

		// Content JSON would hide.
		{"Map content change", `[new Map([['a', 1]]), new Map([['a', 1]]), new Map([['a', 2]]), new Map([['a', 2], ['b', 1]])]`, []int{0, 2, 3}},
		{"Map with object keys", `[new Map([[{id: 1}, 'x']]), new Map([[{id: 2}, 'x']])]`, []int{0, 1}},
		{"Set content change", `[new Set([1]), new Set([1]), new Set([1, 2]), new Set([2, 1])]`, []int{0, 2, 3}},
		{"ArrayBuffer content change", `[new Uint8Array([1, 2]).buffer, new Uint8Array([1, 2]).buffer, new Uint8Array([1, 3]).buffer]`, []int{0, 2}},
		{"Uint8Array content change", `[new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])]`, []int{0, 2}},
		{"Float64Array content change", `[new Float64Array([0.5]), new Float64Array([0.25]), new Float64Array([NaN]), new Float64Array([Infinity])]`, []int{0, 1, 2, 3}},
		{"Int32Array length change", `[new Int32Array(2), new Int32Array(3)]`, []int{0, 1}},
		{"DataView content change", `[new DataView(new Uint8Array([1]).buffer), new DataView(new Uint8Array([1]).buffer), new DataView(new Uint8Array([2]).buffer)]`, []int{0, 2}},
		{"typed array view window change", `(() => { const b = new Uint8Array([1, 2, 3, 4]).buffer; return [new Uint8Array(b, 0, 2), new Uint8Array(b, 2, 2)]; })()`, []int{0, 1}},
		{"nested Map inside an object", `[{cart: new Map([['sku', 1]])}, {cart: new Map([['sku', 2]])}]`, []int{0, 1}},
		{"nested typed array inside an array", `[[new Uint8Array([1])], [new Uint8Array([2])]]`, []int{0, 1}},
		{"Map then an empty object", `[new Map(), {}]`, []int{0, 1}},
		{"Set then an empty object", `[new Set(), {}]`, []int{0, 1}},
		{"Map then an array of its entries", `[new Map([['a', 1]]), [['a', 1]]]`, []int{0, 1}},
		{"Set then an array of its values", `[new Set([1, 2]), [1, 2]]`, []int{0, 1}},
		{"Map then a Set", `[new Map([[1, 1]]), new Set([[1, 1]])]`, []int{0, 1}},
		{"typed arrays of different types", `[new Uint8Array([1]), new Int8Array([1])]`, []int{0, 1}},
		{"typed array then a plain object", `[new Uint8Array([1]), {0: 1}]`, []int{0, 1}},
		{"ArrayBuffer then a typed array", `[new Uint8Array([1]).buffer, new Uint8Array([1])]`, []int{0, 1}},
		{"the same Map pushed twice", `(() => { const m = new Map([[1, 2]]); return [m, m]; })()`, []int{0}},

		// Corners of the keys of plain data (JSON.stringify without a
		// replacer): what is not plain must still be seen, and the two ways
		// of computing a key must agree wherever the JSON form is the same.
		{"a class instance and a plain object with the same JSON form", `(() => { class P { constructor(x) { this.x = x; } } return [new P(1), {x: 1}, new P(1), new P(2)]; })()`, []int{0, 3}},
		{"a Map in a class instance", `(() => { class C { constructor(n) { this.m = new Map([['a', n]]); } } return [new C(1), new C(1), new C(2)]; })()`, []int{0, 2}},
		{"a toJSON that returns a Map", `[{toJSON: () => new Map([['a', 1]])}, {toJSON: () => new Map([['a', 1]])}, {toJSON: () => new Map([['a', 2]])}]`, []int{0, 2}},
		{"a toJSON that is not a function is data", `[{toJSON: 1, m: new Map([['a', 1]])}, {toJSON: 1, m: new Map([['a', 1]])}, {toJSON: 1, m: new Map([['a', 2]])}]`, []int{0, 2}},
		{"a function with a toJSON that returns a Map", `(() => { const f = (n) => Object.assign(() => {}, {toJSON: () => new Map([['a', n]])}); return [{f: f(1)}, {f: f(1)}, {f: f(2)}]; })()`, []int{0, 2}},
		{"an Array subclass with a toJSON", `(() => { class A extends Array { toJSON() { return new Map([['a', this[0]]]); } } return [A.from([1]), A.from([1]), A.from([2])]; })()`, []int{0, 2}},
		{"a Map deep in plain objects and arrays", `[{a: {b: [{c: new Map([['k', 1]])}]}}, {a: {b: [{c: new Map([['k', 1]])}]}}, {a: {b: [{c: new Map([['k', 2]])}]}}]`, []int{0, 2}},
		{"a typed array deep in arrays", `[[1, [[new Float32Array([1])]]], [1, [[new Float32Array([1])]]], [1, [[new Float32Array([2])]]]]`, []int{0, 2}},
		{"sparse arrays by their JSON form", `[[, 1], [undefined, 1], [null, 1], [, 2]]`, []int{0, 3}},
		{"a Map behind the holes of a sparse array", `(() => { const a = []; a[5] = new Map([['k', 1]]); const b = []; b[5] = new Map([['k', 1]]); const c = []; c[5] = new Map([['k', 2]]); return [a, b, c]; })()`, []int{0, 2}},
		{"-0 is 0 in JSON", `[0, -0, {n: 0}, {n: -0}, [0], [-0]]`, []int{0, 2, 4}},
		{"-0 in a typed array is a change", `[new Float64Array([0]), new Float64Array([-0])]`, []int{0, 1}},
		{"a getter that returns a Map", `[{get m() { return new Map([['k', 1]]); }}, {get m() { return new Map([['k', 1]]); }}, {get m() { return new Map([['k', 2]]); }}]`, []int{0, 2}},
		{"a getter and a data property with the same value", `[{get n() { return 1; }}, {n: 1}, {get n() { return 2; }}]`, []int{0, 2}},
		{"a Map in an object with a null prototype", `(() => { const o = (n) => Object.assign(Object.create(null), {m: new Map([['k', n]])}); return [o(1), o(1), o(2)]; })()`, []int{0, 2}},
		{"an object with a null prototype and a plain object with the same JSON form", `[Object.assign(Object.create(null), {a: 1}), {a: 1}]`, []int{0}},
		{"a Proxy of an object holding a Map", `[new Proxy({m: new Map([['k', 1]])}, {}), new Proxy({m: new Map([['k', 1]])}, {}), new Proxy({m: new Map([['k', 2]])}, {})]`, []int{0, 2}},
		{"a Date and its JSON string", `[{d: new Date(0)}, {d: '1970-01-01T00:00:00.000Z'}, {d: new Date(1)}]`, []int{0, 2}},
		{"a string posing as a Map's tag in an array", `[new Map([['a', 1]]), ['\u0000Map', [['a', 1]]], new Map([['a', 1]])]`, []int{0, 1, 2}},
		{"an object posing as a Map", `[new Map([['a', 1]]), {'\u0000Map': [['a', 1]]}, new Map([['a', 1]])]`, []int{0, 1, 2}},
		{"a string posing as a typed array's tag", `[new Uint8Array([65]), ['\u0000Uint8Array', 'A'], new Uint8Array([65])]`, []int{0, 1, 2}},
		{"strings that start with NUL are still compared", `[['\u0000x'], ['\u0000x'], ['\u0000y'], '\u0000y', '\u0000y']`, []int{0, 2, 3}},
		{"a Map below a deep nesting of plain objects", `(() => { const deep = (leaf) => { let v = leaf; for (let i = 0; i < 100; i++) v = {v}; return v; }; return [deep(1), deep(1), deep(new Map([['k', 1]])), deep(new Map([['k', 1]])), deep(new Map([['k', 2]]))]; })()`, []int{0, 2, 4}},
		{"undefined, a function and a symbol have the same JSON form", `[undefined, () => 1, Symbol('s'), null]`, []int{0, 3}},

		// Fail-open: no comparison key.
		{"cycles fail open", `(() => { const a = {}; a.self = a; const b = {}; b.self = b; return [a, b]; })()`, []int{0, 1}},
		{"after a cycle the next equal value dispatches", `(() => { const c = {}; c.self = c; return ['A', c, 'A', 'A']; })()`, []int{0, 1, 2}},
		{"BigInt fails open", `[{n: 1n}, {n: 1n}, 'A', 'A']`, []int{0, 1, 2}},
		{"a Blob fails open: its content cannot be seen", `[new Blob(['a']), new Blob(['a']), new Blob(['b'])]`, []int{0, 1, 2}},
		{"a throwing toJSON fails open", `(() => { const bad = () => ({toJSON() { throw new Error('nope'); }}); return ['A', bad(), bad(), 'A']; })()`, []int{0, 1, 2, 3}},
	}
	eachImpl(t, func(t *testing.T, impl string) {
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := open(t, impl, "", "")
				var got struct{ Events, Handler []int }
				p.run(lines(
					`const values = `+c.values+`;`,
					fmt.Sprintf(`const a = H.pushable(mc, {uri: 'state://dedup/%d'});`, i),
					`const rec = H.record(mc, a.uri);`,
					`for (const v of values) a.push(v);`,
					`await H.settle();`,
					`a.unregister();`,
					`const index = (list) => { let from = 0; return list.map((v) => { const i = values.indexOf(v, from); from = i + 1; return i; }); };`,
					`return {events: index(rec.events), handler: index(rec.handler)};`,
				), &got)
				want, _ := json.Marshal(c.want)
				for what, list := range map[string][]int{"resourceupdated": got.Events, "subscribeResource": got.Handler} {
					gotJSON, _ := json.Marshal(list)
					if string(gotJSON) != string(want) {
						t.Errorf("%s dispatched values %s, want %s\n%s", what, gotJSON, want, p.ConsoleText())
					}
				}
			})
		}
	})
}

func TestPushes(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "get is called at once and a synchronous value is dispatched before onChange returns",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`const rec = H.record(mc, a.uri);`,
				`const gets = a.gets;`,
				`a.push(2);`,
				`const sync = {gets: a.gets - gets, events: rec.events.slice(), handler: rec.handler.slice()};`,
				`return sync;`,
			),
			want: `{"gets": 1, "events": [2], "handler": [2]}`,
		},
		{
			name: "the same object mutated in place between pushes dispatches each change",
			js: lines(
				`const obj = {n: 1}, map = new Map([['k', 1]]), bytes = new Uint8Array([1, 2]), set = new Set([1]);`,
				`const counts = {};`,
				`for (const [label, value, mutate] of [['object', obj, () => { obj.n++; }], ['Map', map, () => { map.set('k', map.get('k') + 1); }],`,
				`    ['Uint8Array', bytes, () => { bytes[1]++; }], ['Set', set, () => { set.add(set.size + 1); }]]) {`,
				`  const a = H.pushable(mc, {value});`,
				`  const rec = H.record(mc, a.uri);`,
				`  a.push(value); mutate(); a.push(value); a.push(value); mutate(); a.push(value);`,
				`  await H.settle();`,
				`  counts[label] = [rec.events.length, rec.handler.length];`,
				`}`,
				`return counts;`,
			),
			want: `{"object": [3, 3], "Map": [3, 3], "Uint8Array": [3, 3], "Set": [3, 3]}`,
		},
		{
			name: "the first push dispatches even when a read returned the same value",
			js: lines(
				`const a = H.pushable(mc, {value: 'A'});`,
				`const rec = H.record(mc, a.uri);`,
				`await mc.readResource(a.uri);`,
				`a.push('A');`,
				`await H.settle();`,
				`return rec.events;`,
			),
			want: `["A"]`,
		},
		{
			name: "a read does not move the de-duplication baseline",
			js: lines(
				`const a = H.pushable(mc, {value: 'A'});`,
				`const rec = H.record(mc, a.uri);`,
				`a.push('A');`,
				`a.value = 'B';`,
				`await mc.readResource(a.uri);`,
				`a.push('B'); a.push('B');`,
				`await H.settle();`,
				`return rec.events;`,
			),
			want: `["A", "B"]`,
		},
		{
			name: "the event carries the very object get returned",
			js: lines(
				`const obj = {cart: [1, 2]};`,
				`const a = H.pushable(mc, {value: obj});`,
				`let same = null, handlerSame = null, handlerUri = null, isCustomEvent = null, detailKeys = null;`,
				`mc.addEventListener('resourceupdated', (ev) => { isCustomEvent = ev instanceof CustomEvent; same = ev.detail.value === obj; detailKeys = Object.keys(ev.detail).sort(); });`,
				`mc.subscribeResource(a.uri, (v, u) => { handlerSame = v === obj; handlerUri = u; });`,
				`a.push(obj);`,
				`await H.settle();`,
				`return {isCustomEvent, same, detailKeys, handlerSame, handlerUriOk: handlerUri === a.uri};`,
			),
			want: `{"isCustomEvent": true, "same": true, "detailKeys": ["revision", "uri", "value"], "handlerSame": true, "handlerUriOk": true}`,
		},
		{
			name: "pushes of different resources are de-duplicated separately",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://a'}), b = H.pushable(mc, {uri: 'state://b'});`,
				`const seen = [];`,
				`mc.addEventListener('resourceupdated', (ev) => seen.push(ev.detail.uri + '=' + ev.detail.value));`,
				`a.push('X'); b.push('X'); a.push('X'); b.push('Y'); a.push('Y');`,
				`await H.settle();`,
				`return seen;`,
			),
			want: `["state://a=X", "state://b=X", "state://b=Y", "state://a=Y"]`,
		},
		{
			name: "a throwing get is reported, dispatches nothing, keeps the baseline, and later pushes work",
			js: lines(
				`const boom = new Error('get failed');`,
				`let mode = 'A';`,
				`let onChange;`,
				`mc.registerResource({uri: 'state://g', name: 'g', get: () => { if (mode === 'throw') throw boom; return mode; },`,
				`  subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`const rec = H.record(mc, 'state://g');`,
				`onChange();`,
				`mode = 'throw';`,
				`const err = H.error(() => onChange());`,
				`mode = 'A'; onChange();`,
				`mode = 'B'; onChange();`,
				`await H.settle();`,
				`const call = H.raw.find((c) => c.level === 'error');`,
				`return {err, events: rec.events, handler: rec.handler, errors: H.mine('error'), veryError: call !== undefined && call.args[1] === boom};`,
			),
			want: `{"err": null, "events": ["A", "B"], "handler": ["A", "B"],
				"errors": ["modelcontext: get() of \"state://g\" failed; nothing was pushed:"], "veryError": true}`,
		},
		{
			name: "a rejecting get is reported, dispatches nothing, keeps the baseline, and later pushes work",
			js: lines(
				`const boom = new Error('get rejected');`,
				`let mode = 'A';`,
				`let onChange;`,
				`mc.registerResource({uri: 'state://g', name: 'g', get: async () => { if (mode === 'reject') throw boom; return mode; },`,
				`  subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`const rec = H.record(mc, 'state://g');`,
				`onChange(); await H.settle();`,
				`mode = 'reject'; onChange(); await H.settle();`,
				`mode = 'A'; onChange(); await H.settle();`,
				`mode = 'B'; onChange(); await H.settle();`,
				`const call = H.raw.find((c) => c.level === 'error');`,
				`return {events: rec.events, handler: rec.handler, errors: H.mine('error'), veryError: call !== undefined && call.args[1] === boom,`,
				`  uncaught: H.uncaught};`,
			),
			want: `{"events": ["A", "B"], "handler": ["A", "B"],
				"errors": ["modelcontext: get() of \"state://g\" failed; nothing was pushed:"], "veryError": true, "uncaught": []}`,
		},
		{
			name: "a get throwing a non-Error value is survived",
			js: lines(
				`let mode = 'string';`,
				`let onChange;`,
				`mc.registerResource({uri: 'state://g', name: 'g', get: () => { if (mode === 'string') throw 'plain string'; if (mode === 'undefined') throw undefined; return mode; },`,
				`  subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`const rec = H.record(mc, 'state://g');`,
				`const errs = [H.error(() => onChange())];`,
				`mode = 'undefined'; errs.push(H.error(() => onChange()));`,
				`mode = 'ok'; onChange();`,
				`await H.settle();`,
				`return {errs, events: rec.events, errors: H.mine('error').length};`,
			),
			want: `{"errs": [null, null], "events": ["ok"], "errors": 2}`,
		},
	})
}

func TestAsyncGetters(t *testing.T) {
	// Each scenario registers state://async whose get returns the next
	// deferred from gets; calls[i].resolve(v) settles the i-th push.
	const setup = `
const calls = [];
let onChange;
mc.registerResource({uri: 'state://async', name: 'async',
  get: () => { const d = H.deferred(); calls.push(d); return d.promise; },
  subscribe: (cb) => { onChange = cb; return () => {}; }});
const rec = H.record(mc, 'state://async');
`
	runScenarios(t, []scenario{
		{
			name: "results in order are all dispatched in order",
			js: setup + lines(
				`onChange(); onChange();`,
				`calls[0].resolve('A'); await H.settle();`,
				`calls[1].resolve('B'); await H.settle();`,
				`return {events: rec.events, handler: rec.handler};`,
			),
			want: `{"events": ["A", "B"], "handler": ["A", "B"]}`,
		},
		{
			name: "a slow older result is never delivered after a newer one",
			js: setup + lines(
				`onChange(); onChange();`,
				`calls[1].resolve('new'); await H.settle();`,
				`calls[0].resolve('old'); await H.settle();`,
				`return {events: rec.events, handler: rec.handler};`,
			),
			want: `{"events": ["new"], "handler": ["new"]}`,
		},
		{
			name: "a newer suppressed push also makes an older result late",
			js: setup + lines(
				`onChange(); calls[0].resolve('A'); await H.settle();`,
				`onChange(); onChange();`,
				`calls[2].resolve('A'); await H.settle();`,
				`calls[1].resolve('B'); await H.settle();`,
				`return {events: rec.events, handler: rec.handler};`,
			),
			want: `{"events": ["A"], "handler": ["A"]}`,
		},
		{
			name: "a get that never settles holds nothing back",
			js: setup + lines(
				`onChange(); onChange(); onChange();`,
				`calls[1].resolve('B'); await H.settle();`,
				`const afterB = rec.events.slice();`,
				`calls[2].resolve('C'); await H.settle();`,
				`return {afterB, events: rec.events, handler: rec.handler};`,
			),
			want: `{"afterB": ["B"], "events": ["B", "C"], "handler": ["B", "C"]}`,
		},
		{
			name: "a synchronous newer result overtakes a pending older one",
			js: lines(
				`let mode = 'async', d; let onChange;`,
				`mc.registerResource({uri: 'state://mixed', name: 'm', get: () => { if (mode === 'async') { d = H.deferred(); return d.promise; } return mode; },`,
				`  subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`const rec = H.record(mc, 'state://mixed');`,
				`onChange();`,
				`mode = 'sync'; onChange();`,
				`await H.settle();`,
				`d.resolve('late'); await H.settle();`,
				`return rec.events;`,
			),
			want: `["sync"]`,
		},
		{
			name: "an async result for a replaced registration is dropped",
			js: setup + lines(
				`onChange();`,
				`mc.registerResource({uri: 'state://async', name: 'new', get: () => 'new', subscribe: () => () => {}});`,
				`calls[0].resolve('old'); await H.settle();`,
				`return {events: rec.events, errors: H.mine('error')};`,
			),
			want: `{"events": [], "errors": []}`,
		},
		{
			name: "an async result for an unregistered resource is dropped",
			js: lines(
				`let d, onChange;`,
				`const unregister = mc.registerResource({uri: 'state://gone', name: 'g', get: () => { d = H.deferred(); return d.promise; },`,
				`  subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`let events = 0;`,
				`mc.addEventListener('resourceupdated', () => { events++; });`,
				`onChange();`,
				`unregister();`,
				`d.resolve('value'); await H.settle();`,
				`return {events, errors: H.mine('error')};`,
			),
			want: `{"events": 0, "errors": []}`,
		},
		{
			name: "async values are de-duplicated like synchronous ones",
			js: setup + lines(
				`for (const v of ['A', 'A', 'B', 'B', 'A']) { onChange(); calls[calls.length - 1].resolve(v); await H.settle(); }`,
				`return rec.events;`,
			),
			want: `["A", "B", "A"]`,
		},
	})
}

func TestReentrancy(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "onChange from inside get",
			js: lines(
				`let state = 1, onChange, reentered = false;`,
				`mc.registerResource({uri: 'state://re', name: 're', get: () => {`,
				`  if (!reentered && state === 2) { reentered = true; state = 3; onChange(); }`,
				`  return state; },`,
				`  subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`const rec = H.record(mc, 'state://re');`,
				`state = 2;`,
				`const err = H.error(() => onChange());`,
				`await H.settle();`,
				`return {err, last: rec.events[rec.events.length - 1], lastHandler: rec.handler[rec.handler.length - 1],`,
				`  atMostTwo: rec.events.length <= 2, uncaught: H.uncaught, errors: H.mine('error'), read: await mc.readResource('state://re')};`,
			),
			want: `{"err": null, "last": 3, "lastHandler": 3, "atMostTwo": true, "uncaught": [], "errors": [], "read": 3}`,
		},
		{
			name: "onChange from inside a resourceupdated listener keeps every consumer in order",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`const first = [], second = [], handler = [];`,
				`mc.addEventListener('resourceupdated', (ev) => { first.push(ev.detail.value); if (ev.detail.value === 1) a.push(2); });`,
				`mc.addEventListener('resourceupdated', (ev) => { second.push(ev.detail.value); });`,
				`mc.subscribeResource(a.uri, (v) => handler.push(v));`,
				`const err = H.error(() => a.push(1));`,
				`await H.settle();`,
				`return {err, first, second, handler};`,
			),
			want: `{"err": null, "first": [1, 2], "second": [1, 2], "handler": [1, 2]}`,
		},
		{
			name: "onChange from inside a subscribeResource handler keeps every consumer in order",
			js: lines(
				`const a = H.pushable(mc, {value: 'x'});`,
				`const events = [], h1 = [], h2 = [];`,
				`mc.addEventListener('resourceupdated', (ev) => events.push(ev.detail.value));`,
				`mc.subscribeResource(a.uri, (v) => { h1.push(v); if (v === 'x') a.push('y'); });`,
				`mc.subscribeResource(a.uri, (v) => h2.push(v));`,
				`const err = H.error(() => a.push('x'));`,
				`await H.settle();`,
				`return {err, events, h1, h2};`,
			),
			want: `{"err": null, "events": ["x", "y"], "h1": ["x", "y"], "h2": ["x", "y"]}`,
		},
		{
			name: "registering, unregistering and reading from inside listeners and handlers",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`const out = {};`,
				`mc.addEventListener('resourceupdated', (ev) => {`,
				`  if (ev.detail.uri !== a.uri) return;`,
				`  out.registerErr = H.error(() => { out.unregisterB = mc.registerResource({uri: 'state://b', name: 'b', get: () => 'b'}); });`,
				`  out.listed = mc.getResources().map((d) => d.uri);`,
				`  mc.readResource('state://b').then((v) => { out.read = v; });`,
				`});`,
				`mc.subscribeResource(a.uri, () => { out.unregisterErr = H.error(() => out.unregisterB()); out.listedInHandler = mc.getResources().length; });`,
				`a.push(1);`,
				`await H.settle();`,
				`const named = (list) => list.map((u) => u === a.uri ? 'A' : u);`,
				`return {registerErr: out.registerErr, unregisterErr: out.unregisterErr, listed: named(out.listed), listedInHandler: out.listedInHandler, read: out.read,`,
				`  after: named(mc.getResources().map((d) => d.uri))};`,
			),
			want: `{"registerErr": null, "unregisterErr": null, "listed": ["A", "state://b"], "listedInHandler": 1, "read": "b", "after": ["A"]}`,
		},
		{
			name: "a handler unregistering its own resource stops later pushes",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`const got = [];`,
				`mc.subscribeResource(a.uri, (v) => { got.push(v); a.unregister(); });`,
				`a.push(1);`,
				`const err = H.error(() => a.push(2));`,
				`await H.settle();`,
				`return {got, err, listed: mc.getResources().length};`,
			),
			want: `{"got": [1], "err": null, "listed": 0}`,
		},
		{
			name: "a handler replacing its resource: the other handlers still get the value, with its uri",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`const h1 = [], h2 = [];`,
				`let b;`,
				`mc.subscribeResource(a.uri, (v, uri) => { h1.push([v, uri === a.uri]); if (!b) b = H.pushable(mc, {uri: a.uri, value: 2}); });`,
				`mc.subscribeResource(a.uri, (v, uri) => h2.push([v, uri === a.uri]));`,
				`const err = H.error(() => a.push(1));`,
				`const err2 = H.error(() => b.push(3));`,
				`await H.settle();`,
				`return {err, err2, h1, h2, tornDown: a.tornDown, errors: H.mine('error')};`,
			),
			want: `{"err": null, "err2": null, "h1": [[1, true], [3, true]], "h2": [[1, true], [3, true]], "tornDown": true, "errors": []}`,
		},
		{
			name: "a listener that unregisters the resource and registers another: the other's handlers never get the first value",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`const got = [];`,
				`let b;`,
				`mc.addEventListener('resourceupdated', (ev) => {`,
				`  if (ev.detail.uri !== a.uri || b) return;`,
				`  a.unregister();`,
				`  b = H.pushable(mc, {value: 'b'});`,
				`  mc.subscribeResource(b.uri, (v) => got.push(v));`,
				`});`,
				`const err = H.error(() => a.push(1));`,
				`const err2 = H.error(() => b.push('b2'));`,
				`await H.settle();`,
				`return {err, err2, got, listed: mc.getResources().map((d) => d.uri === b.uri), errors: H.mine('error')};`,
			),
			want: `{"err": null, "err2": null, "got": ["b2"], "listed": [true], "errors": []}`,
		},
		{
			name: "get() that unregisters its resource and registers another: nothing is dispatched for either",
			js: lines(
				`let b;`,
				`const seen = [];`,
				`mc.addEventListener('resourceupdated', (ev) => seen.push(ev.detail.uri));`,
				`const a = {uri: H.uri('a'), onChange: null};`,
				`a.unregister = mc.registerResource({uri: a.uri, name: 'a',`,
				`  get: () => { if (!b) { a.unregister(); b = H.pushable(mc, {value: 'b'}); } return 'a'; },`,
				`  subscribe: (cb) => { a.onChange = cb; return () => {}; }});`,
				`const err = H.error(() => a.onChange());`,
				`await H.settle();`,
				`return {err, seen, listed: mc.getResources().map((d) => d.uri === b.uri), errors: H.mine('error')};`,
			),
			want: `{"err": null, "seen": [], "listed": [true], "errors": []}`,
		},
		{
			name: "subscribe that replaces its own registration: its teardown still runs",
			js: lines(
				`const uri = H.uri('self');`,
				`let tornDown = 0, replaced = false, changes = 0;`,
				`mc.addEventListener('resourcelistchanged', () => changes++);`,
				`const err = H.error(() => mc.registerResource({uri, name: 'first', get: () => 1,`,
				`  subscribe: () => {`,
				`    if (!replaced) { replaced = true; mc.registerResource({uri, name: 'second', get: () => 2}); }`,
				`    return () => { tornDown++; };`,
				`  }}));`,
				`await H.settle();`,
				`return {err, tornDown, changes, listed: mc.getResources().map((d) => d.name), read: await mc.readResource(uri), errors: H.mine('error')};`,
			),
			want: `{"err": null, "tornDown": 1, "changes": 2, "listed": ["second"], "read": 2, "errors": []}`,
		},
		{
			name: "a teardown that registers its uri once more, during a replacement: the newest registration wins",
			js: lines(
				`const uri = H.uri('x');`,
				`const subscribed = [];`,
				`let again = false;`,
				`const desc = (name, onTeardown) => ({uri, name, get: () => name,`,
				`  subscribe: () => { subscribed.push(name); return onTeardown; }});`,
				`mc.registerResource(desc('a', () => { if (!again) { again = true; mc.registerResource(desc('c', () => {})); } }));`,
				`let changes = 0;`,
				`mc.addEventListener('resourcelistchanged', () => changes++);`,
				`const err = H.error(() => mc.registerResource(desc('b', () => {})));`,
				`await H.settle();`,
				`return {err, subscribed, changes, listed: mc.getResources().map((d) => d.name), read: await mc.readResource(uri), errors: H.mine('error')};`,
			),
			// One resourcelistchanged per registerResource call (b's and c's).
			want: `{"err": null, "subscribed": ["a", "c"], "changes": 2, "listed": ["c"], "read": "c", "errors": []}`,
		},
		{
			name: "onChange from inside subscribe during registration",
			js: lines(
				`const seen = [];`,
				`mc.addEventListener('resourceupdated', (ev) => seen.push(ev.detail.value));`,
				`const err = H.error(() => mc.registerResource({uri: 'state://eager', name: 'e', get: () => 'now',`,
				`  subscribe: (cb) => { cb(); return () => {}; }}));`,
				`await H.settle();`,
				`const listed = mc.getResources().map((d) => d.uri);`,
				`return {err, listed, atMostOne: seen.length <= 1, errors: H.mine('error')};`,
			),
			want: `{"err": null, "listed": ["state://eager"], "atMostOne": true, "errors": []}`,
		},
	})
}

// wasm/CONTRACT.md §7, no change goes missing: many changed pushes all arrive,
// in order, at every consumer; many register/unregister cycles leave nothing
// behind.
func TestVolume(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "10000 changed pushes arrive in order at every consumer",
			js: lines(
				`const a = H.pushable(mc, {value: 0});`,
				`let events = 0, handler = 0, ordered = true, last = -1;`,
				`mc.addEventListener('resourceupdated', (ev) => { events++; if (ev.detail.value !== last + 1) ordered = false; last = ev.detail.value; });`,
				`mc.subscribeResource(a.uri, () => { handler++; });`,
				`for (let i = 0; i < 10000; i++) { a.push(i); a.push(i); }`,
				`await H.settle();`,
				`return {events, handler, ordered};`,
			),
			want: `{"events": 10000, "handler": 10000, "ordered": true}`,
		},
		{
			name: "5000 register/unregister cycles leave the registry empty",
			js: lines(
				`let teardowns = 0, subscribes = 0;`,
				`for (let i = 0; i < 5000; i++) {`,
				`  const u = mc.registerResource({uri: 'state://cycle/' + (i % 7), name: 'c', get: () => i, subscribe: () => { subscribes++; return () => { teardowns++; }; }});`,
				`  if (i % 2 === 0) mc.subscribeResource('state://cycle/' + (i % 7), () => {});`,
				`  u();`,
				`}`,
				`await H.settle();`,
				`return {listed: mc.getResources().length, subscribes, teardowns};`,
			),
			want: `{"listed": 0, "subscribes": 5000, "teardowns": 5000}`,
		},
	})
}
