package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The browser's own WebMCP: Chromium started with --enable-features=WebMCP
// gives every document a document.modelContext of its own, a ModelContext
// platform object reached through an accessor on Document.prototype, with
// registerTool(tool, {signal}), getTools() and executeTool(tool, input) (the
// agent's side: it resolves with the JSON text of what the tool's execute
// returned). These tests run in a second shared browser started with that
// feature: the module extends the platform's object, and the tool fallback
// answers an agent that calls the tools through getTools and executeTool.

// webMCP starts the browser with Chromium's WebMCP.
var webMCP = browsertest.Options{Features: []string{"WebMCP"}}

// isNativeJS is true in a page whose document.modelContext is the
// platform's.
const isNativeJS = `typeof ModelContext === 'function' && document.modelContext instanceof ModelContext &&
  /\[native code\]/.test(String(ModelContext.prototype.registerTool))`

// nativeTab opens a fresh tab of the WebMCP browser on path and fails t
// unless the page has the platform's document.modelContext.
func nativeTab(t *testing.T, path string) *browsertest.Tab {
	t.Helper()
	requireImpl(t, "wasm")
	tab := browsertest.NewTabWith(t, webMCP)
	tab.Navigate(browsertest.URL(t, path))
	var native bool
	tab.Eval(isNativeJS, &native)
	if !native {
		t.Fatalf("this Chromium has no WebMCP of its own with --enable-features=WebMCP (document.modelContext is not a ModelContext platform object)\n%s", tab.ConsoleText())
	}
	return tab
}

// openNative is open (the contract page with the module) in the WebMCP
// browser.
func openNative(t *testing.T, query string) *page {
	t.Helper()
	u := "/contract.html?impl=wasm"
	if query != "" {
		u += "&" + query
	}
	return &page{Tab: nativeTab(t, u), impl: "wasm"}
}

