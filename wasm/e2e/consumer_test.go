package e2e

import "testing"

// wasm/CONTRACT.md §4: getResources, readResource, subscribeResource and the
// two events.

const notFoundJS = `{"name": "NotFoundError", "message": "modelcontext: no resource is registered for uri \"state://missing\"",
	"typeError": false, "domException": true, "error": true}`

func TestGetResources(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "empty at first",
			js:   `return mc.getResources();`,
			want: `[]`,
		},
		{
			name: "registration order, kept across replacement and unregistration",
			js: lines(
				`const u = {};`,
				`for (const n of ['c', 'a', 'd', 'b']) u[n] = mc.registerResource({uri: 'state://' + n, name: n, get: () => n});`,
				`const first = mc.getResources().map((d) => d.name);`,
				`mc.registerResource({uri: 'state://a', name: 'a2', get: () => 1});`,
				`u.d();`,
				`mc.registerResource({uri: 'state://d', name: 'd2', get: () => 1});`,
				`return {first, then: mc.getResources().map((d) => d.name)};`,
			),
			want: `{"first": ["c", "a", "d", "b"], "then": ["c", "a2", "b", "d2"]}`,
		},
		{
			name: "a fresh array of fresh objects; mutating them changes nothing",
			js: lines(
				`mc.registerResource({uri: 'state://x', name: 'x', title: 'X', get: () => 1, annotations: {audience: ['user'], priority: 0.3}});`,
				`const a = mc.getResources(), b = mc.getResources();`,
				`const fresh = {array: a !== b, object: a[0] !== b[0], annotations: a[0].annotations !== b[0].annotations,`,
				`  audience: a[0].annotations.audience !== b[0].annotations.audience};`,
				`a.push({uri: 'state://fake', name: 'fake'}); a[0].name = 'mutated'; a[0].uri = 'state://mutated'; delete a[0].title;`,
				`a[0].annotations.audience.push('assistant'); a[0].annotations.priority = 1; a[0].subscribable = true;`,
				`b.length = 0;`,
				`return {fresh, now: mc.getResources(), read: await mc.readResource('state://x')};`,
			),
			want: `{"fresh": {"array": true, "object": true, "annotations": true, "audience": true},
				"now": [{"uri": "state://x", "name": "x", "title": "X", "mimeType": "application/json",
					"annotations": {"audience": ["user"], "priority": 0.3}, "subscribable": false}], "read": 1}`,
		},
		{
			name: "subscribable reflects subscribe",
			js: lines(
				`mc.registerResource({uri: 'state://push', name: 'p', get: () => 1, subscribe: () => () => {}});`,
				`mc.registerResource({uri: 'state://pull', name: 'q', get: () => 1});`,
				`return mc.getResources().map((d) => [d.uri, d.subscribable]);`,
			),
			want: `[["state://push", true], ["state://pull", false]]`,
		},
	})
}

