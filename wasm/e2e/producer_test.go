package e2e

import "testing"

// wasm/CONTRACT.md §3: registration, subscribe, replacement and unregister.

func TestRegisterResource(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "returns unregister and lists the resource with defaults",
			js: lines(
				`const unregister = mc.registerResource({uri: 'state://cart', name: 'cart', get: () => ({items: []})});`,
				`const [d] = mc.getResources();`,
				`return {type: typeof unregister, keys: Object.keys(d).sort(), d};`,
			),
			want: `{"type": "function", "keys": ["mimeType", "name", "subscribable", "uri"],
				"d": {"uri": "state://cart", "name": "cart", "mimeType": "application/json", "subscribable": false}}`,
		},
		{
			name: "lists every field given",
			js: lines(
				`mc.registerResource({uri: 'state://route', name: 'route', title: 'Route', description: 'Where the visitor is',`,
				`  mimeType: 'text/plain', annotations: {audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-15T10:20:30Z'},`,
				`  get: () => '/home', subscribe: () => () => {}});`,
				`return mc.getResources();`,
			),
			want: `[{"uri": "state://route", "name": "route", "title": "Route", "description": "Where the visitor is",
				"mimeType": "text/plain", "annotations": {"audience": ["user", "assistant"], "priority": 0.5, "lastModified": "2025-01-15T10:20:30Z"},
				"subscribable": true}]`,
		},
		{
			name: "optional fields set to undefined count as absent",
			js: lines(
				`mc.registerResource({uri: 'state://u', name: 'u', get: () => 1, subscribe: undefined, title: undefined,`,
				`  description: undefined, mimeType: undefined, annotations: undefined});`,
				`const [d] = mc.getResources();`,
				`return {keys: Object.keys(d).sort(), d};`,
			),
			want: `{"keys": ["mimeType", "name", "subscribable", "uri"],
				"d": {"uri": "state://u", "name": "u", "mimeType": "application/json", "subscribable": false}}`,
		},
		{
			name: "the descriptor is read once: later mutation changes nothing",
			js: lines(
				`const d = {uri: 'state://m', name: 'before', title: 'T', get: () => 'original', annotations: {audience: ['user'], priority: 0.2}};`,
				`mc.registerResource(d);`,
				`d.name = 'after'; d.title = 'changed'; d.get = () => 'mutated'; d.uri = 'state://other';`,
				`d.annotations.priority = 0.9; d.annotations.audience.push('assistant');`,
				`return {listed: mc.getResources(), read: await mc.readResource('state://m')};`,
			),
			want: `{"listed": [{"uri": "state://m", "name": "before", "title": "T", "mimeType": "application/json",
				"annotations": {"audience": ["user"], "priority": 0.2}, "subscribable": false}], "read": "original"}`,
		},
		{
			name: "subscribe is called once, synchronously, with onChange",
			js: lines(
				`const calls = [];`,
				`mc.registerResource({uri: 'state://s', name: 's', get: () => 1,`,
				`  subscribe: (...args) => { calls.push(args.map((a) => typeof a)); return () => {}; }});`,
				`const sync = calls.length;`,
				`await H.settle();`,
				`return {sync, calls, subscribable: mc.getResources()[0].subscribable};`,
			),
			want: `{"sync": 1, "calls": [["function"]], "subscribable": true}`,
		},
		{
			name: "onChange takes no arguments and returns nothing",
			js: lines(
				`let onChange; let value = 1;`,
				`mc.registerResource({uri: 'state://o', name: 'o', get: () => value, subscribe: (cb) => { onChange = cb; return () => {}; }});`,
				`const rec = H.record(mc, 'state://o');`,
				`const r1 = onChange(); value = 2; const r2 = onChange('ignored', 42);`,
				`await H.settle();`,
				`return {r1: r1 === undefined, r2: r2 === undefined, events: rec.events};`,
			),
			want: `{"r1": true, "r2": true, "events": [1, 2]}`,
		},
		{
			name: "subscribe returning a non-function warns and the resource works",
			js: lines(
				`const results = {};`,
				`for (const [label, ret] of [['undefined', undefined], ['number', 5], ['null', null], ['object', {}], ['string', 'x']]) {`,
				`  const uri = 'state://leak-' + label; let onChange; let v = 0;`,
				`  H.clearLog();`,
				`  const unregister = mc.registerResource({uri, name: 'n', get: () => ++v, subscribe: (cb) => { onChange = cb; return ret; }});`,
				`  const rec = H.record(mc, uri);`,
				`  onChange(); onChange();`,
				`  await H.settle();`,
				`  const unregisterErr = H.error(unregister);`,
				`  results[label] = {warn: H.mine('warn'), errors: H.mine('error'), events: rec.events, listed: mc.getResources().length, unregisterErr};`,
				`}`,
				`return results;`,
			),
			want: `{
				"undefined": {"warn": ["modelcontext: subscribe() of \"state://leak-undefined\" returned undefined, not a teardown function; this subscription can never be torn down and leaks"], "errors": [], "events": [1, 2], "listed": 0, "unregisterErr": null},
				"number": {"warn": ["modelcontext: subscribe() of \"state://leak-number\" returned number, not a teardown function; this subscription can never be torn down and leaks"], "errors": [], "events": [1, 2], "listed": 0, "unregisterErr": null},
				"null": {"warn": ["modelcontext: subscribe() of \"state://leak-null\" returned null, not a teardown function; this subscription can never be torn down and leaks"], "errors": [], "events": [1, 2], "listed": 0, "unregisterErr": null},
				"object": {"warn": ["modelcontext: subscribe() of \"state://leak-object\" returned object, not a teardown function; this subscription can never be torn down and leaks"], "errors": [], "events": [1, 2], "listed": 0, "unregisterErr": null},
				"string": {"warn": ["modelcontext: subscribe() of \"state://leak-string\" returned string, not a teardown function; this subscription can never be torn down and leaks"], "errors": [], "events": [1, 2], "listed": 0, "unregisterErr": null}
			}`,
		},
		{
			name: "a teardown function returned by subscribe warns nothing",
			js: lines(
				`mc.registerResource({uri: 'state://ok', name: 'n', get: () => 1, subscribe: () => () => {}});`,
				`await H.settle();`,
				`return {warn: H.mine('warn'), error: H.mine('error')};`,
			),
			want: `{"warn": [], "error": []}`,
		},
		{
			name: "subscribe throwing is reported and the resource stays pull-only",
			js: lines(
				`const boom = new Error('subscribe failed');`,
				`const lc = H.listChanges(mc);`,
				`let unregister;`,
				`const err = H.error(() => { unregister = mc.registerResource({uri: 'state://t', name: 't', get: () => 'pulled', subscribe: () => { throw boom; }}); });`,
				`await H.settle();`,
				`const call = H.raw.find((c) => c.level === 'error');`,
				`return {err, unregisterType: typeof unregister, listed: mc.getResources(), read: await mc.readResource('state://t'),`,
				`  errors: H.mine('error'), veryError: call !== undefined && call.args[1] === boom,`,
				`  listChanged: lc.details.map((d) => d.resources.map((r) => r.subscribable))};`,
			),
			want: `{"err": null, "unregisterType": "function",
				"listed": [{"uri": "state://t", "name": "t", "mimeType": "application/json", "subscribable": false}],
				"read": "pulled",
				"errors": ["modelcontext: subscribe() of \"state://t\" threw; the resource stays registered as pull-only:"],
				"veryError": true, "listChanged": [[false]]}`,
		},
		{
			name: "resourcelistchanged fires once per registration, no coalescing",
			js: lines(
				`const lc = H.listChanges(mc);`,
				`mc.registerResource({uri: 'state://a', name: 'a', get: () => 1});`,
				`const sync = lc.count;`,
				`mc.registerResource({uri: 'state://b', name: 'b', get: () => 1});`,
				`mc.registerResource({uri: 'state://c', name: 'c', get: () => 1});`,
				`await H.settle();`,
				`return {sync, lists: lc.details.map((d) => d.resources.map((r) => r.uri))};`,
			),
			want: `{"sync": 1, "lists": [["state://a"], ["state://a", "state://b"], ["state://a", "state://b", "state://c"]]}`,
		},
	})
}