// TestNativeModelContext: on the platform's document.modelContext the
// module adds its members and changes nothing else: the accessor on
// Document.prototype stays the only way to the object, registerTool and the
// platform's events keep working, and the module's calls before ready,
// pushes, reads, events (listeners and on… handler attributes), signals and
// MCP server work as on its own EventTarget.
func TestNativeModelContext(t *testing.T) {
	t.Run("extended, not replaced", func(t *testing.T) {
		openNative(t, "").expect(`
const own = Object.getOwnPropertyDescriptor(document, 'modelContext');
const accessor = Object.getOwnPropertyDescriptor(Document.prototype, 'modelContext');
const members = ['registerResource', 'getResources', 'getResourceTemplates', 'readResource', 'subscribeResource',
  'serveMCP', 'registerResourceTools', 'ready'];
const platform = ['registerTool', 'getTools', 'executeTool', 'ontoolchange'];
let toolchanges = 0, heard = 0;
mc.ontoolchange = () => { toolchanges++; };
mc.addEventListener('toolchange', () => { heard++; });
const stop = new AbortController();
const registered = mc.registerTool({name: 'echo', description: 'Echoes x', inputSchema: {type: 'object', properties: {x: {type: 'string'}}},
  execute: async ({x}) => ({echo: x})}, {signal: stop.signal});
await registered;
const tool = (await mc.getTools()).find((t) => t.name === 'echo');
const echoed = await mc.executeTool(tool, {x: 'hi'});
stop.abort();
const afterAbort = (await mc.getTools()).map((t) => t.name);
mc.ontoolchange = null;
return {
  native: mc instanceof ModelContext, tag: Object.prototype.toString.call(mc),
  ownProperty: own === undefined ? 'none' : 'value' in own ? 'data' : 'accessor',
  accessorIsTheBrowsers: !!accessor && /\[native code\]/.test(String(accessor.get)),
  sameObject: document.modelContext === mc && accessor.get.call(document) === mc,
  members: members.filter((m) => Object.hasOwn(mc, m)),
  onThePrototype: members.filter((m) => Object.hasOwn(ModelContext.prototype, m)),
  platformKept: platform.filter((m) => m in mc && !Object.hasOwn(mc, m)),
  registerToolIsTheBrowsers: mc.registerTool === ModelContext.prototype.registerTool,
  dispatchedOnTheObject: mc.dispatchEvent === EventTarget.prototype.dispatchEvent && !Object.hasOwn(mc, 'dispatchEvent'),
  registered: String(await registered), echoed, afterAbort, toolchanges, heard,
};`, `{"native": true, "tag": "[object ModelContext]", "ownProperty": "none", "accessorIsTheBrowsers": true, "sameObject": true,
  "members": ["registerResource", "getResources", "getResourceTemplates", "readResource", "subscribeResource", "serveMCP", "registerResourceTools", "ready"],
  "onThePrototype": [], "platformKept": ["registerTool", "getTools", "executeTool", "ontoolchange"],
  "registerToolIsTheBrowsers": true, "dispatchedOnTheObject": true,
  "registered": "undefined", "echoed": "{\"echo\":\"hi\"}", "afterAbort": [], "toolchanges": 2, "heard": 2}`)
	})

	t.Run("calls before ready", func(t *testing.T) {
		p := openNative(t, "early=1")
		var got json.RawMessage
		p.runRaw(earlyCheck, &got)
		p.compare(got, earlyWant)
	})

	t.Run("pushes and events", func(t *testing.T) {
		openNative(t, "").expect(`
const a = H.pushable(mc, {uri: 'state://a'});
const rec = H.record(mc, 'state://a');
const lc = H.listChanges(mc);
const attributes = {updated: [], listChanged: 0};
mc.onresourceupdated = (e) => { attributes.updated.push(e.detail.value); };
mc.onresourcelistchanged = () => { attributes.listChanged++; };
for (const v of ['A', 'A', 'B', 'A', {n: 1}, {n: 1}]) a.push(v);
const b = mc.registerResource({uri: 'state://b', name: 'b', get: () => 2});
b();
const stop = new AbortController();
mc.registerResource({uri: 'state://c', name: 'c', get: () => 3}, {signal: stop.signal});
stop.abort();
await H.settle();
mc.onresourceupdated = null;
mc.onresourcelistchanged = null;
return {events: rec.events, handler: rec.handler, attributes, listChanges: lc.details.map((d) => d.resources.map((r) => r.uri)),
  errors: H.mine('error')};`,
			`{"events": ["A", "B", "A", {"n": 1}], "handler": ["A", "B", "A", {"n": 1}],
  "attributes": {"updated": ["A", "B", "A", {"n": 1}], "listChanged": 4},
  "listChanges": [["state://a", "state://b"], ["state://a"], ["state://a", "state://c"], ["state://a"]], "errors": []}`)
	})

	t.Run("reads", func(t *testing.T) {
		openNative(t, "").expect(`
const value = {items: [1]};
mc.registerResource({uri: 'state://cart', name: 'cart', get: () => value});
mc.registerResource({uri: 'state://later', name: 'later', get: async () => 'later'});
mc.registerResource({uri: 'state://broken', name: 'broken', get: () => { throw new Error('nope'); }});
mc.registerResource({uriTemplate: 'app://orders/{id}', name: 'order', get: ({id}) => ({id})});
const why = async (p) => { const e = await H.rejection(p); return e && [e.name, e.message]; };
return {
  same: (await mc.readResource('state://cart')) === value,
  later: await mc.readResource('state://later'),
  order: await mc.readResource('app://orders/a%2Fb'),
  missing: await why(mc.readResource('state://nope')),
  broken: await why(mc.readResource('state://broken')),
  listed: mc.getResources().map((r) => r.uri), templates: mc.getResourceTemplates().map((r) => r.uriTemplate),
};`, `{"same": true, "later": "later", "order": {"id": "a/b"},
  "missing": ["NotFoundError", "modelcontext: no resource is registered for uri \"state://nope\""],
  "broken": ["Error", "nope"],
  "listed": ["state://cart", "state://later", "state://broken"], "templates": ["app://orders/{id}"]}`)
	})

	t.Run("MCP server", func(t *testing.T) {
		requireMCPBundles(t)
		tab := nativeTab(t, "/mcp-serve.html")
		tab.Timeout = 60 * time.Second
		p := &mcpPage{Tab: tab}
		p.expect(mcpRequireServe+`
const mc = document.modelContext;
const server = mc.serveMCP();
const live = F.resource({uri: 'test://live', name: 'live', value: {n: 0}});
const c = await T.connect();
const U = 'notifications/resources/updated';
const listed = (await M.listAll(c)).items.map((x) => x.uri);
const sub = await c.call('resources/subscribe', {uri: 'test://live'});
const pushes = await M.during(c, U, () => { live.push({n: 1}); live.push({n: 1}); live.push({n: 2}); }, 2);
const read = await M.read(c, 'test://live');
server.stop();
return {native: mc instanceof ModelContext, listed, sub, pushes, read, errors: c.errors};`,
			`{"native": true, "listed": ["test://live"], "sub": {"result": {}},
  "pushes": [{"uri": "test://live", "_meta": {"modelcontext/revision": 2}}, {"uri": "test://live", "_meta": {"modelcontext/revision": 3}}],
  "read": {"contents": [{"uri": "test://live", "mimeType": "application/json", "text": "{\"n\":2}"}]}, "errors": []}`)
	})
}