func TestReadResource(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "calls get at the moment of the read and resolves with the very object, never cached",
			js: lines(
				`let current = {v: 1}, gets = 0;`,
				`mc.registerResource({uri: 'state://live', name: 'live', get: () => { gets++; return current; }});`,
				`const first = current;`,
				`const p1 = mc.readResource('state://live');`,
				`const getsAtCall = gets;`,
				`current = {v: 2};`,
				`const r1 = await p1;`,
				`const r2 = await mc.readResource('state://live');`,
				`const r3 = await mc.readResource('state://live');`,
				`return {getsAtCall, gets, isPromise: p1 instanceof Promise, veryFirst: r1 === first, verySecond: r2 === current, r1, r2, sameTwice: r2 === r3};`,
			),
			want: `{"getsAtCall": 1, "gets": 3, "isPromise": true, "veryFirst": true, "verySecond": true, "r1": {"v": 1}, "r2": {"v": 2}, "sameTwice": true}`,
		},
		{
			name: "awaits an async get and resolves with the very object",
			js: lines(
				`const obj = {async: true};`,
				`mc.registerResource({uri: 'state://a', name: 'a', get: async () => { await H.sleep(5); return obj; }});`,
				`const r = await mc.readResource('state://a');`,
				`return {very: r === obj};`,
			),
			want: `{"very": true}`,
		},
		{
			name: "reads values JSON cannot encode, as they are",
			js: lines(
				`const c = {}; c.self = c;`,
				`const values = {cycle: c, big: 10n, map: new Map([[1, 2]]), bytes: new Uint8Array([1])};`,
				`const out = {};`,
				`for (const [k, v] of Object.entries(values)) {`,
				`  mc.registerResource({uri: 'state://' + k, name: k, get: () => v});`,
				`  out[k] = (await mc.readResource('state://' + k)) === v;`,
				`}`,
				`return out;`,
			),
			want: `{"cycle": true, "big": true, "map": true, "bytes": true}`,
		},
		{
			name: "does not dispatch",
			js: lines(
				`const a = H.pushable(mc, {value: 1});`,
				`let events = 0;`,
				`mc.addEventListener('resourceupdated', () => { events++; });`,
				`await mc.readResource(a.uri); a.value = 2; await mc.readResource(a.uri);`,
				`await H.settle();`,
				`return events;`,
			),
			want: `0`,
		},
		{
			name: "an unknown uri rejects with NotFoundError naming the uri",
			js: lines(
				`const p = mc.readResource('state://missing');`,
				`return {isPromise: p instanceof Promise, err: await H.rejection(p)};`,
			),
			want: `{"isPromise": true, "err": ` + notFoundJS + `}`,
		},
		{
			name: "an unregistered uri rejects with NotFoundError",
			js: lines(
				`const u = mc.registerResource({uri: 'state://missing', name: 'm', get: () => 1});`,
				`u();`,
				`return await H.rejection(mc.readResource('state://missing'));`,
			),
			want: notFoundJS,
		},
		{
			name: "a throwing get rejects with the very error",
			js: lines(
				`const boom = new RangeError('read failed');`,
				`mc.registerResource({uri: 'state://t', name: 't', get: () => { throw boom; }});`,
				`let caught, threw = false;`,
				`let p;`,
				`try { p = mc.readResource('state://t'); } catch (e) { threw = true; }`,
				`try { await p; } catch (e) { caught = e; }`,
				`return {threw, very: caught === boom};`,
			),
			want: `{"threw": false, "very": true}`,
		},
		{
			name: "a rejecting get rejects with the very error",
			js: lines(
				`const boom = new Error('read rejected');`,
				`mc.registerResource({uri: 'state://t', name: 't', get: () => Promise.reject(boom)});`,
				`let caught;`,
				`try { await mc.readResource('state://t'); } catch (e) { caught = e; }`,
				`return {very: caught === boom};`,
			),
			want: `{"very": true}`,
		},
		{
			name: "a non-string uri rejects with a TypeError",
			js: lines(
				`const out = {};`,
				`for (const [k, v] of [['number', 1], ['undefined', undefined], ['null', null], ['array', ['state://x']], ['object', {}]]) {`,
				`  let threw = null;`,
				`  let p;`,
				`  try { p = mc.readResource(v); } catch (e) { threw = e.message; }`,
				`  out[k] = threw !== null ? {threw} : (await H.rejection(p)).message;`,
				`}`,
				`return out;`,
			),
			want: `{"number": "modelcontext: readResource: \"uri\" must be a string, got number",
				"undefined": "modelcontext: readResource: \"uri\" must be a string, got undefined",
				"null": "modelcontext: readResource: \"uri\" must be a string, got null",
				"array": "modelcontext: readResource: \"uri\" must be a string, got array",
				"object": "modelcontext: readResource: \"uri\" must be a string, got object"}`,
		},
	})
}

