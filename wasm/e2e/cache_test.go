package e2e

import (
	"strings"
	"testing"
)

// Go holds the registry: mc_register answers which registration a new one
// replaced, mc_unregister whether it ended a current one. The loader keeps
// a cache of those answers (table.js), in Go's order, which getResources and
// the MCP lists read and concrete uris are looked up in without a call into
// Go. The test build's
// internals.cacheDrift() compares that cache with Go's list; the model test
// checks it after every operation of its sequences, and this test walks the
// paths where the cache is written from inside the page's own code.

// TestTheLoaderCacheFollowsGo: registrations, replacements and
// unregistrations made from a teardown, a subscribe, a resourcelistchanged
// listener and a resourceupdated listener, a stale unregister, templates,
// and calls queued before the module ran: after each, the cache holds what
// Go lists, and Go holds exactly the current registrations.
func TestTheLoaderCacheFollowsGo(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got struct {
			Drift []string
			Go    map[string]int
			List  []string
			Read  any
		}
		faultRun(t, `
const drift = [], counts = {};
const check = (step) => {
  const d = I.cacheDrift();
  if (d !== '') drift.push(step + ': ' + d);
  counts[step] = I.stats().registrations;
};
const source = (uri, name, extra) => Object.assign({uri, name, get: () => name, subscribe: () => () => {}}, extra);

const unA = mc.registerResource(source('cache://a', 'a'));
check('registered');
mc.registerResource(source('cache://b', 'b'));
const unA2 = mc.registerResource(source('cache://a', 'a2'));
check('replaced');
unA();
check('stale unregister');

// A teardown that registers the uri again: the newest registration wins.
mc.registerResource(source('cache://c', 'c', {subscribe: () => () => mc.registerResource(source('cache://c', 'c-from-teardown'))}));
mc.registerResource(source('cache://c', 'c2'));
check('teardown re-registers');

// A subscribe that unregisters its own registration (through its signal).
const ac = new AbortController();
mc.registerResource(source('cache://d', 'd', {subscribe: () => { ac.abort(); return () => {}; }}), {signal: ac.signal});
check('subscribe unregisters');

// A resourcelistchanged listener that registers once.
let once = true;
const onList = () => { if (once) { once = false; mc.registerResource(source('cache://e', 'e')); } };
mc.addEventListener('resourcelistchanged', onList);
mc.registerResource(source('cache://f', 'f'));
mc.removeEventListener('resourcelistchanged', onList);
check('listener registers');

// A resourceupdated listener that unregisters the resource it is told of.
let pushG;
const unG = mc.registerResource(source('cache://g', 'g', {get: () => Math.random(), subscribe: (f) => { pushG = f; return () => {}; }}));
const onUpdate = (e) => { if (e.detail.uri === 'cache://g') unG(); };
mc.addEventListener('resourceupdated', onUpdate);
pushG();
mc.removeEventListener('resourceupdated', onUpdate);
check('updated listener unregisters');

// Templates, replaced and read.
mc.registerResource({uriTemplate: 'cache://t/{id}', name: 't', get: ({id}) => 't ' + id});
mc.registerResource({uriTemplate: 'cache://t/{id}', name: 't2', get: ({id}) => 't2 ' + id});
check('template replaced');
const read = await mc.readResource('cache://t/7');

unA2();
check('unregistered');
const list = mc.getResources().map((d) => d.uri + '=' + d.name).filter((s) => s.startsWith('cache://'));
return {drift, go: counts, list, read};
`, &got)
		if len(got.Drift) > 0 {
			t.Errorf("the loader's cache and Go disagree:\n%s", strings.Join(got.Drift, "\n"))
		}
		// Go holds the current registrations and nothing else; the page's
		// own (the page resource, the roundtrip's) are counted in base.
		base := got.Go["registered"] - 1
		want := map[string]int{"registered": 1, "replaced": 2, "stale unregister": 2, "teardown re-registers": 3,
			"subscribe unregisters": 3, "listener registers": 5, "updated listener unregisters": 5, "template replaced": 6, "unregistered": 5}
		for k, v := range want {
			if got.Go[k]-base != v {
				t.Errorf("Go's registrations after %s: %d, want %d (all, less %d: %v)", k, got.Go[k]-base, v, base, got.Go)
			}
		}
		if d := jsonDiff(mustJSON(got.List), `["cache://b=b", "cache://c=c-from-teardown", "cache://f=f", "cache://e=e"]`); d != "" {
			t.Errorf("getResources:\n%s", d)
		}
		if got.Read != "t2 7" {
			t.Errorf("the template read %v, want \"t2 7\"", got.Read)
		}
	})
}

// TestAnMCPServerSeesResourcesRegisteredBeforeIt: resources registered
// before serveMCP are listed, read and subscribed to like the ones
// registered while the server runs; after the server stops, so are the ones
// registered meanwhile when a new one starts. Go holds each from its
// registerResource on.
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
		`{"goBefore": 1, "goServing": 1, "list": ["test://before", "test://during"],
		  "read": {"contents": [{"uri": "test://before", "mimeType": "text/plain", "text": "v1"}]},
		  "updated": ["test://before"], "again": ["test://before", "test://during", "test://after"], "errors": []}`)
}
