package e2e

import "testing"

// TestEventsOnlyWhenHeard: the module makes no resourcelistchanged or
// resourceupdated event (a CustomEvent, and a copy of the list) while no
// listener can hear it, on the EventTarget it made; a listener added through
// addEventListener or set as an on… handler hears every one from then on.
// subscribeResource handlers are not listeners: they get every push either
// way. On a page's own object every event is made, since a listener may
// have been added before the module, or in a way it cannot see. The count
// of events made is the sentinel: the page wraps CustomEvent, which the
// module looks up when it makes an event, and the events counted once a
// listener is there prove the wrapper sees them.
func TestEventsOnlyWhenHeard(t *testing.T) {
	requireImpl(t, "wasm")
	count := lines(
		`let made = 0, updates = 0;`,
		`const Base = window.CustomEvent;`,
		`window.CustomEvent = class extends Base {`,
		`  constructor(type, init) { super(type, init); if (type === 'resourcelistchanged') made++; if (type === 'resourceupdated') updates++; }`,
		`};`,
		`const cycle = (uri) => mc.registerResource({uri, name: 'x', get: () => 1})();`,
	)
	for _, sc := range []scenario{
		{name: "a listener added later hears the changes from then on", js: lines(count,
			`mc.registerResource({uri: 'state://kept', name: 'kept', get: () => 1});`,
			`cycle('state://a'); cycle('state://b');`,
			`const unheard = made;`,
			`const lists = [];`,
			`mc.addEventListener('resourcelistchanged', (e) => lists.push(e.detail.resources.map((d) => d.uri)));`,
			`mc.registerResource({uri: 'state://c', name: 'c', get: () => 3})();`,
			`return {unheard, made, lists};`,
		), want: `{"unheard": 0, "made": 2, "lists": [["state://kept", "state://c"], ["state://kept"]]}`},
		{name: "an onresourcelistchanged handler hears them, and still does once cleared", js: lines(count,
			`cycle('state://a');`,
			`const unheard = made;`,
			`let heard = 0;`,
			`mc.onresourcelistchanged = () => heard++;`,
			`cycle('state://b');`,
			`mc.onresourcelistchanged = null;`,
			`const l = [];`,
			`mc.addEventListener('resourcelistchanged', () => l.push(1), {once: true});`,
			`cycle('state://c');`,
			`return {unheard, heard, once: l.length, made};`,
		), want: `{"unheard": 0, "heard": 2, "once": 1, "made": 4}`},
		{name: "a listener added past the module's addEventListener is not seen", js: lines(count,
			`let heard = 0;`,
			`EventTarget.prototype.addEventListener.call(mc, 'resourcelistchanged', () => heard++);`,
			`cycle('state://a');`,
			`return {heard, made};`,
		), want: `{"heard": 0, "made": 0}`},
		{name: "on a page's own object every change makes its event", query: "existing=own", js: lines(count,
			`let heard = 0;`,
			`EventTarget.prototype.addEventListener.call(mc, 'resourcelistchanged', () => heard++);`,
			`cycle('state://a');`,
			`return {heard, made};`,
		), want: `{"heard": 2, "made": 2}`},
		{name: "pushes reach subscribeResource handlers, and events once a listener is added", js: lines(count,
			`const a = H.pushable(mc, {uri: 'state://a'});`,
			`const handled = [];`,
			`mc.subscribeResource('state://a', (v) => handled.push(v));`,
			`a.push(1); a.push(2);`,
			`await H.settle();`,
			`const unheard = updates;`,
			`const events = [];`,
			`mc.addEventListener('resourceupdated', (e) => events.push([e.detail.uri, e.detail.value]));`,
			`a.push(3);`,
			`mc.onresourceupdated = (e) => events.push(e.detail.value);`,
			`a.push(4);`,
			`await H.settle();`,
			`return {unheard, updates, handled, events};`,
		), want: `{"unheard": 0, "updates": 2, "handled": [1, 2, 3, 4], "events": [["state://a", 3], ["state://a", 4], 4]}`},
		{name: "debug mode says once for each type that no listener hears it", js: lines(count,
			`const said = [];`,
			`const debug = console.debug;`,
			`console.debug = (...a) => { said.push(a.join(' ')); };`,
			`globalThis.__MODELCONTEXT_DEBUG__ = true;`,
			`const a = H.pushable(mc, {uri: 'state://a'});`,
			`a.push(1); a.push(2);`,
			`cycle('state://b'); cycle('state://c');`,
			`await H.settle();`,
			`console.debug = debug;`,
			`globalThis.__MODELCONTEXT_DEBUG__ = false;`,
			`return said.filter((l) => l.includes('no listener'));`,
		), want: `["[modelcontext] no listener for resourcelistchanged: its events are not made until one is added with addEventListener or onresourcelistchanged",` +
			` "[modelcontext] no listener for resourceupdated: its events are not made until one is added with addEventListener or onresourceupdated"]`},
		{name: "an onresourceupdated handler alone is heard", js: lines(count,
			`const a = H.pushable(mc, {uri: 'state://a'});`,
			`const got = [];`,
			`mc.onresourceupdated = (e) => got.push(e.detail.value);`,
			`a.push('x');`,
			`await H.settle();`,
			`return {updates, got};`,
		), want: `{"updates": 1, "got": ["x"]}`},
	} {
		t.Run(sc.name, func(t *testing.T) {
			open(t, "wasm", "", sc.query).expect(sc.js, sc.want)
		})
	}
}