func TestSubscribeResource(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "handler(value, uri) per dispatched push; unsubscribe stops it",
			js: lines(
				`const a = H.pushable(mc, {value: 0});`,
				`const calls = [];`,
				`const unsubscribe = mc.subscribeResource(a.uri, function (...args) { calls.push([args.length, args[0], args[1] === a.uri]); });`,
				`a.push('A'); a.push('A'); a.push('B');`,
				`const type = typeof unsubscribe;`,
				`const ret = unsubscribe();`,
				`a.push('C');`,
				`const again = H.error(unsubscribe);`,
				`await H.settle();`,
				`return {type, ret: ret === undefined, again, calls};`,
			),
			want: `{"type": "function", "ret": true, "again": null, "calls": [[2, "A", true], [2, "B", true]]}`,
		},
		{
			name: "the same stream as resourceupdated",
			js: lines(
				`const a = H.pushable(mc);`,
				`const rec = H.record(mc, a.uri);`,
				`for (const v of [1, 1, 2, {x: 1}, {x: 1}, 2, null]) a.push(v);`,
				`await H.settle();`,
				`return {events: rec.events, handler: rec.handler, same: rec.events.every((v, i) => v === rec.handler[i])};`,
			),
			want: `{"events": [1, 2, {"x": 1}, 2, null], "handler": [1, 2, {"x": 1}, 2, null], "same": true}`,
		},
		{
			name: "handlers run in subscription order, after the resourceupdated listeners",
			js: lines(
				`const a = H.pushable(mc);`,
				`const order = [];`,
				`mc.subscribeResource(a.uri, () => order.push('handler 1'));`,
				`mc.addEventListener('resourceupdated', () => order.push('listener 1'));`,
				`mc.subscribeResource(a.uri, () => order.push('handler 2'));`,
				`mc.addEventListener('resourceupdated', () => order.push('listener 2'));`,
				`mc.subscribeResource(a.uri, () => order.push('handler 3'));`,
				`a.push(1);`,
				`await H.settle();`,
				`return order;`,
			),
			want: `["listener 1", "listener 2", "handler 1", "handler 2", "handler 3"]`,
		},
		{
			name: "the same function subscribed twice is called twice",
			js: lines(
				`const a = H.pushable(mc);`,
				`let n = 0; const h = () => { n++; };`,
				`const u1 = mc.subscribeResource(a.uri, h); mc.subscribeResource(a.uri, h);`,
				`a.push(1); u1(); a.push(2);`,
				`await H.settle();`,
				`return n;`,
			),
			want: `3`,
		},
		{
			name: "survives a replacement of the resource",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://s'});`,
				`const got = [];`,
				`mc.subscribeResource('state://s', (v) => got.push(v));`,
				`a.push('old');`,
				`const b = H.pushable(mc, {uri: 'state://s'});`,
				`b.push('new');`,
				`await H.settle();`,
				`return got;`,
			),
			want: `["old", "new"]`,
		},
		{
			name: "ends with the unregistration",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://s'});`,
				`const got = [];`,
				`mc.subscribeResource('state://s', (v) => got.push(v));`,
				`a.push(1);`,
				`a.unregister();`,
				`const b = H.pushable(mc, {uri: 'state://s'});`,
				`b.push(2);`,
				`await H.settle();`,
				`return got;`,
			),
			want: `[1]`,
		},
		{
			name: "a throwing handler is reported and stops nothing",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://h'});`,
				`const boom = new Error('handler failed');`,
				`const got = [];`,
				`mc.subscribeResource('state://h', (v) => got.push('before ' + v));`,
				`mc.subscribeResource('state://h', () => { throw boom; });`,
				`mc.subscribeResource('state://h', (v) => got.push('after ' + v));`,
				`mc.addEventListener('resourceupdated', (ev) => got.push('listener ' + ev.detail.value));`,
				`const err = H.error(() => a.push(1));`,
				`a.push(2);`,
				`await H.settle();`,
				`const call = H.raw.find((c) => c.level === 'error');`,
				`return {err, got, errors: H.mine('error'), veryError: call !== undefined && call.args[1] === boom};`,
			),
			want: `{"err": null, "got": ["listener 1", "before 1", "after 1", "listener 2", "before 2", "after 2"],
				"errors": ["modelcontext: a subscribeResource handler of \"state://h\" threw:", "modelcontext: a subscribeResource handler of \"state://h\" threw:"],
				"veryError": true}`,
		},
		{
			name: "an unknown uri throws NotFoundError",
			js:   `return H.error(() => mc.subscribeResource('state://missing', () => {}));`,
			want: notFoundJS,
		},
		{
			name: "a non-string uri or non-function handler throws a TypeError",
			js: lines(
				`mc.registerResource({uri: 'state://x', name: 'x', get: () => 1});`,
				`return [H.error(() => mc.subscribeResource(1, () => {})).message,`,
				`  H.error(() => mc.subscribeResource(undefined, () => {})).message,`,
				`  H.error(() => mc.subscribeResource(['state://x'], () => {})).message,`,
				`  H.error(() => mc.subscribeResource('state://x')).message,`,
				`  H.error(() => mc.subscribeResource('state://x', 'handler')).message,`,
				`  H.error(() => mc.subscribeResource('state://x', null)).message,`,
				`  H.error(() => mc.subscribeResource('state://x', {})).name];`,
			),
			want: `["modelcontext: subscribeResource: \"uri\" must be a string, got number",
				"modelcontext: subscribeResource: \"uri\" must be a string, got undefined",
				"modelcontext: subscribeResource: \"uri\" must be a string, got array",
				"modelcontext: subscribeResource: \"handler\" must be a function, got undefined",
				"modelcontext: subscribeResource: \"handler\" must be a function, got string",
				"modelcontext: subscribeResource: \"handler\" must be a function, got null",
				"TypeError"]`,
		},
		{
			name: "a handler subscribed during a dispatch sees the next push",
			js: lines(
				`const a = H.pushable(mc);`,
				`const late = [];`,
				`let added = false;`,
				`mc.subscribeResource(a.uri, () => { if (!added) { added = true; mc.subscribeResource(a.uri, (v) => late.push(v)); } });`,
				`a.push(1); a.push(2);`,
				`await H.settle();`,
				`return late;`,
			),
			want: `[2]`,
		},
	})
}