func TestReplacement(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "old teardown runs before the new subscribe; slot kept; resourcelistchanged fires",
			js: lines(
				`const order = [];`,
				`mc.registerResource({uri: 'state://a', name: 'a', get: () => 1});`,
				`mc.registerResource({uri: 'state://b', name: 'old', get: () => 1, subscribe: () => { order.push('subscribe old'); return () => order.push('teardown old'); }});`,
				`mc.registerResource({uri: 'state://c', name: 'c', get: () => 1});`,
				`const lc = H.listChanges(mc);`,
				`mc.registerResource({uri: 'state://b', name: 'new', get: () => 2, subscribe: () => { order.push('subscribe new'); return () => order.push('teardown new'); }});`,
				`await H.settle();`,
				`return {order, list: mc.getResources().map((d) => d.uri + ' ' + d.name), listChanged: lc.details.map((d) => d.resources.map((r) => r.name)),`,
				`  read: await mc.readResource('state://b')};`,
			),
			want: `{"order": ["subscribe old", "teardown old", "subscribe new"],
				"list": ["state://a a", "state://b new", "state://c c"],
				"listChanged": [["a", "new", "c"]], "read": 2}`,
		},
		{
			name: "the de-duplication baseline is cleared: an equal value dispatches again",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://r', value: {n: 1}});`,
				`const rec = H.record(mc, 'state://r');`,
				`a.push({n: 1}); a.push({n: 1});`,
				`const b = H.pushable(mc, {uri: 'state://r', value: {n: 1}});`,
				`b.push({n: 1}); b.push({n: 1});`,
				`await H.settle();`,
				`return {events: rec.events, handler: rec.handler};`,
			),
			want: `{"events": [{"n": 1}, {"n": 1}], "handler": [{"n": 1}, {"n": 1}]}`,
		},
		{
			name: "the replaced registration's onChange and unregister do nothing",
			js: lines(
				`let oldTeardowns = 0, newTeardowns = 0, oldGets = 0, oldOnChange;`,
				`const unregisterOld = mc.registerResource({uri: 'state://r', name: 'old', get: () => { oldGets++; return 'old'; },`,
				`  subscribe: (cb) => { oldOnChange = cb; return () => { oldTeardowns++; }; }});`,
				`mc.registerResource({uri: 'state://r', name: 'new', get: () => 'new', subscribe: () => () => { newTeardowns++; }});`,
				`const rec = H.record(mc, 'state://r');`,
				`const lc = H.listChanges(mc);`,
				`const getsBefore = oldGets;`,
				`const onChangeErr = H.error(() => oldOnChange());`,
				`const unregisterErr = H.error(() => unregisterOld());`,
				`await H.settle();`,
				`return {onChangeErr, unregisterErr, oldGetsAfterReplace: oldGets - getsBefore, events: rec.events, listChanges: lc.count,`,
				`  oldTeardowns, newTeardowns, list: mc.getResources().map((d) => d.name), read: await mc.readResource('state://r')};`,
			),
			want: `{"onChangeErr": null, "unregisterErr": null, "oldGetsAfterReplace": 0, "events": [], "listChanges": 0,
				"oldTeardowns": 1, "newTeardowns": 0, "list": ["new"], "read": "new"}`,
		},
		{
			name: "the replacement's unregister removes it",
			js: lines(
				`mc.registerResource({uri: 'state://r', name: 'old', get: () => 'old'});`,
				`const unregisterNew = mc.registerResource({uri: 'state://r', name: 'new', get: () => 'new'});`,
				`unregisterNew();`,
				`return {list: mc.getResources(), read: await H.rejection(mc.readResource('state://r'))};`,
			),
			want: `{"list": [], "read": {"name": "NotFoundError", "message": "modelcontext: no resource is registered for uri \"state://r\"",
				"typeError": false, "domException": true, "error": true}}`,
		},
		{
			name: "replacing with a pull-only resource keeps consumers and stops the old pushes",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://r', value: 1});`,
				`const rec = H.record(mc, 'state://r');`,
				`a.push(1);`,
				`const oldOnChange = a.onChange;`,
				`mc.registerResource({uri: 'state://r', name: 'pull', get: () => 2});`,
				`const tornDown = a.tornDown;`,
				`oldOnChange();`,
				`await H.settle();`,
				`return {tornDown, events: rec.events, subscribable: mc.getResources()[0].subscribable};`,
			),
			want: `{"tornDown": true, "events": [1], "subscribable": false}`,
		},
	})
}

