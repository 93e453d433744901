package e2e

import "testing"

// Regression tests for bugs between the loader and the MCP server, each
// through the stock client or raw envelopes on the page.

// TestMCPLongRequestsAreAnswered: the first request that outgrows the
// buffer the loader writes messages into is answered like any other (it was
// once silently dropped: the buffer grew and lost the origin written first).
func TestMCPLongRequestsAreAnswered(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`const long = 'test://' + 'x'.repeat(200);
const longer = 'test://tpl/' + 'y'.repeat(20000);
F.resource({uri: long, name: 'long', value: 'long'});
F.template({uriTemplate: 'test://tpl/{rest}', name: 'tpl', get: ({rest}) => rest.length});
const c = await T.connect();
const first = await c.call('resources/read', {uri: long});
const second = await c.call('resources/read', {uri: longer});
return {
  first: first.result ? first.result.contents[0].text : first,
  second: second.result ? second.result.contents[0].text : second,
};`, `{"first": "\"long\"", "second": "20000"}`)
}

// TestMCPMaxBytesCountsUTF8Bytes: maxBytes is a number of bytes of the
// UTF-8 text a client receives, not of UTF-16 code units.
func TestMCPMaxBytesCountsUTF8Bytes(t *testing.T) {
	p := openMCP(t, "/mcp-serve.html")
	p.expect(mcpRequireServe+`
const server = document.modelContext.serveMCP({channel: 'bytes', maxBytes: 20});
F.resource({uri: 'test://euros-12', name: 'e12', mimeType: 'text/plain', value: '€'.repeat(12)});
F.resource({uri: 'test://euros-6', name: 'e6', mimeType: 'text/plain', value: '€'.repeat(6)});
F.resource({uri: 'test://ascii-20', name: 'a20', mimeType: 'text/plain', value: 'a'.repeat(20)});
const c = await T.connect({channel: 'bytes'});
const read = async (uri) => { const r = await c.call('resources/read', {uri}); return r.result ? r.result.contents[0].text.length : r.error.message; };
const r = {over: await read('test://euros-12'), under: await read('test://euros-6'), atLimit: await read('test://ascii-20')};
server.stop();
return r;`, `{"over": "MCP error -32603: reading test://euros-12 failed: the value is 36 bytes, more than the limit of 20 (serveMCP's maxBytes)", "under": 6, "atLimit": 20}`)
}

// TestMCPForgedEvents: a page script can dispatch a message event whose data
// throws when it is read. Nothing escapes the module's listener; a request
// whose id could be read gets an error; the server goes on.
func TestMCPForgedEvents(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`F.resource({uri: 'test://f', name: 'f', value: 1});
const w = T.wire();
const forge = (data) => window.dispatchEvent(new MessageEvent('message', {data, origin: location.origin, source: window}));
const env = (payload) => ({channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload});
const boom = () => { throw new Error('getter'); };
forge({get channel() { return boom(); }});
forge({channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', get payload() { return boom(); }});
forge(env({jsonrpc: '2.0', id: 'forged', get method() { return boom(); }}));
forge(env({jsonrpc: '2.0', id: 'forged-params', method: 'resources/read', params: {get uri() { return boom(); }}}));
forge(env({jsonrpc: '2.0', id: 'forged-array', method: 'resources/list', params: {cursor: new Proxy([], {get: boom})}}));
w.post({jsonrpc: '2.0', id: 'sentinel', method: 'ping'});
await w.waitResponse('sentinel', M.patience);
const codes = (id) => w.responsesTo(id).map((r) => r.error ? r.error.code : 'result');
return {
  forged: codes('forged'), params: codes('forged-params'), array: codes('forged-array'), sentinel: codes('sentinel'),
  uncaught: H.uncaught,
};`, `{"forged": [-32600], "params": [-32600], "array": [-32600], "sentinel": ["result"], "uncaught": []}`)
}

// TestMCPListenValidatesSubscriptions: resourceSubscriptions that is not an
// array of strings is answered with -32602, not acknowledged.
func TestMCPListenValidatesSubscriptions(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`F.resource({uri: 'test://l', name: 'l', value: 1});
const c = await T.connect();
const listen = async (id, subs) => {
  const r = await c.callRaw('subscriptions/listen', {_meta: c.meta(), notifications: {resourceSubscriptions: subs}}, {timeoutMs: M.patience}).catch((e) => ({error: {code: 'timeout ' + e.message}}));
  return r.error ? r.error.code : 'acknowledged';
};
return {string: await listen('a', 'test://l'), numbers: await listen('b', [1, 2]), object: await listen('c', {uri: 'test://l'})};`,
		`{"string": -32602, "numbers": -32602, "object": -32602}`)
}

// TestMCPAMessageInsideARead: a getter that dispatches a message event while
// the server reads it. The inner request is answered with its own resource,
// the outer with its own, in the order the server wrote them, and the server
// goes on.
func TestMCPAMessageInsideARead(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`const forge = (data) => window.dispatchEvent(new MessageEvent('message', {data, origin: location.origin, source: window}));
const env = (payload) => ({channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload});
let forged = false;
F.resource({uri: 'test://inner', name: 'inner', mimeType: 'text/plain', value: 'inner value'});
F.resource({uri: 'test://outer', name: 'outer', mimeType: 'text/plain', get: () => {
  if (!forged) {
    forged = true;
    forge(env({jsonrpc: '2.0', id: 'inner', method: 'resources/read', params: {uri: 'test://inner'}}));
  }
  return 'outer value';
}});
const w = T.wire();
w.post({jsonrpc: '2.0', id: 'outer', method: 'resources/read', params: {uri: 'test://outer'}});
await w.waitResponse('outer', M.patience);
w.post({jsonrpc: '2.0', id: 'sentinel', method: 'ping'});
await w.waitResponse('sentinel', M.patience);
const answer = (p) => p.id + ' ' + (p.error ? p.error.code : p.result.contents ? p.result.contents[0].uri + ' ' + p.result.contents[0].text : 'result');
return {answers: w.fromServer().filter((p) => p && p.id).map(answer), uncaught: H.uncaught};`,
		`{"answers": ["inner test://inner inner value", "outer test://outer outer value", "sentinel result"], "uncaught": []}`)
}

// TestMCPURIsComeBackExactly: the uri a response names is the one the page
// registered, short or long, ASCII or not, with lone surrogates or without
// (Go writes it; the loader reads Go's text two ways, by its length, and
// decodes the lone surrogates it encoded).
func TestMCPURIsComeBackExactly(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`const uris = ['test://a', 'test://' + 'a'.repeat(60), 'test://' + 'a'.repeat(3000), 'test://é', 'test://€' + '€'.repeat(40), 'test://😀'.repeat(500), 'test://lone-\ud800', 'test://lone-\udfff-' + '😀'.repeat(30) + '\ud800\ud800'];
uris.forEach((uri, i) => F.resource({uri, name: 'r' + i, mimeType: 'text/plain', value: 'v' + i}));
const c = await T.connect();
const wrong = [];
for (const uri of uris) {
  const r = await c.call('resources/read', {uri});
  const got = r.result ? r.result.contents[0].uri : r.error.message;
  if (got !== uri) wrong.push(uri.slice(0, 20) + '… (' + uri.length + '): got ' + String(got).slice(0, 40) + ' (' + String(got).length + ')');
}
return wrong;`, `[]`)
}