// TestNativeResourceTools: registerResourceTools on the platform's WebMCP,
// seen by an agent through getTools and executeTool. read_resource answers
// the value itself (the agent reads {"items":[1]}, not JSON text inside
// JSON), binary values as {uri, mimeType, blob}, and failures as {error}
// naming the uri (a thrown error would reach the agent only as "the
// invocation failed"). Removal aborts the registrations; nothing the
// fallback does leaves an unhandled rejection.
func TestNativeResourceTools(t *testing.T) {
	t.Run("list and read", func(t *testing.T) {
		openNative(t, "").expect(agentJS+`
mc.registerResource({uri: 'state://cart', name: 'cart', description: 'the cart', get: () => ({items: [1]})});
mc.registerResource({uri: 'state://bytes', name: 'bytes', mimeType: 'application/octet-stream', get: () => new Uint8Array([104, 105])});
mc.registerResource({uri: 'state://image', name: 'image', mimeType: 'image/png', get: () => new Blob([new Uint8Array([1, 2, 3])])});
mc.registerResource({uri: 'state://note', name: 'note', mimeType: 'text/plain', get: () => 'hello'});
mc.registerResource({uri: 'state://broken', name: 'broken', get: () => { throw new Error('nope'); }});
mc.registerResource({uri: 'state://rejects', name: 'rejects', get: async () => { throw new TypeError('later'); }});
mc.registerResource({uri: 'state://loop', name: 'loop', get: () => { const o = {}; o.o = o; return o; }});
mc.registerResource({uriTemplate: 'app://orders/{id}', name: 'order', get: ({id}) => ({id})});
const remove = mc.registerResourceTools();
await W.tools(both);
const tools = (await mc.getTools()).filter((t) => t.name.endsWith('_resources') || t.name.endsWith('_resource'));
const out = {
  tools: tools.map((t) => ({name: t.name, readOnly: t.annotations.readOnlyHint, untrusted: t.annotations.untrustedContentHint, schema: t.inputSchema})),
  list: (await W.call('list_resources', {})).map((r) => [r.uri || 'template ' + r.uriTemplate, r.name, r.mimeType]),
  cart: await W.call('read_resource', {uri: 'state://cart'}),
  bytes: await W.call('read_resource', {uri: 'state://bytes'}),
  image: await W.call('read_resource', {uri: 'state://image'}),
  note: await W.call('read_resource', {uri: 'state://note'}),
  order: await W.call('read_resource', {uri: 'app://orders/42'}),
  missing: await W.call('read_resource', {uri: 'state://nope'}),
  broken: await W.call('read_resource', {uri: 'state://broken'}),
  rejects: await W.call('read_resource', {uri: 'state://rejects'}),
  loop: (await W.call('read_resource', {uri: 'state://loop'})).error.split(': ').slice(0, 2),
  noUri: await W.call('read_resource', {}),
};
remove();
out.unhandled = await W.unhandledSoFar();
out.errors = H.mine('error');
return out;`, `{
  "tools": [
    {"name": "list_resources", "readOnly": true, "untrusted": true, "schema": {"type": "object", "properties": {}}},
    {"name": "read_resource", "readOnly": true, "untrusted": true, "schema": {"type": "object", "properties": {"uri": {"type": "string", "description": "The resource's uri, as list_resources gives it"}}, "required": ["uri"]}}],
  "list": [["state://cart", "cart", "application/json"], ["state://bytes", "bytes", "application/octet-stream"],
    ["state://image", "image", "image/png"], ["state://note", "note", "text/plain"], ["state://broken", "broken", "application/json"],
    ["state://rejects", "rejects", "application/json"], ["state://loop", "loop", "application/json"],
    ["template app://orders/{id}", "order", "application/json"]],
  "cart": {"items": [1]},
  "bytes": {"uri": "state://bytes", "mimeType": "application/octet-stream", "blob": "aGk="},
  "image": {"uri": "state://image", "mimeType": "image/png", "blob": "AQID"},
  "note": {"text": "hello"},
  "order": {"id": "42"},
  "missing": {"error": "modelcontext: no resource is registered for uri \"state://nope\""},
  "broken": {"error": "modelcontext: reading \"state://broken\" failed: nope"},
  "rejects": {"error": "modelcontext: reading \"state://rejects\" failed: later"},
  "loop": ["modelcontext", "the value of \"state://loop\" cannot be sent as JSON"],
  "noUri": {"error": "modelcontext: read_resource needs {\"uri\": \"<a uri from list_resources>\"}; \"uri\" was undefined"},
  "unhandled": [], "errors": []}`)
	})

	t.Run("removal removes both", func(t *testing.T) {
		openNative(t, "").expect(agentJS+`
mc.registerResource({uri: 'state://cart', name: 'cart', get: () => ({items: [1]})});
const remove = mc.registerResourceTools();
const listed = await W.tools(both);
const old = (await mc.getTools()).find((t) => t.name === 'read_resource');
remove();
const after = await W.tools(neither);
remove();
const oldTool = await H.rejection(mc.executeTool(old, {uri: 'state://cart'}));
return {listed, after, oldTool: oldTool && oldTool.name,
  unhandled: await W.unhandledSoFar(), errors: H.mine('error')};`,
			`{"listed": ["list_resources", "read_changes", "read_resource"], "after": [],
  "oldTool": "UnknownError",
  "unhandled": [], "errors": []}`)
	})

	t.Run("again", func(t *testing.T) {
		openNative(t, "").expect(agentJS+`
const first = mc.registerResourceTools();
const second = mc.registerResourceTools();
const once = await W.tools(both);
first();
await W.tools(neither);
const third = mc.registerResourceTools();
const again = await W.tools(both);
first(); // the remover of a registration already removed does nothing
const kept = await W.tools(both);
third();
await W.tools(neither);
return {same: first === second, once, fresh: third !== first, again, kept,
  unhandled: await W.unhandledSoFar(), errors: H.mine('error')};`,
			`{"same": true, "once": ["list_resources", "read_changes", "read_resource"], "fresh": true,
  "again": ["list_resources", "read_changes", "read_resource"], "kept": ["list_resources", "read_changes", "read_resource"],
  "unhandled": [], "errors": []}`)
	})

	t.Run("removed before registered", func(t *testing.T) {
		// The platform rejects a registration whose signal is aborted before
		// it completes: the fallback expects that, and neither reports it
		// nor leaves it unhandled.
		openNative(t, "").expect(agentJS+`
mc.registerResourceTools()();
const removed = await W.tools(neither);
const remove = mc.registerResourceTools();
const registered = await W.tools(both);
remove();
return {removed, registered, unhandled: await W.unhandledSoFar(), errors: H.mine('error')};`,
			`{"removed": [], "registered": ["list_resources", "read_changes", "read_resource"], "unhandled": [], "errors": []}`)
	})

	t.Run("registering does not start the module, a call does", func(t *testing.T) {
		var got json.RawMessage
		p := openNative(t, "")
		p.runRaw(`const mc = document.modelContext;
`+agentJS+`
mc.registerResource({uri: 'state://cart', name: 'cart', get: () => ({items: [1]})});
const remove = mc.registerResourceTools();
const listed = await W.tools(both);
await H.quiet();
const before = H.wasmRequests().fetched.length;
const read = await W.call('read_resource', {uri: 'state://cart'});
remove();
return {listed, before, read, after: H.wasmRequests().fetched.length, unhandled: await W.unhandledSoFar()};`, &got)
		p.compare(got, `{"listed": ["list_resources", "read_changes", "read_resource"], "before": 0, "read": {"items": [1]}, "after": 1, "unhandled": []}`)
	})

	t.Run("data-tools", func(t *testing.T) {
		// data-tools on the script tag registers the tools as it loads;
		// registerResourceTools then returns their remover.
		var got json.RawMessage
		p := &page{Tab: nativeTab(t, "/native-tools.html"), impl: "wasm"}
		p.runRaw(`const mc = document.modelContext;
`+agentJS+`
const listed = await W.tools(both);
await H.quiet();
const before = H.wasmRequests().fetched.length;
const read = await W.call('read_resource', {uri: 'state://cart'});
mc.registerResourceTools()();
return {listed, before, read, after: await W.tools(neither), unhandled: await W.unhandledSoFar(), errors: H.mine('error')};`, &got)
		p.compare(got, `{"listed": ["list_resources", "read_changes", "read_resource"], "before": 0, "read": {"items": [1]}, "after": [], "unhandled": [], "errors": []}`)
	})

	t.Run("the module failed to load", func(t *testing.T) {
		// The agent learns why from the tools themselves.
		var got json.RawMessage
		p := openNative(t, "wasm=/missing/modelcontext.wasm")
		p.runRaw(`const mc = document.modelContext;
const failure = await H.rejection(mc.ready);
`+agentJS+`
const remove = mc.registerResourceTools();
await W.tools(both);
const out = {list: await W.call('list_resources', {}), read: await W.call('read_resource', {uri: 'state://cart'})};
remove();
out.same = out.list.error === failure.message && out.read.error === 'modelcontext: reading "state://cart" failed: ' + failure.message;
out.unhandled = await W.unhandledSoFar();
return {same: out.same, unhandled: out.unhandled, list: out.list.error.split(" \"")[0]};`, &got)
		p.compare(got, `{"same": true, "unhandled": [], "list": "modelcontext: could not fetch the WebAssembly module"}`)
	})

	t.Run("a name taken", func(t *testing.T) {
		// The page has a read_resource tool of its own: the platform refuses
		// the second one, the fallback reports it once, and removal leaves
		// the page's tool alone.
		openNative(t, "").expect(agentJS+`
await mc.registerTool({name: 'read_resource', description: "the page's own", execute: () => 'mine'});
const remove = mc.registerResourceTools();
const listed = await W.tools((names) => names.includes('list_resources'));
const read = await W.call('read_resource', {uri: 'x:y'});
remove();
const after = await W.tools((names) => !names.includes('list_resources'));
return {listed, read, after, unhandled: await W.unhandledSoFar(), errors: H.mine('error')};`,
			`{"listed": ["list_resources", "read_changes", "read_resource"], "read": {"text": "mine"}, "after": ["read_resource"], "unhandled": [],
  "errors": ["modelcontext: registerResourceTools: the tool \"read_resource\" could not be registered:"]}`)
	})
}

// TestREADMENativeConsole runs the README's console example for the
// browser's own agent as written (in an async function, as the console runs
// top-level await) on Chromium's WebMCP, on a page with the README's cart (five lines),
// and checks what its last call answers.
func TestREADMENativeConsole(t *testing.T) {
	example := docBlock(t, "native-console", "js")
	last := strings.LastIndex(example, "await mc.executeTool(")
	if last < 0 {
		t.Fatalf("the README's console example has no executeTool call:\n%s", example)
	}
	// The example's last executeTool is the read: return what it answers.
	body := example[:last] + "return " + example[last:]
	p := openNative(t, "")
	var got string
	p.Eval("(async () => {\n"+
		"document.modelContext.registerResource({uri: 'state://cart', name: 'cart', get: () => ({items: ['MUG']})});\n"+
		body+"\n})()", &got)
	if got != `{"items":["MUG"]}` {
		t.Errorf("the README's console example read %q, want the value itself, {\"items\":[\"MUG\"]}\n%s", got, p.ConsoleText())
	}
}
