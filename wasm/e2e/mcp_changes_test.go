package e2e

import "testing"

// wasm/CONTRACT.md §11, MCP: the server advertises
// capabilities.experimental["modelcontext/changes"], every read result and
// update carries _meta["modelcontext/revision"], and a client that declares
// the capability follows a JSON resource by the updates alone: a patch from
// what it last received, or the contents. Checked with the SDK's stock
// Client (2025-11-25) and with raw 2026-07-28 requests on the stock
// transport, validated against @modelcontextprotocol/core 2's schemas.

// mcpChangesJS applies patches with an applier written apart from the
// module's differ (e2e's applyJS) and changes the cart as a visitor does.
const mcpChangesJS = applyJS + `
const pad = 'x'.repeat(300);
let cart = {items: [], note: '', pad};
const r = F.resource({uri: 'test://cart', name: 'cart', get: () => cart});
F.resource({uri: 'test://text', name: 'text', mimeType: 'text/plain', value: 'plain text'});
const steps = [
  () => { cart = {items: [{sku: 'a', qty: 1}], note: '', pad}; },
  () => { cart = {items: [{sku: 'a', qty: 2}], note: '', pad}; },
  () => { cart = {items: [{sku: 'a', qty: 2}, {sku: 'b', qty: 1}], note: '', pad}; },
  () => { cart = {items: [{sku: 'b', qty: 1}], note: 'ring twice', pad}; },
];
const follow = async (updates, start) => {
  // Rebuild the cart from the updates alone; say what each carried.
  let mirror = start, kinds = [], same = true, revisions = true, at = -1;
  for (const [i, step] of steps.entries()) {
    step(); r.push();
    const n = await T.waitUntil(() => updates().length > i && updates()[i]);
    const meta = n.params._meta || {};
    if (meta['modelcontext/patch']) { kinds.push('patch'); mirror = applyPatch(mirror, meta['modelcontext/patch']); }
    else if (meta['modelcontext/contents']) { kinds.push('contents'); mirror = JSON.parse(meta['modelcontext/contents'][0].text); }
    else kinds.push('none');
    same = same && JSON.stringify(mirror) === JSON.stringify(cart);
    revisions = revisions && typeof meta['modelcontext/revision'] === 'number' && meta['modelcontext/revision'] > at;
    at = meta['modelcontext/revision'];
  }
  return {kinds, same, revisions, last: at === document.modelContext.revision};
};
`