func TestUnregister(t *testing.T) {
	runScenarios(t, []scenario{
		{
			name: "runs the teardown, removes the resource, fires resourcelistchanged",
			js: lines(
				`let teardowns = 0;`,
				`mc.registerResource({uri: 'state://a', name: 'a', get: () => 1});`,
				`const unregister = mc.registerResource({uri: 'state://b', name: 'b', get: () => 1, subscribe: () => () => { teardowns++; }});`,
				`const lc = H.listChanges(mc);`,
				`const ret = unregister();`,
				`const sync = {teardowns, listChanges: lc.count};`,
				`await H.settle();`,
				`return {ret: ret === undefined, sync, list: mc.getResources().map((d) => d.uri), listChanged: lc.details.map((d) => d.resources.map((r) => r.uri))};`,
			),
			want: `{"ret": true, "sync": {"teardowns": 1, "listChanges": 1}, "list": ["state://a"], "listChanged": [["state://a"]]}`,
		},
		{
			name: "is idempotent",
			js: lines(
				`let teardowns = 0;`,
				`const unregister = mc.registerResource({uri: 'state://b', name: 'b', get: () => 1, subscribe: () => () => { teardowns++; }});`,
				`const lc = H.listChanges(mc);`,
				`unregister();`,
				`const errs = [H.error(unregister), H.error(unregister)];`,
				`await H.settle();`,
				`return {teardowns, listChanges: lc.count, errs};`,
			),
			want: `{"teardowns": 1, "listChanges": 1, "errs": [null, null]}`,
		},
		{
			name: "a stale unregister does not remove a later registration of the same uri",
			js: lines(
				`const first = mc.registerResource({uri: 'state://s', name: 'first', get: () => 1});`,
				`first();`,
				`mc.registerResource({uri: 'state://s', name: 'second', get: () => 2});`,
				`const lc = H.listChanges(mc);`,
				`first();`,
				`await H.settle();`,
				`return {list: mc.getResources().map((d) => d.name), listChanges: lc.count, read: await mc.readResource('state://s')};`,
			),
			want: `{"list": ["second"], "listChanges": 0, "read": 2}`,
		},
		{
			name: "onChange after unregister does nothing and throws nothing",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://u', value: 1});`,
				`const onChange = a.onChange;`,
				`let events = 0;`,
				`mc.addEventListener('resourceupdated', () => { events++; });`,
				`a.unregister();`,
				`const gets = a.gets;`,
				`a.value = 2;`,
				`const err = H.error(() => onChange());`,
				`await H.settle();`,
				`return {err, events, getsAfter: a.gets - gets, errors: H.mine('error')};`,
			),
			want: `{"err": null, "events": 0, "getsAfter": 0, "errors": []}`,
		},
		{
			name: "ends consumer subscriptions; a new registration of the uri does not revive them",
			js: lines(
				`const a = H.pushable(mc, {uri: 'state://u', value: 1});`,
				`const got = [];`,
				`const unsubscribe = mc.subscribeResource('state://u', (v) => got.push(v));`,
				`a.push(1);`,
				`a.unregister();`,
				`const b = H.pushable(mc, {uri: 'state://u', value: 2});`,
				`b.push(2);`,
				`await H.settle();`,
				`return {got, unsubscribeErr: H.error(unsubscribe)};`,
			),
			want: `{"got": [1], "unsubscribeErr": null}`,
		},
		{
			name: "a throwing teardown is reported and the resource is still removed",
			js: lines(
				`const boom = new Error('teardown failed');`,
				`const unregister = mc.registerResource({uri: 'state://t', name: 't', get: () => 1, subscribe: () => () => { throw boom; }});`,
				`const lc = H.listChanges(mc);`,
				`const err = H.error(unregister);`,
				`await H.settle();`,
				`const call = H.raw.find((c) => c.level === 'error');`,
				`return {err, list: mc.getResources().length, listChanges: lc.count, errors: H.mine('error'), veryError: call !== undefined && call.args[1] === boom};`,
			),
			want: `{"err": null, "list": 0, "listChanges": 1,
				"errors": ["modelcontext: the teardown of \"state://t\" threw:"], "veryError": true}`,
		},
		{
			name: "a throwing teardown on replacement is reported and the replacement happens",
			js: lines(
				`mc.registerResource({uri: 'state://t', name: 'old', get: () => 1, subscribe: () => () => { throw new Error('x'); }});`,
				`const err = H.error(() => mc.registerResource({uri: 'state://t', name: 'new', get: () => 2}));`,
				`await H.settle();`,
				`return {err, list: mc.getResources().map((d) => d.name), errors: H.mine('error')};`,
			),
			want: `{"err": null, "list": ["new"], "errors": ["modelcontext: the teardown of \"state://t\" threw:"]}`,
		},
	})
}
