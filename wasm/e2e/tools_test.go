package e2e

import (
	"testing"
	"time"
)

// The tool fallback: where document.modelContext.registerTool exists,
// registerResourceTools registers read-only list_resources and
// read_resource tools. native_test.go tries it on Chromium's own WebMCP,
// where read_resource answers the values themselves; the tests here try it
// on polyfills, where it answers MCP CallToolResults.

// agentJS gives a scenario W, helpers for an agent's side of the tools, and
// records every rejection the page leaves unhandled from here on. W.names
// is what the agent sees listed (getTools, by default; a scenario may set
// another).
const agentJS = `
const W = {
  unhandled: [],
  names: async () => (await mc.getTools()).map((t) => t.name),
  // tools resolves with the sorted names W.names lists once ok(names)
  // holds: checked now and after every toolchange. It fails after 10 s
  // (what was listed then), only to say what it waited for.
  tools(ok) {
    return new Promise((resolve, reject) => {
      let last;
      const check = async () => {
        try {
          last = (await W.names()).sort();
          if (ok(last)) {
            mc.removeEventListener('toolchange', check);
            clearTimeout(timer);
            resolve(last);
          }
        } catch (e) {
          reject(e);
        }
      };
      const timer = setTimeout(() => reject(new Error('W.tools: still listed ' + JSON.stringify(last) + ' after 10 s: ' + ok)), 10000);
      mc.addEventListener('toolchange', check);
      check();
    });
  },
  // call runs the tool as an agent does, through getTools and executeTool,
  // and returns what the agent reads: the JSON text parsed, or {text} for
  // text that is not JSON.
  async call(name, input) {
    const tool = (await mc.getTools()).find((t) => t.name === name);
    if (!tool) throw new Error('getTools lists no ' + name);
    const answer = await mc.executeTool(tool, input);
    try {
      return JSON.parse(answer);
    } catch {
      return {text: answer};
    }
  },
  // unhandledSoFar returns the rejections left unhandled so far. The page
  // reports unhandled rejections in the order they happened, so once a
  // sentinel rejected now is reported, every one before it has been.
  async unhandledSoFar() {
    const sentinel = new Error('sentinel');
    const seen = new Promise((resolve) => window.addEventListener('unhandledrejection', function f(e) {
      if (e.reason !== sentinel) return;
      e.preventDefault();
      window.removeEventListener('unhandledrejection', f);
      resolve();
    }));
    Promise.reject(sentinel);
    await seen;
    return W.unhandled.filter((r) => r !== sentinel).map((r) => H.describeError(r));
  },
};
window.addEventListener('unhandledrejection', (e) => W.unhandled.push(e.reason));
const both = (names) => names.includes('list_resources') && names.includes('read_resource');
const neither = (names) => !names.includes('list_resources') && !names.includes('read_resource');
`

// TestResourceTools: on a polyfill whose registerTool returns {unregister}
// (load.js's existing=own stand-in), the tools answer CallToolResults (text
// content, isError: true with a message naming the uri on a failure), and
// the function registerResourceTools returns unregisters them. Called again
// while they are registered it returns that same function; after removal it
// registers them again.
func TestResourceTools(t *testing.T) {
	requireImpl(t, "wasm")
	p := open(t, "wasm", "", "existing=own")
	p.expect(`mc.registerResource({uri: 'state://cart', name: 'cart', description: 'the cart', get: () => ({items: 2})});
mc.registerResource({uri: 'state://bytes', name: 'bytes', mimeType: 'application/octet-stream', get: () => new Uint8Array([104, 105])});
mc.registerResource({uri: 'state://broken', name: 'broken', get: () => { throw new Error('nope'); }});
const remove = mc.registerResourceTools();
const same = mc.registerResourceTools() === remove;
const registered = window.__existing.listTools();
const tools = window.__tools; // the tool objects the stand-in was given
const list = await tools.list_resources.execute({});
const read = await tools.read_resource.execute({uri: 'state://cart'});
const bytes = await tools.read_resource.execute({uri: 'state://bytes'});
const missing = await tools.read_resource.execute({uri: 'state://nope'});
const broken = await tools.read_resource.execute({uri: 'state://broken'});
const readOnly = Object.values(tools).every((t) => t.annotations && t.annotations.readOnlyHint === true);
const untrusted = Object.values(tools).every((t) => t.annotations && t.annotations.untrustedContentHint === true);
remove();
const afterRemove = window.__existing.listTools();
const again = mc.registerResourceTools();
const registeredAgain = window.__existing.listTools();
remove(); // removed already: does nothing, not even to the tools registered since
const kept = window.__existing.listTools();
again();
return {same, registered, afterRemove, fresh: again !== remove, registeredAgain, kept, final: window.__existing.listTools(), readOnly, untrusted,
  list: JSON.parse(list.content[0].text).map((r) => r.uri),
  read: read.content[0].text, bytes: bytes.content[0].text,
  missing: [missing.isError, missing.content[0].text], broken: [broken.isError, broken.content[0].text],
  errors: H.mine('error')};`,
		`{"same": true, "registered": ["list_resources", "read_resource", "read_changes"], "afterRemove": [], "readOnly": true, "untrusted": true,
  "fresh": true, "registeredAgain": ["list_resources", "read_resource", "read_changes"], "kept": ["list_resources", "read_resource", "read_changes"], "final": [],
  "list": ["state://cart", "state://bytes", "state://broken"],
  "read": "{\"items\":2}", "bytes": "base64:aGk=",
  "missing": [true, "modelcontext: no resource is registered for uri \"state://nope\""],
  "broken": [true, "modelcontext: reading \"state://broken\" failed: nope"],
  "errors": []}`)
}