func TestMCPChanges(t *testing.T) {
	t.Run("2025-11-25 with the SDK's Client", func(t *testing.T) {
		p := openMCP(t, "/mcp.html")
		p.expect(mcpChangesJS+`
const c = await T.connect({capabilities: {experimental: {'modelcontext/changes': {}}}});
const caps = c.client.getServerCapabilities();
await c.client.subscribeResource({uri: 'test://cart'});
const updates = () => c.notifications.filter((n) => n.method === 'notifications/resources/updated' && n.params.uri === 'test://cart');
const followed = await follow(updates, cart);
const read = await c.client.readResource({uri: 'test://cart'});
const text = await c.client.readResource({uri: 'test://text'});
return {
  advertised: caps.experimental,
  followed,
  readRevision: read._meta['modelcontext/revision'] === document.modelContext.revision,
  textRevision: typeof text._meta['modelcontext/revision'],
  errors: c.errors,
};`, `{"advertised": {"modelcontext/changes": {}}, "followed": {"kinds": ["contents", "patch", "patch", "patch"], "same": true, "revisions": true, "last": true},
			"readRevision": true, "textRevision": "number", "errors": []}`)
	})
	t.Run("2025-11-25: after a read, the first update is a patch; a client without the capability reads", func(t *testing.T) {
		p := openMCP(t, "/mcp.html")
		p.expect(mcpChangesJS+`
const c = await T.connect({capabilities: {experimental: {'modelcontext/changes': {}}}});
await c.client.subscribeResource({uri: 'test://cart'});
const read = await c.client.readResource({uri: 'test://cart'});
const updates = () => c.notifications.filter((n) => n.method === 'notifications/resources/updated' && n.params.uri === 'test://cart');
const followed = await follow(updates, JSON.parse(read.contents[0].text));
return {followed, errors: c.errors};`,
			`{"followed": {"kinds": ["patch", "patch", "patch", "patch"], "same": true, "revisions": true, "last": true}, "errors": []}`)
	})
	t.Run("2025-11-25 without the capability: bare updates with the revision", func(t *testing.T) {
		p := openMCP(t, "/mcp.html")
		p.expect(mcpChangesJS+`
const c = await T.connect();
await c.client.subscribeResource({uri: 'test://cart'});
const updates = () => c.notifications.filter((n) => n.method === 'notifications/resources/updated' && n.params.uri === 'test://cart');
const followed = await follow(updates, cart);
return {kinds: followed.kinds, revisions: followed.revisions};`,
			`{"kinds": ["none", "none", "none", "none"], "revisions": true}`)
	})
	t.Run("2026-07-28 listen with _meta", func(t *testing.T) {
		p := openMCP(t, "/mcp.html")
		p.expect(mcpChangesJS+`
const s = await T.session();
const o = {modern: true};
const discover = await s.request('server/discover', {}, o);
const bad = await s.request('subscriptions/listen', {_meta: {'modelcontext/changes': 'yes'}, notifications: {resourceSubscriptions: ['test://cart']}}, {id: 'bad', modern: true});
s.request('subscriptions/listen', {_meta: {'modelcontext/changes': true}, notifications: {resourceSubscriptions: ['test://cart']}}, {id: 'L', modern: true}).catch(() => {});
await T.waitUntil(() => s.messages.some((m) => m.method === 'notifications/subscriptions/acknowledged'));
const updates = () => s.messages.filter((m) => m.method === 'notifications/resources/updated');
const followed = await follow(updates, cart);
const read = await s.request('resources/read', {uri: 'test://cart'}, o);
const valid = updates().map((n) => T.validate('core.ResourceUpdatedNotificationSchema', n));
return {
  advertised: discover.result.capabilities.experimental,
  bad: bad.error && bad.error.code,
  followed,
  readRevision: read.result._meta['modelcontext/revision'] === document.modelContext.revision,
  valid: valid.every((v) => v === null) || valid,
  errors: s.errors,
};`, `{"advertised": {"modelcontext/changes": {}}, "bad": -32602, "followed": {"kinds": ["contents", "patch", "patch", "patch"], "same": true, "revisions": true, "last": true},
			"readRevision": true, "valid": true, "errors": []}`)
	})
	t.Run("2025-11-25: a value that alternates between JSON and binary", func(t *testing.T) {
		p := openMCP(t, "/mcp.html")
		p.expect(applyJS+`
const pad = 'x'.repeat(300);
const r = F.resource({uri: 'test://v', name: 'v', value: {n: 0, pad}});
const c = await T.connect({capabilities: {experimental: {'modelcontext/changes': {}}}});
await c.client.subscribeResource({uri: 'test://v'});
const updates = () => c.notifications.filter((n) => n.method === 'notifications/resources/updated');
const values = [{n: 1, pad}, {n: 2, pad}, new Uint8Array([0xff, 0xfe]), {n: 3, pad}, {n: 4, pad}, new Uint8Array([104, 105]), {n: 5, pad}];
const kinds = []; let mirror = null, same = true;
for (const [i, v] of values.entries()) {
  r.push(v);
  const n = await T.waitUntil(() => updates().length > i && updates()[i]);
  const meta = n.params._meta;
  if (meta['modelcontext/patch']) { kinds.push('patch'); mirror = applyPatch(mirror, meta['modelcontext/patch']); }
  else if (meta['modelcontext/contents']) { kinds.push('contents'); mirror = JSON.parse(meta['modelcontext/contents'][0].text); }
  else {
    kinds.push('none'); // the client reads it
    const read = await c.client.readResource({uri: 'test://v'});
    mirror = read.contents[0].blob !== undefined ? 'blob' : read.contents[0].text;
  }
  if (!(v instanceof Uint8Array)) same = same && JSON.stringify(mirror) === JSON.stringify(v);
}
return {kinds, same, errors: c.errors};`,
			`{"kinds": ["contents", "patch", "none", "contents", "patch", "none", "contents"], "same": true, "errors": []}`)
	})
}
