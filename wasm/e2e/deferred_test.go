package e2e

import "testing"

// The loader tells Go of a concrete resource only once Go needs it: at its
// first push or consumer subscription, when it replaces one Go knows, or
// while an MCP server runs (templates at once). A page cannot see the
// difference; these tests walk every way in and check that nothing is lost
// on the way, with Go's count of registrations (the test build's
// internals.stats()) as the witness of when Go was told.

// TestGoIsToldOfAResourceWhenItNeedsIt: through the page API.
func TestGoIsToldOfAResourceWhenItNeedsIt(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got struct {
			Counts  map[string]int
			Events  []string
			Handled []string
			Lists   int
			Read    any
		}
		faultRun(t, `
const go = () => I.stats().registrations;
const counts = {}, events = [], handled = [];
let lists = 0;
mc.addEventListener('resourceupdated', (e) => events.push(e.detail.uri + '=' + JSON.stringify(e.detail.value)));
mc.addEventListener('resourcelistchanged', () => lists++);
const source = (uri, name, box) => ({uri, name, get: () => box.v, subscribe: (f) => { box.push = f; return () => {}; }});

// Registered, then replaced: neither needs Go yet.
const a = {v: 1};
mc.registerResource(source('lazy://a', 'a', a));
counts.registered = go();
mc.registerResource(source('lazy://a', 'a2', a));
counts.replaced = go();
// The first push tells Go; de-duplication starts from there.
a.push(); a.push(); a.v = 2; a.push();
counts.pushed = go();

// A consumer subscription tells Go; a replacement of a resource Go knows is
// told at once, and the subscription goes on to the new registration.
const b = {v: 'b1'};
const unregisterB = mc.registerResource(source('lazy://b', 'b', b));
mc.subscribeResource('lazy://b', (v, uri) => handled.push(uri + '=' + v));
counts.subscribed = go();
const b2 = {v: 'b2'};
const unregisterB2 = mc.registerResource(source('lazy://b', 'b2', b2));
counts.replacedKnown = go();
unregisterB(); // the replaced one: nothing happens
b2.push();
unregisterB2();
counts.unregisteredKnown = go();

// Registered and unregistered with nothing in between: Go never hears of it,
// the page's listeners do.
const listsBefore = lists;
mc.registerResource(source('lazy://c', 'c', {v: 0}))();
counts.cycled = go();
const cycleLists = lists - listsBefore;

// A template is told at once: Go matches uris against it.
mc.registerResource({uriTemplate: 'lazy://t/{id}', name: 't', get: ({id}) => 'tpl ' + id});
counts.template = go();
const read = await mc.readResource('lazy://t/7');
return {counts, events: [...events], handled: [...handled], lists: cycleLists, read};
`, &got)
		want := map[string]int{"registered": 0, "replaced": 0, "pushed": 1, "subscribed": 2, "replacedKnown": 2,
			"unregisteredKnown": 1, "cycled": 1, "template": 2}
		for k, v := range want {
			if got.Counts[k] != v {
				t.Errorf("Go's registrations after %s: %d, want %d (all: %v)", k, got.Counts[k], v, got.Counts)
			}
		}
		if d := jsonDiff(mustJSON(got.Events), `["lazy://a=1", "lazy://a=2", "lazy://b=\"b2\""]`); d != "" {
			t.Errorf("resourceupdated events:\n%s", d)
		}
		if d := jsonDiff(mustJSON(got.Handled), `["lazy://b=b2"]`); d != "" {
			t.Errorf("subscribeResource handler:\n%s", d)
		}
		if got.Lists != 2 || got.Read != "tpl 7" {
			t.Errorf("a register + unregister fired %d resourcelistchanged (want 2); the template read %v (want \"tpl 7\")", got.Lists, got.Read)
		}
	})
}

// TestAnMCPServerSeesResourcesRegisteredBeforeIt: resources registered
// before serveMCP, which Go has not been told of, are listed, read and
// subscribed to like the ones registered while the server runs; after the
// server stops, so are the ones registered meanwhile when a new one starts.
func TestAnMCPServerSeesResourcesRegisteredBeforeIt(t *testing.T) {
	p := openMCP(t, "/mcp-serve.html?"+testBuild)
	p.expect(mcpRequireServe+`
const mc = document.modelContext;
const I = mc[Symbol.for('modelcontext.internals')];
const before = F.resource({uri: 'test://before', name: 'before', mimeType: 'text/plain', value: 'v1'});
const goBefore = I.stats().registrations;
let server = mc.serveMCP({channel: 'late'});
const goServing = I.stats().registrations;
F.resource({uri: 'test://during', name: 'during', value: 2});
let c = await T.connect({channel: 'late'});
const list = (await M.listAll(c)).items.map((r) => r.uri);
const read = await M.read(c, 'test://before');
await c.call('resources/subscribe', {uri: 'test://before'});
const updated = (await M.during(c, 'notifications/resources/updated', () => before.push('v2'))).map((n) => n.uri);
server.stop();
F.resource({uri: 'test://after', name: 'after', value: 3});
server = mc.serveMCP({channel: 'again'});
const c2 = await T.connect({channel: 'again'});
const again = (await M.listAll(c2)).items.map((r) => r.uri);
server.stop();
return {goBefore, goServing, list, read, updated, again, errors: [...c.errors, ...c2.errors]};`,
		`{"goBefore": 0, "goServing": 1, "list": ["test://before", "test://during"],
		  "read": {"contents": [{"uri": "test://before", "mimeType": "text/plain", "text": "v1"}]},
		  "updated": ["test://before"], "again": ["test://before", "test://during", "test://after"], "errors": []}`)
}
