package e2e

import "testing"

// The platform's idioms: registerResource(descriptor, {signal}) as
// registerTool(tool, {signal}), and the onresourceupdated /
// onresourcelistchanged event handler attributes as ontoolchange.

func TestRegisterResourceSignal(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "aborting unregisters", js: lines(
			`const c = new AbortController();`,
			`let torn = 0;`,
			`mc.registerResource({uri: 'sig://a', name: 'a', get: () => 1, subscribe: () => () => torn++}, {signal: c.signal});`,
			`const listed = mc.getResources().map((d) => d.uri);`,
			`const changes = [];`,
			`mc.addEventListener('resourcelistchanged', (e) => changes.push(e.detail.resources.length));`,
			`c.abort();`,
			`await H.settle();`,
			`return {listed, after: mc.getResources().length, torn, changes, read: (await H.rejection(mc.readResource('sig://a'))).name};`,
		), want: `{"listed": ["sig://a"], "after": 0, "torn": 1, "changes": [0], "read": "NotFoundError"}`},
		{name: "already aborted registers nothing", js: lines(
			`const changes = [];`,
			`mc.addEventListener('resourcelistchanged', () => changes.push(1));`,
			`const un = mc.registerResource({uri: 'sig://b', name: 'b', get: () => 1}, {signal: AbortSignal.abort()});`,
			`un();`,
			`await H.settle();`,
			`return {type: typeof un, listed: mc.getResources().length, changes: changes.length};`,
		), want: `{"type": "function", "listed": 0, "changes": 0}`},
		{name: "aborted while it registers (from subscribe) unregisters", js: lines(
			`const c = new AbortController();`,
			`let torn = 0;`,
			`mc.registerResource({uri: 'sig://e', name: 'e', get: () => 1, subscribe: () => { c.abort(); return () => torn++; }}, {signal: c.signal});`,
			`await H.settle();`,
			`return {listed: mc.getResources().length, torn};`,
		), want: `{"listed": 0, "torn": 1}`},
		{name: "abort after unregister and after replacement does nothing", js: lines(
			`const c1 = new AbortController(), c2 = new AbortController();`,
			`const un = mc.registerResource({uri: 'sig://c', name: 'c', get: () => 1}, {signal: c1.signal});`,
			`un();`,
			`mc.registerResource({uri: 'sig://c', name: 'c', get: () => 2}, {signal: c2.signal});`,
			`c1.abort();`,
			`const still = await mc.readResource('sig://c');`,
			`mc.registerResource({uri: 'sig://c', name: 'c', get: () => 3});`,
			`c2.abort();`,
			`return {still, replaced: await mc.readResource('sig://c')};`,
		), want: `{"still": 2, "replaced": 3}`},
		{name: "a bad signal or options is a TypeError naming it and the uri", js: lines(
			`const get = () => 1;`,
			`const e1 = H.error(() => mc.registerResource({uri: 'sig://d', name: 'd', get}, {signal: 42}));`,
			`const e2 = H.error(() => mc.registerResource({uri: 'sig://d', name: 'd', get}, 'x'));`,
			`return {e1: e1.name + ': ' + e1.message, e2: e2.name + ': ' + e2.message, listed: mc.getResources().length};`,
		), want: `{"e1": "TypeError: modelcontext: registerResource: \"options.signal\" must be an AbortSignal, got number (uri \"sig://d\")",` +
			` "e2": "TypeError: modelcontext: registerResource: \"options\" must be an object, got string (uri \"sig://d\")", "listed": 0}`},
	})
}

func TestEventHandlerAttributes(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "a handler runs for each event and reads back", js: lines(
			`let push;`,
			`mc.registerResource({uri: 'on://a', name: 'a', get: () => ({v: Math.random()}), subscribe: (f) => { push = f; return () => {}; }});`,
			`const seen = [];`,
			`const f = function (e) { seen.push([e.type, this === mc, e.detail.uri]); };`,
			`const initially = [mc.onresourceupdated, mc.onresourcelistchanged];`,
			`mc.onresourceupdated = f;`,
			`mc.onresourcelistchanged = (e) => seen.push([e.type, e.detail.resources.length]);`,
			`push();`,
			`mc.registerResource({uri: 'on://b', name: 'b', get: () => 1});`,
			`await H.settle();`,
			`return {initially, same: mc.onresourceupdated === f, seen};`,
		), want: `{"initially": [null, null], "same": true, "seen": [["resourceupdated", true, "on://a"], ["resourcelistchanged", 2]]}`},
		{name: "null or a non-function clears it", js: lines(
			`const seen = [];`,
			`mc.onresourcelistchanged = () => seen.push('a');`,
			`mc.registerResource({uri: 'on://c', name: 'c', get: () => 1});`,
			`mc.onresourcelistchanged = 'not a function';`,
			`const cleared = mc.onresourcelistchanged;`,
			`mc.registerResource({uri: 'on://d', name: 'd', get: () => 1});`,
			`mc.onresourcelistchanged = () => seen.push('b');`,
			`mc.onresourcelistchanged = null;`,
			`mc.registerResource({uri: 'on://e', name: 'e', get: () => 1});`,
			`return {seen, cleared, last: mc.onresourcelistchanged};`,
		), want: `{"seen": ["a"], "cleared": null, "last": null}`},
		{name: "replacing the handler keeps its place among listeners", js: lines(
			`const seen = [];`,
			`mc.onresourcelistchanged = () => seen.push('first handler');`,
			`mc.addEventListener('resourcelistchanged', () => seen.push('listener'));`,
			`mc.onresourcelistchanged = () => seen.push('second handler');`,
			`mc.registerResource({uri: 'on://f', name: 'f', get: () => 1});`,
			`return seen;`,
		), want: `["second handler", "listener"]`},
	})
}