// TestResourceToolsMCPB: on MCP-B's @mcp-b/global (registerTool(tool,
// {signal}) returns a Promise; MCP clients call the tools), the tools
// answer CallToolResults, removal aborts the registrations, and nothing
// leaves an unhandled rejection. The agent here is the stock MCP client on
// MCP-B's channel.
func TestResourceToolsMCPB(t *testing.T) {
	// mcpbJS connects the client as b and lists the tools through it.
	const mcpbJS = `const mc = document.modelContext;
await mc.ready;
` + agentJS + `
const b = await T.connect({channel: 'mcp-b'});
W.names = async () => (await b.client.listTools()).tools.map((t) => t.name);
const call = async (name, args) => {
  const r = await b.client.callTool({name, arguments: args});
  return [r.isError === true, r.content.map((c) => c.type + ': ' + c.text).join('; ')];
};
`
	open := func(t *testing.T) *mcpPage {
		p := openMCP(t, "/mcp-coexist.html", "mcpb-global.js")
		p.Timeout = 60 * time.Second
		return p
	}
	t.Run("list and read", func(t *testing.T) {
		open(t).expect(mcpbJS+`
mc.registerResource({uri: 'state://cart', name: 'cart', description: 'the cart', get: () => ({items: [1]})});
mc.registerResource({uri: 'state://bytes', name: 'bytes', mimeType: 'application/octet-stream', get: () => new Uint8Array([104, 105])});
mc.registerResource({uri: 'state://note', name: 'note', mimeType: 'text/plain', get: () => 'hello'});
mc.registerResource({uri: 'state://broken', name: 'broken', get: () => { throw new Error('nope'); }});
mc.registerResource({uriTemplate: 'app://orders/{id}', name: 'order', get: ({id}) => ({id})});
const remove = mc.registerResourceTools();
await W.tools(both);
const tools = (await b.client.listTools()).tools.filter((t) => t.name.endsWith('_resources') || t.name.endsWith('_resource'));
const out = {
  tools: tools.map((t) => [t.name, t.annotations && t.annotations.readOnlyHint]),
  list: await call('list_resources', {}),
  cart: await call('read_resource', {uri: 'state://cart'}),
  bytes: await call('read_resource', {uri: 'state://bytes'}),
  note: await call('read_resource', {uri: 'state://note'}),
  order: await call('read_resource', {uri: 'app://orders/42'}),
  missing: await call('read_resource', {uri: 'state://nope'}),
  broken: await call('read_resource', {uri: 'state://broken'}),
};
remove();
out.after = await W.tools(neither);
out.unhandled = await W.unhandledSoFar();
out.errors = [...H.mine('error'), ...b.errors];
return out;`, `{
  "tools": [["list_resources", true], ["read_resource", true]],
  "list": [false, "text: [{\"uri\":\"state://cart\",\"name\":\"cart\",\"description\":\"the cart\",\"mimeType\":\"application/json\"},{\"uri\":\"state://bytes\",\"name\":\"bytes\",\"mimeType\":\"application/octet-stream\"},{\"uri\":\"state://note\",\"name\":\"note\",\"mimeType\":\"text/plain\"},{\"uri\":\"state://broken\",\"name\":\"broken\",\"mimeType\":\"application/json\"},{\"uriTemplate\":\"app://orders/{id}\",\"name\":\"order\",\"mimeType\":\"application/json\"}]"],
  "cart": [false, "text: {\"items\":[1]}"],
  "bytes": [false, "text: base64:aGk="],
  "note": [false, "text: hello"],
  "order": [false, "text: {\"id\":\"42\"}"],
  "missing": [true, "text: modelcontext: no resource is registered for uri \"state://nope\""],
  "broken": [true, "text: modelcontext: reading \"state://broken\" failed: nope"],
  "after": [], "unhandled": [], "errors": []}`)
	})
	t.Run("again", func(t *testing.T) {
		open(t).expect(mcpbJS+`
const first = mc.registerResourceTools();
const same = mc.registerResourceTools() === first;
const once = await W.tools(both);
first();
await W.tools(neither);
const third = mc.registerResourceTools();
const again = await W.tools(both);
first(); // removed already: does nothing
const kept = await call('list_resources', {});
third();
return {same, once, fresh: third !== first, again, kept, after: await W.tools(neither),
  unhandled: await W.unhandledSoFar(), errors: [...H.mine('error'), ...b.errors]};`,
			`{"same": true, "once": ["list_resources", "read_changes", "read_resource"], "fresh": true, "again": ["list_resources", "read_changes", "read_resource"],
  "kept": [false, "text: []"], "after": [], "unhandled": [], "errors": []}`)
	})
	t.Run("removed before registered, and a name taken", func(t *testing.T) {
		open(t).expect(mcpbJS+`
mc.registerResourceTools()();
const removed = await W.tools(neither);
await mc.registerTool({name: 'read_resource', description: "the page's own", execute: async () => ({content: [{type: 'text', text: 'mine'}]})});
const remove = mc.registerResourceTools();
const listed = await W.tools((names) => names.includes('list_resources'));
const read = await call('read_resource', {uri: 'x:y'});
remove();
const after = await W.tools((names) => !names.includes('list_resources'));
return {removed, listed, read, after, unhandled: await W.unhandledSoFar(), errors: [...H.mine('error'), ...b.errors]};`,
			`{"removed": [], "listed": ["list_resources", "read_changes", "read_resource"], "read": [false, "text: mine"], "after": ["read_resource"],
  "unhandled": [], "errors": ["modelcontext: registerResourceTools: the tool \"read_resource\" could not be registered:"]}`)
	})
}
