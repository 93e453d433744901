package e2e

import (
	"strings"
	"testing"
	"time"
)

// wasm/CONTRACT.md §11, the browser's own agent: read_changes({since?})
// beside list_resources and read_resource, on the platform's WebMCP (the
// answer itself) and on MCP-B's polyfill (a CallToolResult's JSON text).

// readChangesJS drives a visitor and an agent that follows the page by
// read_changes alone, rebuilding every value from what the tool answers
// (applyJS applies its patches); call(input) runs the tool and returns its
// answer as an object.
const readChangesJS = applyJS + `
const pad = 'x'.repeat(200);
let cart = {items: [], pad}, ping, note = 'hi';
mc.registerResource({uri: 'state://cart', name: 'cart', get: () => cart, subscribe: (f) => (ping = f, () => {})});
mc.registerResource({uri: 'state://note', name: 'note', mimeType: 'text/plain', get: () => note});
mc.registerResource({uri: 'state://bytes', name: 'bytes', mimeType: 'application/octet-stream', get: () => new Uint8Array([104, 105])});
const removeTools = mc.registerResourceTools();
await W.tools((names) => names.includes('read_changes'));
const seen = {}; const kinds = [];
const take = (a) => {
  const k = [];
  if (a.reset) for (const u of Object.keys(seen)) delete seen[u];
  for (const c of a.changes) {
    if (c.removed) { delete seen[c.uri]; k.push('removed ' + c.uri); }
    else if (c.patch) { seen[c.uri] = applyPatch(seen[c.uri], c.patch); k.push('patch ' + c.uri); }
    else if (c.blob !== undefined) { seen[c.uri] = c.blob; k.push('blob ' + c.uri); }
    else { seen[c.uri] = c.value; k.push('value ' + c.uri); }
  }
  kinds.push((a.reset ? 'reset: ' : '') + k.join(', '));
  return a.revision;
};
let since = take(await call({}));
cart = {items: [{sku: 'a', qty: 1}], pad}; ping();
since = take(await call({since}));
cart = {items: [{sku: 'a', qty: 2}], pad}; ping();
cart = {items: [{sku: 'a', qty: 2}, {sku: 'b', qty: 1}], pad}; ping();
since = take(await call({since}));
const kept = cart; cart = {items: [], pad}; ping(); cart = kept; ping(); // pushed twice, back where it was: no entry
since = take(await call({since}));
const quiet = take(await call({since})) === since;
const unregisterLate = mc.registerResource({uri: 'state://late', name: 'late', get: () => ({late: true})});
since = take(await call({since}));
unregisterLate();
since = take(await call({since}));
const stale = take(await call({since: 0}));
const bad = await call({since: -1});
const tool = (await W.toolsOf()).find((t) => t.name === 'read_changes');
removeTools();
return {
  kinds, quiet, revision: since === mc.revision,
  same: JSON.stringify(seen['state://cart']) === JSON.stringify(cart) && seen['state://note'] === 'hi' && seen['state://late'] === undefined,
  bad: typeof bad.error === 'string' && bad.error.includes('"since"'),
  tool: {readOnly: tool.annotations.readOnlyHint, untrusted: tool.annotations.untrustedContentHint, keepRevision: tool.description.includes('revision')},
};`

const readChangesWant = `{
  "kinds": [
    "reset: value state://cart, value state://note, blob state://bytes",
    "patch state://cart",
    "patch state://cart",
    "",
    "",
    "value state://late",
    "removed state://late",
    "value state://cart, value state://note, blob state://bytes"],
  "quiet": true, "revision": true, "same": true, "bad": true,
  "tool": {"readOnly": true, "untrusted": true, "keepRevision": true}}`

func TestReadChangesTool(t *testing.T) {
	t.Run("native WebMCP", func(t *testing.T) {
		openNative(t, "").expect(agentJS+`
W.toolsOf = () => mc.getTools();
const call = (input) => W.call('read_changes', input);
`+readChangesJS, readChangesWant)
	})
	t.Run("MCP-B's polyfill", func(t *testing.T) {
		p := openMCP(t, "/mcp-coexist.html", "mcpb-global.js")
		p.Timeout = 60 * time.Second
		p.expect(`const mc = document.modelContext;
await mc.ready;
`+agentJS+`
const b = await T.connect({channel: 'mcp-b'});
W.names = async () => (await b.client.listTools()).tools.map((t) => t.name);
W.toolsOf = async () => (await b.client.listTools()).tools;
const call = async (input) => {
  const r = await b.client.callTool({name: 'read_changes', arguments: input});
  return r.isError ? {error: r.content[0].text} : JSON.parse(r.content[0].text);
};
`+readChangesJS, strings.Replace(readChangesWant, `"untrusted": true, `, "", 1)) // the SDK's Tool schema drops the hint
	})
}
