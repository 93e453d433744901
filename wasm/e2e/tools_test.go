package e2e

import "testing"

// TestResourceTools: where document.modelContext.registerTool exists (here
// load.js's existing=own stand-in for WebMCP), registerResourceTools
// registers read-only list_resources and read_resource tools that see the
// same resources, and the function it returns removes them.
func TestResourceTools(t *testing.T) {
	requireImpl(t, "wasm")
	p := open(t, "wasm", "", "existing=own")
	p.expect(`mc.registerResource({uri: 'state://cart', name: 'cart', description: 'the cart', get: () => ({items: 2})});
mc.registerResource({uri: 'state://bytes', name: 'bytes', mimeType: 'application/octet-stream', get: () => new Uint8Array([104, 105])});
mc.registerResource({uri: 'state://broken', name: 'broken', get: () => { throw new Error('nope'); }});
const remove = mc.registerResourceTools();
const registered = window.__existing.listTools();
const tools = window.__tools; // the tool objects the stand-in was given
const list = await tools.list_resources.execute({});
const read = await tools.read_resource.execute({uri: 'state://cart'});
const bytes = await tools.read_resource.execute({uri: 'state://bytes'});
const missing = await tools.read_resource.execute({uri: 'state://nope'});
const broken = await tools.read_resource.execute({uri: 'state://broken'});
const readOnly = Object.values(tools).every((t) => t.annotations && t.annotations.readOnlyHint === true);
remove();
return {registered, afterRemove: window.__existing.listTools(), readOnly,
  list: JSON.parse(list.content[0].text).map((r) => r.uri),
  read: read.content[0].text, bytes: bytes.content[0].text,
  missing: [missing.isError, missing.content[0].text], broken: [broken.isError, broken.content[0].text]};`,
		`{"registered": ["list_resources", "read_resource"], "afterRemove": [], "readOnly": true,
  "list": ["state://cart", "state://bytes", "state://broken"],
  "read": "{\"items\":2}", "bytes": "base64:aGk=",
  "missing": [true, "modelcontext: no resource is registered for uri \"state://nope\""],
  "broken": [true, "nope"]}`)
}