func TestEvents(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "document.modelContext is an EventTarget",
			js:   `return {eventTarget: mc instanceof EventTarget, same: mc === document.modelContext};`,
			want: `{"eventTarget": true, "same": true}`,
		},
		{
			name: "resourcelistchanged is a CustomEvent whose detail lists the resources",
			js: lines(
				`const got = [];`,
				`mc.addEventListener('resourcelistchanged', (ev) => got.push({custom: ev instanceof CustomEvent, resources: ev.detail.resources, keys: Object.keys(ev.detail)}));`,
				`const u = mc.registerResource({uri: 'state://a', name: 'a', get: () => 1, subscribe: () => () => {}});`,
				`mc.registerResource({uri: 'state://a', name: 'a2', title: 'A', get: () => 1});`,
				`u(); // stale: nothing`,
				`mc.registerResource({uri: 'state://b', name: 'b', get: () => 1})();`,
				`await H.settle();`,
				`return got;`,
			),
			want: `[
				{"custom": true, "keys": ["resources", "revision"], "resources": [{"uri": "state://a", "name": "a", "mimeType": "application/json", "subscribable": true}]},
				{"custom": true, "keys": ["resources", "revision"], "resources": [{"uri": "state://a", "name": "a2", "title": "A", "mimeType": "application/json", "subscribable": false}]},
				{"custom": true, "keys": ["resources", "revision"], "resources": [{"uri": "state://a", "name": "a2", "title": "A", "mimeType": "application/json", "subscribable": false},
					{"uri": "state://b", "name": "b", "mimeType": "application/json", "subscribable": false}]},
				{"custom": true, "keys": ["resources", "revision"], "resources": [{"uri": "state://a", "name": "a2", "title": "A", "mimeType": "application/json", "subscribable": false}]}
			]`,
		},
		{
			name: "listeners run in registration order; a throwing listener stops nothing",
			js: lines(
				`const a = H.pushable(mc);`,
				`const order = [];`,
				`mc.addEventListener('resourceupdated', () => order.push(1));`,
				`mc.addEventListener('resourceupdated', () => { order.push(2); throw new Error('listener failed'); });`,
				`mc.addEventListener('resourceupdated', () => order.push(3));`,
				`mc.subscribeResource(a.uri, () => order.push('handler'));`,
				`mc.addEventListener('resourcelistchanged', () => { order.push('list 1'); throw new Error('list listener failed'); });`,
				`mc.addEventListener('resourcelistchanged', () => order.push('list 2'));`,
				`const err = H.error(() => a.push('x'));`,
				`const err2 = H.error(() => mc.registerResource({uri: 'state://z', name: 'z', get: () => 1}));`,
				`a.push('y');`,
				`await H.settle();`,
				`return {err, err2, order, uncaught: H.uncaught.length, listed: mc.getResources().length};`,
			),
			want: `{"err": null, "err2": null, "order": [1, 2, 3, "handler", "list 1", "list 2", 1, 2, 3, "handler"], "uncaught": 3, "listed": 2}`,
		},
		{
			name: "removeEventListener works",
			js: lines(
				`const a = H.pushable(mc);`,
				`let n = 0; const l = () => { n++; };`,
				`mc.addEventListener('resourceupdated', l);`,
				`a.push(1); mc.removeEventListener('resourceupdated', l); a.push(2);`,
				`await H.settle();`,
				`return n;`,
			),
			want: `1`,
		},
	})
}
