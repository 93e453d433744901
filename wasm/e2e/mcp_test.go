package e2e

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// wasm/CONTRACT.md §6: the MCP server over window.postMessage, revision
// 2025-11-25, driven by the stock client (see mcp_harness_test.go). The page is
// testdata/pages/mcp.html: the module's script tag with data-mcp.

// mcpScenarios run against the module and, where sdk/mcpb are set, against
// the reference servers too (mcp_reference_test.go).
var mcpScenarios = []mcpScenario{
	{
		name: "initialize and ping",
		js: `const c = await T.connect();
const init = c.messages.find((m) => m.result && m.result.protocolVersion);
const info = c.client.getServerVersion() || {};
const ping = await c.call('ping');
return {
  protocolVersion: init.result.protocolVersion,
  resources: c.client.getServerCapabilities().resources ?? null,
  serverInfo: typeof info.name === 'string' && info.name !== '' && typeof info.version === 'string',
  ping,
  errors: c.errors,
};`,
		want: `{"protocolVersion": "2025-11-25", "resources": {"subscribe": true, "listChanged": true},
			"serverInfo": true, "ping": {"result": {}}, "errors": []}`,
		sdk:  "=",
		mcpb: `{"protocolVersion": "2025-11-25", "resources": {"listChanged": true}, "serverInfo": true, "ping": {"result": {}}, "errors": []}`,
	},
	{
		name: "resources/list walks nextCursor past one page",
		js: `const uris = [];
for (let i = 0; i < 120; i++) {
  const uri = 'test://many/' + String(i).padStart(3, '0');
  uris.push(uri);
  F.resource({uri, name: 'many ' + i, value: i});
}
const c = await T.connect();
const all = await M.listAll(c);
const got = all.items.map((r) => r.uri);
return {
  error: all.error ?? null,
  pages: all.pages,
  count: got.length,
  inRegistrationOrder: JSON.stringify(got) === JSON.stringify(uris),
  distinctCursors: new Set(all.cursors).size === all.cursors.length,
  errors: c.errors,
};`,
		want: `{"error": null, "pages": [50, 50, 20], "count": 120, "inRegistrationOrder": true, "distinctCursors": true, "errors": []}`,
		sdk:  `{"error": null, "pages": [120], "count": 120, "inRegistrationOrder": true, "distinctCursors": true, "errors": []}`,
		mcpb: `{"error": null, "pages": [120], "count": 120, "inRegistrationOrder": true, "distinctCursors": true, "errors": []}`,
	},
	{
		name: "list entries carry the descriptor",
		js: `F.resource({uri: 'test://full', name: 'full', title: 'Full', description: 'Every field', mimeType: 'text/plain',
  annotations: {audience: ['user', 'assistant'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z'}, value: 'x'});
F.resource({uri: 'test://bare', name: 'bare', value: 1});
const c = await T.connect();
const all = await M.listAll(c);
return all.items.map((r) => M.pick(r, ['uri', 'name', 'title', 'description', 'mimeType', 'annotations']));`,
		want: `[
			{"uri": "test://full", "name": "full", "title": "Full", "description": "Every field", "mimeType": "text/plain",
			 "annotations": {"audience": ["user", "assistant"], "priority": 0.5, "lastModified": "2025-01-12T15:00:58Z"}},
			{"uri": "test://bare", "name": "bare", "mimeType": "application/json"}]`,
		sdk: "=",
	},
	{
		name: "an unknown cursor is -32602",
		js: `for (let i = 0; i < 60; i++) F.resource({uri: 'test://c/' + i, name: 'c' + i, value: i});
const c = await T.connect();
const bad = await c.call('resources/list', {cursor: 'no-such-cursor'});
const badTemplates = await c.call('resources/templates/list', {cursor: 'no-such-cursor'});
const first = await c.call('resources/list');
const second = first.result && first.result.nextCursor !== undefined
  ? await c.call('resources/list', {cursor: first.result.nextCursor}) : {error: 'no nextCursor on the first page'};
return {
  bad: bad.error ? bad.error.code : bad,
  badTemplates: badTemplates.error ? badTemplates.error.code : badTemplates,
  secondPage: second.result ? second.result.resources.length : second,
  stillServes: await c.call('ping'),
};`,
		want: `{"bad": -32602, "badTemplates": -32602, "secondPage": 10, "stillServes": {"result": {}}}`,
	},
	{
		name: "templates are listed apart",
		js: `F.template({uriTemplate: 'app://orders/{id}', name: 'order', description: 'An order by id', mimeType: 'application/json',
  get: (p) => ({id: p.id})});
F.resource({uri: 'test://plain', name: 'plain', value: 1});
const c = await T.connect();
const t = await M.listAll(c, 'resources/templates/list');
const r = await M.listAll(c);
return {
  templates: t.items.map((x) => M.pick(x, ['uriTemplate', 'name', 'description', 'mimeType'])),
  resources: r.items.map((x) => x.uri),
  errors: [t.error ?? null, r.error ?? null],
};`,
		want: `{"templates": [{"uriTemplate": "app://orders/{id}", "name": "order", "description": "An order by id", "mimeType": "application/json"}],
			"resources": ["test://plain"], "errors": [null, null]}`,
		sdk:  "=",
		mcpb: "=",
	},
	{
		name: "read: values as text",
		js: `F.resource({uri: 'test://json', name: 'json', value: {a: 1, b: [true, null, 'x'], s: 'é ✓'}});
F.resource({uri: 'test://text', name: 'text', mimeType: 'text/plain', value: 'héllo ✓\nworld'});
F.resource({uri: 'test://json-string', name: 'json-string', value: 'a "quoted" string'});
F.resource({uri: 'test://number', name: 'number', value: 42});
F.resource({uri: 'test://markdown', name: 'md', mimeType: 'text/markdown', value: '# Title'});
F.resource({uri: 'test://async', name: 'async', mimeType: 'text/plain', get: async () => { await T.sleep(10); return 'later'; }});
const c = await T.connect();
const out = {};
for (const u of ['test://json', 'test://text', 'test://json-string', 'test://number', 'test://markdown', 'test://async']) {
  out[u] = await M.read(c, u);
}
return out;`,
		want: `{
			"test://json": {"contents": [{"uri": "test://json", "mimeType": "application/json", "text": "{\"a\":1,\"b\":[true,null,\"x\"],\"s\":\"é ✓\"}"}]},
			"test://text": {"contents": [{"uri": "test://text", "mimeType": "text/plain", "text": "héllo ✓\nworld"}]},
			"test://json-string": {"contents": [{"uri": "test://json-string", "mimeType": "application/json", "text": "\"a \\\"quoted\\\" string\""}]},
			"test://number": {"contents": [{"uri": "test://number", "mimeType": "application/json", "text": "42"}]},
			"test://markdown": {"contents": [{"uri": "test://markdown", "mimeType": "text/markdown", "text": "# Title"}]},
			"test://async": {"contents": [{"uri": "test://async", "mimeType": "text/plain", "text": "later"}]}}`,
		sdk:  "=",
		mcpb: "=",
	},
	{
		name: "read: binary values as base64 blobs",
		js:   mcpBinaryJS,
		want: mcpBinaryWant(map[string]mcpContent{
			"test://bin/arraybuffer": {"application/octet-stream", "", []byte{0, 1, 2, 127, 128, 254, 255}},
			"test://bin/uint8-view":  {"application/octet-stream", "", []byte{1, 2, 3}},
			"test://bin/dataview":    {"application/octet-stream", "", []byte{4, 5, 6}},
			"test://bin/int16":       {"application/octet-stream", "", []byte{1, 0, 255, 255}},
			"test://bin/float64":     {"application/octet-stream", "", []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},
			"test://bin/blob":        {"application/octet-stream", "", []byte{10, 20, 30}},
			"test://bin/empty":       {"application/octet-stream", "", []byte{}},
			"test://bin/all-bytes":   {"application/octet-stream", "", allBytes()},
			"test://bin/utf8-octets": {"application/octet-stream", "", []byte("abc")},
			"test://bin/png":         {"image/png", "", []byte{0x89, 'P', 'N', 'G'}},
		}),
		sdk:  "=",
		mcpb: "=",
	},
	{
		name: "read: valid UTF-8 bytes under a text MIME type as text",
		js:   mcpUTF8JS,
		want: mcpBinaryWant(map[string]mcpContent{
			"test://utf8/plain-uint8":     {"text/plain", "grüße ✓", nil},
			"test://utf8/plain-buffer":    {"text/plain", "grüße ✓", nil},
			"test://utf8/plain-dataview":  {"text/plain", "view", nil},
			"test://utf8/plain-blob":      {"text/plain", "blob text", nil},
			"test://utf8/charset":         {"text/plain; charset=utf-8", "with charset", nil},
			"test://utf8/json":            {"application/json", `{"k":[1,2]}`, nil},
			"test://utf8/vnd-json":        {"application/vnd.api+json", `{"data":null}`, nil},
			"test://utf8/svg":             {"image/svg+xml", "<svg/>", nil},
			"test://utf8/javascript":      {"application/javascript", "let x = 1;", nil},
			"test://utf8/yaml":            {"application/yaml", "a: 1", nil},
			"test://utf8/empty":           {"text/plain", "", nil},
			"test://utf8/invalid":         {"text/plain", "", []byte{0xff, 0xfe, 'A'}},
			"test://utf8/truncated":       {"text/plain", "", []byte{'o', 'k', 0xe2, 0x82}},
			"test://utf8/surrogate-bytes": {"text/plain", "", []byte{0xed, 0xa0, 0x80}},
		}),
	},
	{
		name: "read through a template; parameters percent-decoded",
		js: `const seen = [];
F.template({uriTemplate: 'app://orders/{id}', name: 'order', get: (p) => { seen.push(p); return {id: p.id}; }});
F.template({uriTemplate: 'app://users/{user}/posts/{post}', name: 'post', mimeType: 'text/plain', get: (p) => p.user + ':' + p.post});
F.resource({uri: 'app://orders/special', name: 'special', value: 'concrete'});
const c = await T.connect();
const code = async (uri) => { const r = await M.read(c, uri); return r.error ? r.error.code : 'matched'; };
return {
  plain: await M.read(c, 'app://orders/42'),
  encoded: await M.read(c, 'app://orders/a%20b%2Fc%C3%A9'),
  two: await M.read(c, 'app://users/ann/posts/7'),
  concreteFirst: await M.read(c, 'app://orders/special'),
  crossesSlash: await code('app://orders/1/2'),
  emptySegment: await code('app://orders/'),
  otherScheme: await code('other://orders/1'),
  params: seen,
};`,
		want: `{
			"plain": {"contents": [{"uri": "app://orders/42", "mimeType": "application/json", "text": "{\"id\":\"42\"}"}]},
			"encoded": {"contents": [{"uri": "app://orders/a%20b%2Fc%C3%A9", "mimeType": "application/json", "text": "{\"id\":\"a b/cé\"}"}]},
			"two": {"contents": [{"uri": "app://users/ann/posts/7", "mimeType": "text/plain", "text": "ann:7"}]},
			"concreteFirst": {"contents": [{"uri": "app://orders/special", "mimeType": "application/json", "text": "\"concrete\""}]},
			"crossesSlash": -32002, "emptySegment": -32002, "otherScheme": -32002,
			"params": [{"id": "42"}, {"id": "a b/cé"}]}`,
	},
	{
		name: "an unknown uri is -32002 with data.uri in a 2025-11-25 session (that revision's SHOULD)",
		js: `F.resource({uri: 'test://known', name: 'known', value: 1});
const c = await T.connect();
const r = await c.call('resources/read', {uri: 'test://unknown'});
return {
  code: r.error ? r.error.code : r,
  dataUri: r.error && r.error.data ? r.error.data.uri : null,
  hasMessage: !!r.error && typeof r.error.message === 'string' && r.error.message.length > 0,
};`,
		want: `{"code": -32002, "dataUri": "test://unknown", "hasMessage": true}`,
	},
	{
		name: "subscribing to an unknown uri is -32002 with data.uri",
		js: `const c = await T.connect();
const r = await c.call('resources/subscribe', {uri: 'test://unknown'});
return {code: r.error ? r.error.code : r, dataUri: r.error && r.error.data ? r.error.data.uri : null};`,
		want: `{"code": -32002, "dataUri": "test://unknown"}`,
	},
	{
		name: "an unknown method is -32601",
		js: `const c = await T.connect();
const viaClient = await c.call('no/such/method', {});
await c.close();
const s = await T.session();
const num = await s.request('no/such/method', undefined, {id: 77});
const str = await s.request('resources/frobnicate', {}, {id: 'str-id'});
return {
  viaClient: viaClient.error ? viaClient.error.code : viaClient,
  numberId: [num.id, num.error ? num.error.code : num],
  stringId: [str.id, str.error ? str.error.code : str],
  sessionErrors: s.errors,
};`,
		want: `{"viaClient": -32601, "numberId": [77, -32601], "stringId": ["str-id", -32601], "sessionErrors": []}`,
		sdk:  "=",
		mcpb: "=",
	},
	{
		name: "a throwing get is -32603 with its message",
		js: `F.resource({uri: 'test://throws', name: 'throws', get: () => { throw new Error('kaboom 42'); }});
F.resource({uri: 'test://rejects', name: 'rejects', get: async () => { throw new TypeError('async kaboom'); }});
const c = await T.connect();
const a = await c.call('resources/read', {uri: 'test://throws'});
const b = await c.call('resources/read', {uri: 'test://rejects'});
const m = (r, re) => [r.error ? r.error.code : r, !!r.error && re.test(r.error.message)];
return {throws: m(a, /kaboom 42/), rejects: m(b, /async kaboom/), stillServes: await c.call('ping')};`,
		want: `{"throws": [-32603, true], "rejects": [-32603, true], "stillServes": {"result": {}}}`,
	},
	{
		name: "bad params are -32602 (an empty uri is a uri no resource has: -32002)",
		js: `F.resource({uri: 'test://p', name: 'p', value: 1});
const c = await T.connect();
const code = async (method, params) => { const r = await c.call(method, params); return r.error ? r.error.code : 'answered'; };
return {
  readNoParams: await code('resources/read'),
  readNoUri: await code('resources/read', {}),
  readUriNumber: await code('resources/read', {uri: 42}),
  readUriEmpty: await code('resources/read', {uri: ''}),
  listCursorNumber: await code('resources/list', {cursor: 42}),
  subscribeNoUri: await code('resources/subscribe', {}),
  unsubscribeUriNull: await code('resources/unsubscribe', {uri: null}),
  stillServes: await c.call('ping'),
};`,
		want: `{"readNoParams": -32602, "readNoUri": -32602, "readUriNumber": -32602, "readUriEmpty": -32002,
			"listCursorNumber": -32602, "subscribeNoUri": -32602, "unsubscribeUriNull": -32602, "stillServes": {"result": {}}}`,
	},
	{
		// A, A, B: the second A is suppressed by de-duplication
		// (wasm/CONTRACT.md §3.1), so 2 notifications; the first push after
		// subscribe dispatches.
		name: "subscribe: updated only for dispatched pushes; unsubscribe stops them",
		js: `const live = F.resource({uri: 'test://live', name: 'live', value: 'A0'});
const other = F.resource({uri: 'test://other', name: 'other', value: 0});
const c = await T.connect();
const U = 'notifications/resources/updated';
const sub = await c.call('resources/subscribe', {uri: 'test://live'});
const pushes = await M.during(c, U, () => { live.push('A'); live.push('A'); live.push('B'); }, F.supports.dedup ? 2 : 3);
const notSubscribed = await M.during(c, U, () => { other.push(1); other.push(2); }, 0);
const read = await M.read(c, 'test://live');
const unsub = await c.call('resources/unsubscribe', {uri: 'test://live'});
const afterUnsubscribe = await M.during(c, U, () => { live.push('C'); live.push('D'); }, 0);
return {sub, pushes, notSubscribed, read: read.contents ? read.contents[0].text : read, unsub, afterUnsubscribe, errors: c.errors};`,
		want: `{"sub": {"result": {}}, "pushes": [{"uri": "test://live", "_meta": {"modelcontext/revision": 3}}, {"uri": "test://live", "_meta": {"modelcontext/revision": 4}}], "notSubscribed": [],
			"read": "\"B\"", "unsub": {"result": {}}, "afterUnsubscribe": [], "errors": []}`,
		sdk: `{"sub": {"result": {}}, "pushes": [{"uri": "test://live"}, {"uri": "test://live"}, {"uri": "test://live"}], "notSubscribed": [],
			"read": "\"B\"", "unsub": {"result": {}}, "afterUnsubscribe": [], "errors": []}`,
	},
	{
		name: "subscribe: more dispatch sequences",
		js: `const r = F.resource({uri: 'test://seq', name: 'seq', value: null});
const c = await T.connect();
await c.call('resources/subscribe', {uri: 'test://seq'});
const U = 'notifications/resources/updated';
const count = async (values, expect) => (await M.during(c, U, () => { for (const v of values) r.push(v); }, expect)).length;
return {
  AAA: await count(['A', 'A', 'A'], 1),
  thenAgainA: await count(['A'], 0),
  ABA: await count(['B', 'A'], 2),
  ABBC: await count(['B', 'B', 'C'], 2),
  equalObjects: await count([{n: 1}, {n: 1}], 1),
  bytes: await count([new Uint8Array([1]), new Uint8Array([1]), new Uint8Array([2])], 2),
};`,
		// AAA → 1; A again after A → 0; B, A → 2; B, B, C → 2; {n:1} twice → 1; bytes 1, 1, 2 → 2.
		want: `{"AAA": 1, "thenAgainA": 0, "ABA": 2, "ABBC": 2, "equalObjects": 1, "bytes": 2}`,
	},
	{
		name: "subscribe survives a replacement, whose next push always dispatches",
		js: `const a = F.resource({uri: 'test://r', name: 'r', value: 'A'});
const c = await T.connect();
await c.call('resources/subscribe', {uri: 'test://r'});
const U = 'notifications/resources/updated';
const before = await M.during(c, U, () => a.push('A'), 1);
const b = F.resource({uri: 'test://r', name: 'r2', value: 'A'});
const replaced = await M.during(c, U, () => b.push('A'), 1);
const oldHandle = await M.during(c, U, () => a.push('Z'), 0);
return {before: before.length, replaced: replaced.length, oldHandle: oldHandle.length};`,
		want: `{"before": 1, "replaced": 1, "oldHandle": 0}`,
	},
	{
		name: "list_changed on register and unregister",
		js: `F.resource({uri: 'test://first', name: 'first', value: 1});
const c = await T.connect();
// connect() resolves once notifications/initialized is sent; a ping's answer
// shows the server has handled it (before that, it may hold notifications back).
await c.call('ping');
const L = 'notifications/resources/list_changed';
let h;
const onRegister = await M.during(c, L, () => { h = F.resource({uri: 'test://second', name: 'second', value: 2}); }, 1);
const listed = (await M.listAll(c)).items.map((r) => r.uri);
const onUnregister = await M.during(c, L, () => h.unregister(), 1);
const after = (await M.listAll(c)).items.map((r) => r.uri);
const read = await M.read(c, 'test://second');
return {onRegister: onRegister.length, listed, onUnregister: onUnregister.length, after, readAfter: read.error ? 'error' : read};`,
		want: `{"onRegister": 1, "listed": ["test://first", "test://second"], "onUnregister": 1, "after": ["test://first"], "readAfter": "error"}`,
		sdk:  "=",
		mcpb: "=",
	},
}

// The module's exact codes where the reference servers differ are checked by
// the scenarios above; readAfter only says "error" so that it runs there too.

func TestMCPScenarios(t *testing.T) {
	for _, sc := range mcpScenarios {
		t.Run(sc.name, func(t *testing.T) {
			openMCP(t, "/mcp.html").expect(sc.js, sc.want)
		})
	}
}

// mcpContent is the content a read must give: text, or bytes (a blob).
type mcpContent struct {
	mimeType string
	text     string
	bytes    []byte
}

func allBytes() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// mcpBinaryWant is the JSON the binary scenarios return: uri → the read's
// raw contents, with blob as exact base64 (StdEncoding, padded).
func mcpBinaryWant(m map[string]mcpContent) string {
	out := map[string]any{}
	for uri, c := range m {
		item := map[string]any{"uri": uri, "mimeType": c.mimeType}
		if c.bytes != nil {
			item["blob"] = base64.StdEncoding.EncodeToString(c.bytes)
		} else {
			item["text"] = c.text
		}
		out[uri] = []any{item}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// mcpReadRaw reads each uri of the fixture and returns uri → the raw
// contents array (or the error).
const mcpReadRaw = `
const c = await T.connect();
const out = {};
for (const u of uris) {
  const r = await c.call('resources/read', {uri: u});
  out[u] = r.error ? r : r.result.contents;
}
return out;`

const mcpBinaryJS = `const mime = 'application/octet-stream';
const bins = {
  'test://bin/arraybuffer': new Uint8Array([0, 1, 2, 127, 128, 254, 255]).buffer,
  'test://bin/uint8-view': new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5),
  'test://bin/dataview': new DataView(new Uint8Array([7, 7, 4, 5, 6, 7]).buffer, 2, 3),
  'test://bin/int16': new Int16Array([1, -1]),
  'test://bin/float64': new Float64Array([1]),
  'test://bin/blob': new Blob([new Uint8Array([10, 20, 30])]),
  'test://bin/empty': new ArrayBuffer(0),
  'test://bin/all-bytes': Uint8Array.from({length: 256}, (_, i) => i),
  'test://bin/utf8-octets': new TextEncoder().encode('abc'),
};
const uris = Object.keys(bins);
for (const uri of uris) F.resource({uri, name: uri.split('/').pop(), mimeType: mime, value: bins[uri]});
F.resource({uri: 'test://bin/png', name: 'png', mimeType: 'image/png', value: new Uint8Array([0x89, 0x50, 0x4e, 0x47])});
uris.push('test://bin/png');
` + mcpReadRaw

const mcpUTF8JS = `const enc = (s) => new TextEncoder().encode(s);
const cases = {
  'test://utf8/plain-uint8': ['text/plain', enc('grüße ✓')],
  'test://utf8/plain-buffer': ['text/plain', enc('grüße ✓').buffer],
  'test://utf8/plain-dataview': ['text/plain', new DataView(enc('xxview').buffer, 2)],
  'test://utf8/plain-blob': ['text/plain', new Blob(['blob text'], {type: 'text/plain'})],
  'test://utf8/charset': ['text/plain; charset=utf-8', enc('with charset')],
  'test://utf8/json': ['application/json', enc('{"k":[1,2]}')],
  'test://utf8/vnd-json': ['application/vnd.api+json', enc('{"data":null}')],
  'test://utf8/svg': ['image/svg+xml', enc('<svg/>')],
  'test://utf8/javascript': ['application/javascript', enc('let x = 1;')],
  'test://utf8/yaml': ['application/yaml', enc('a: 1')],
  'test://utf8/empty': ['text/plain', new Uint8Array(0)],
  'test://utf8/invalid': ['text/plain', new Uint8Array([0xff, 0xfe, 0x41])],
  'test://utf8/truncated': ['text/plain', new Uint8Array([0x6f, 0x6b, 0xe2, 0x82])],
  'test://utf8/surrogate-bytes': ['text/plain', new Uint8Array([0xed, 0xa0, 0x80])],
};
const uris = Object.keys(cases);
for (const uri of uris) F.resource({uri, name: uri.split('/').pop(), mimeType: cases[uri][0], value: cases[uri][1]});
` + mcpReadRaw

// TestMCPSizeCap: a binary value over maxBytes is an error, not an
// unbounded copy; one at the cap is served. serveMCP({maxBytes}) sets the
// cap; the default is 25 MiB.
func TestMCPSizeCap(t *testing.T) {
	t.Run("maxBytes option", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html")
		p.expect(mcpRequireServe+`
const server = document.modelContext.serveMCP({channel: 'cap', maxBytes: 16});
F.resource({uri: 'test://at-cap', name: 'at', mimeType: 'application/octet-stream', value: new Uint8Array(16).fill(1)});
F.resource({uri: 'test://over-cap', name: 'over', mimeType: 'application/octet-stream', value: new Uint8Array(17).fill(1)});
F.resource({uri: 'test://over-cap-blob', name: 'overblob', mimeType: 'application/octet-stream', value: new Blob([new Uint8Array(17)])});
const c = await T.connect({channel: 'cap'});
const at = await c.call('resources/read', {uri: 'test://at-cap'});
const over = await c.call('resources/read', {uri: 'test://over-cap'});
const overBlob = await c.call('resources/read', {uri: 'test://over-cap-blob'});
const isError = (r) => !!r.error && Number.isInteger(r.error.code) && r.error.message.length > 0;
server.stop();
return {at: at.result ? at.result.contents[0].blob.length : at, over: isError(over), overBlob: isError(overBlob), errors: c.errors};`,
			`{"at": 24, "over": true, "overBlob": true, "errors": []}`)
	})
	t.Run("default 25 MiB", func(t *testing.T) {
		p := openMCP(t, "/mcp.html")
		p.Timeout = 60e9
		p.expect(`F.resource({uri: 'test://huge', name: 'huge', mimeType: 'application/octet-stream', value: new Uint8Array(25 * 1024 * 1024 + 1)});
const c = await T.connect();
const r = await c.call('resources/read', {uri: 'test://huge'}, {timeoutMs: 30000});
return {error: !!r.error && Number.isInteger(r.error.code), stillServes: await c.call('ping')};`,
			`{"error": true, "stillServes": {"result": {}}}`)
	})
}

// mcpRequireServe fails the scenario clearly while serveMCP is missing.
const mcpRequireServe = `if (typeof document.modelContext.serveMCP !== 'function') {
  throw new Error('document.modelContext.serveMCP is not a function (not implemented yet)');
}
`

// TestMCPServeMCP: serveMCP(options) starts a server on a channel, announces
// it unprompted, and stop() ends it with mcp-server-stopped.
func TestMCPServeMCP(t *testing.T) {
	t.Run("a channel of its own, announced once, stopped", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html")
		p.expect(mcpRequireServe+`
const mc = document.modelContext;
const w = T.wire({channel: 'custom'});
const server = mc.serveMCP({channel: 'custom'});
const hasStop = !!server && typeof server.stop === 'function';
// The announcement comes unprompted. The server's answer to a ping posted
// after it is the sentinel: a second announcement would have come first.
await T.waitUntil(() => w.fromServer().includes('mcp-server-ready'), M.patience);
const sentinels = [await M.ping(w, 'sentinel-announced')];
const announced = w.fromServer().filter((p) => p === 'mcp-server-ready').length;
F.resource({uri: 'test://a', name: 'a', value: 1});
const c = await T.connect({channel: 'custom'});
const listed = (await M.listAll(c)).items.map((r) => r.uri);
// Nothing serves mcp-default: what a stock client sends there first goes
// unanswered, as the answer of the server on 'custom' to a later ping shows.
const wd = T.wire();
wd.post('mcp-check-ready');
wd.post({jsonrpc: '2.0', id: 'default-init', method: 'initialize',
  params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'x', version: '1'}}});
sentinels.push(await M.sentinel(c));
const defaultChannel = wd.fromServer().length ? 'answered: ' + JSON.stringify(wd.fromServer()) : 'no server';
let closed = false;
c.client.onclose = () => { closed = true; };
server.stop();
await T.waitUntil(() => w.fromServer().includes('mcp-server-stopped'), M.patience);
await T.waitUntil(() => closed, M.patience);
const secondStop = (() => { try { server.stop(); return 'ok'; } catch (e) { return String(e); } })();
w.post({jsonrpc: '2.0', id: 'after-stop', method: 'ping'});
w.post('mcp-check-ready');
// The stopped server must stay silent: a server on another channel answers
// a ping posted after those two, and message events reach every listener
// in order, so an answer of the stopped server would have come first.
const control = mc.serveMCP({channel: 'control'});
sentinels.push(await M.ping(T.wire({channel: 'control'}), 'sentinel-control'));
control.stop();
return {
  hasStop, announced, listed, defaultChannel,
  stopped: w.fromServer().filter((p) => p === 'mcp-server-stopped').length,
  clientClosed: closed, secondStop,
  answeredAfterStop: w.responsesTo('after-stop').length,
  readyAfterStop: w.fromServer().slice(w.fromServer().indexOf('mcp-server-stopped')).filter((p) => p === 'mcp-server-ready').length,
  sentinels,
};`,
			`{"hasStop": true, "announced": 1, "listed": ["test://a"], "defaultChannel": "no server",
			  "stopped": 1, "clientClosed": true, "secondStop": "ok", "answeredAfterStop": 0, "readyAfterStop": 0,
			  "sentinels": [true, true, true]}`)
	})

	t.Run("pageSize", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html")
		p.expect(mcpRequireServe+`
const server = document.modelContext.serveMCP({channel: 'p7', pageSize: 7});
for (let i = 0; i < 20; i++) F.resource({uri: 'test://p/' + i, name: 'p' + i, value: i});
const c = await T.connect({channel: 'p7'});
const all = await M.listAll(c);
server.stop();
return {pages: all.pages, count: all.items.length, error: all.error ?? null};`,
			`{"pages": [7, 7, 6], "count": 20, "error": null}`)
	})

	t.Run("two servers on two channels", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html")
		p.expect(mcpRequireServe+`
const a = document.modelContext.serveMCP({channel: 'one'});
const b = document.modelContext.serveMCP({channel: 'two', pageSize: 1});
F.resource({uri: 'test://x', name: 'x', value: 1});
F.resource({uri: 'test://y', name: 'y', value: 2});
const c1 = await T.connect({channel: 'one'});
const c2 = await T.connect({channel: 'two'});
const p1 = (await M.listAll(c1)).pages, p2 = (await M.listAll(c2)).pages;
a.stop();
const twoStillServes = await c2.call('ping');
b.stop();
return {p1, p2, twoStillServes, errors: [...c1.errors, ...c2.errors]};`,
			`{"p1": [2], "p2": [1, 1], "twoStillServes": {"result": {}}, "errors": []}`)
	})
}

// TestMCPClientStartsFirst: a client that started before the module (its
// mcp-check-ready unanswered) connects when the server announces itself.
func TestMCPClientStartsFirst(t *testing.T) {
	p := openMCP(t, "/mcp-early.html")
	p.expect(`const r = await window.earlyClient;
if (r.error) return {error: r.error};
const announced = window.earlyWire.seen.filter((e) => e.direction === 'server-to-client' && e.payload === 'mcp-server-ready').length > 0;
return {ping: await r.c.call('ping'), announced};`,
		`{"ping": {"result": {}}, "announced": true}`)
}

// mcpFramesJS embeds two frames, one from another origin (ORIGIN, another
// port on 127.0.0.1) and one from the page's own origin, that post MCP
// requests to this page; their messages come from another window, so the
// server must answer neither, on this window nor on theirs. A request from
// the page itself is answered afterwards.
//
// Silence is proven with sentinels: the server's answer to a ping the page
// posts after the frames' messages (it would have answered them first), and
// each frame's answer to a flush the page posts to it after that (the frame
// reports what it receives in order, so a report of an answer sent to it
// would have come first).
const mcpFramesJS = `F.resource({uri: 'test://secret', name: 'secret', value: 's3cret'});
const w = T.wire({channel: '*'});
const sentinels = [];
const ping = async (id) => sentinels.push(await M.ping(w, id, 'mcp-default'));
await ping('sentinel-start'); // an announcement from the page's start came before its answer
w.seen.length = 0;
const reports = [], sent = [], flushed = [];
window.addEventListener('message', (ev) => {
  const d = ev.data;
  if (d && d.type === 'mcp-frame-report') reports.push(d);
  if (d && d.type === 'mcp-frame-sent') sent.push(d);
  if (d && d.type === 'mcp-frame-flushed') flushed.push(d.tag);
});
const frames = [];
for (const src of [ORIGIN + '/mcp-frame.html?tag=cross', '/mcp-frame.html?tag=same']) {
  const f = document.createElement('iframe');
  f.src = src;
  document.body.appendChild(f);
  frames.push(f);
}
await T.waitUntil(() => sent.length === 2, M.patience);
await ping('sentinel-frames');
for (const f of frames) f.contentWindow.postMessage({type: 'mcp-frame-flush'}, '*');
await T.waitUntil(() => flushed.length === 2, M.patience);
const fromServer = w.seen.filter((e) => e.direction === 'server-to-client').map((e) => e.payload)
  .filter((p) => !(p && typeof p.id === 'string' && p.id.startsWith('sentinel-')));
const fromFrames = w.seen.filter((e) => e.direction === 'client-to-server' && !e.sameWindow).length;
const c = await T.connect();
return {
  framesSent: sent.map((s) => s.tag).sort(),
  crossOrigin: (sent.find((s) => s.tag === 'cross') || {}).origin !== location.origin,
  framesPosted: fromFrames,
  answeredOnPage: fromServer,
  answeredToFrames: reports.filter((r) => r.envelope.direction === 'server-to-client').map((r) => r.tag + ': ' + JSON.stringify(r.envelope.payload)),
  sentinels, flushed: flushed.sort(),
  control: await c.call('ping'),
};`

const mcpFramesWant = `{"framesSent": ["cross", "same"], "crossOrigin": true, "framesPosted": 14,
	"answeredOnPage": [], "answeredToFrames": [], "sentinels": [true, true], "flushed": ["cross", "same"], "control": {"result": {}}}`

// TestMCPOrigins: only messages from the page's own window and an allowed
// origin are answered.
func TestMCPOrigins(t *testing.T) {
	t.Run("frames of another and of the same origin", func(t *testing.T) {
		other := secondOrigin(t)
		p := openMCP(t, "/mcp.html")
		p.expect("const ORIGIN = "+jsString(other.URL)+";\n"+mcpFramesJS, mcpFramesWant)
	})
	t.Run("allowedOrigins without the page's origin", func(t *testing.T) {
		p := openMCP(t, "/mcp-serve.html")
		p.expect(mcpRequireServe+`
const mc = document.modelContext;
const locked = mc.serveMCP({channel: 'locked', allowedOrigins: ['http://127.0.0.1:1', 'https://example.com']});
const open = mc.serveMCP({channel: 'open', allowedOrigins: ['https://example.com', location.origin]});
F.resource({uri: 'test://a', name: 'a', value: 1});
const w = T.wire({channel: 'locked'});
// The client of the open server: its answers are the sentinels. Message
// events reach every listener in order, and the locked server would answer
// a message before the open one answers a later one. Its first answer also
// shows that an announcement of the locked server has come by now.
const c = await T.connect({channel: 'open'});
const mark = w.seen.length;
w.post('mcp-check-ready');
w.post({jsonrpc: '2.0', id: 'locked-init', method: 'initialize',
  params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'x', version: '1'}}});
w.post({jsonrpc: '2.0', id: 'locked-ping', method: 'ping'});
w.post({jsonrpc: '2.0', id: 'locked-discover', method: 'server/discover',
  params: {_meta: {'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}}}});
const sentinels = [await M.sentinel(c)];
// A stock client on the locked channel: once its handshake is on the wire,
// the open server's answer to a later ping shows that nothing answered it.
let viaClient = 'no answer';
T.connect({channel: 'locked', timeoutMs: 60000}).then(() => { viaClient = 'answered'; }, (e) => { viaClient = 'failed: ' + e.message; });
const clientMark = w.seen.length;
await T.waitUntil(() => w.seen.slice(clientMark).some((e) => e.direction === 'client-to-server'), M.patience);
const clientSent = w.seen.slice(clientMark).filter((e) => e.direction === 'client-to-server').map((e) => e.payload);
sentinels.push(await M.sentinel(c));
const answered = w.seen.slice(mark).filter((e) => e.direction === 'server-to-client').map((e) => e.payload);
const r = {answered, clientSent, viaClient, open: await c.call('ping'), sentinels};
locked.stop();
open.stop();
return r;`,
			`{"answered": [], "clientSent": ["mcp-check-ready"], "viaClient": "no answer", "open": {"result": {}}, "sentinels": [true, true]}`)
	})
}

// mcpMalformedJS posts malformed messages on mcp-default, each followed by a
// valid ping (the sentinel: the server answers messages in order, so what it
// answers to the case has come once the ping's answer has), and returns what
// the server sent back for each.
const mcpMalformedJS = `F.resource({uri: 'test://m', name: 'm', value: 1});
const w = T.wire();
const started = await M.ping(w, 'sentinel-start'); // an announcement from the page's start came before its answer
const deep = (() => { let v = 1; for (let i = 0; i < 1000; i++) v = [v]; return v; })();
const cyc = {}; cyc.self = cyc;
const env = (over) => ({channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', ...over});
const cases = [
  ['a string', 'hello'],
  ['the JSON text of a request', '{"jsonrpc":"2.0","id":"m-text","method":"ping"}'],
  ['a number', 42],
  ['null', null],
  ['true', true],
  ['an empty array', []],
  ['a batch', [{jsonrpc: '2.0', id: 'm-batch', method: 'ping'}]],
  ['an empty object', {}],
  ['only jsonrpc', {jsonrpc: '2.0'}],
  ['no method', {jsonrpc: '2.0', id: 'm-nomethod'}],
  ['jsonrpc 1.0', {jsonrpc: '1.0', id: 'm-v1', method: 'ping'}],
  ['jsonrpc 1.0 with a number id', {jsonrpc: '1.0', id: 7, method: 'ping'}],
  ['no jsonrpc', {id: 'm-nojsonrpc', method: 'ping'}, 'lenient'],
  ['an object id', {jsonrpc: '2.0', id: {}, method: 'ping'}],
  ['a boolean id', {jsonrpc: '2.0', id: true, method: 'ping'}],
  ['a NaN id', {jsonrpc: '2.0', id: NaN, method: 'ping'}],
  ['a numeric method', {jsonrpc: '2.0', id: 'm-methodnum', method: 42}],
  ['string params', {jsonrpc: '2.0', id: 'm-paramsstr', method: 'resources/list', params: 'x'}],
  ['string params with a number id', {jsonrpc: '2.0', id: -2.5, method: 'resources/list', params: 'x'}],
  ['array params', {jsonrpc: '2.0', id: 'm-paramsarr', method: 'resources/read', params: ['test://m']}],
  ['deeply nested params', {jsonrpc: '2.0', id: 'm-deep', method: 'resources/list', params: {x: deep}}, 'lenient'],
  ['a huge method name', {jsonrpc: '2.0', id: 'm-huge', method: 'x'.repeat(200000)}],
  ['a lone surrogate', {jsonrpc: '2.0', id: 'm-surrogate', method: '\uD800'}],
  ['a BigInt in params', {jsonrpc: '2.0', id: 'm-bigint', method: 'ping', params: {n: 1n}}, 'lenient'],
  ['a cycle in params', {jsonrpc: '2.0', id: 'm-cycle', method: 'ping', params: cyc}, 'lenient'],
  ['a Map payload', new Map([['jsonrpc', '2.0'], ['id', 'm-map'], ['method', 'ping']])],
  ['an ArrayBuffer payload', new ArrayBuffer(8)],
  ['a response', {jsonrpc: '2.0', id: 'm-resp', result: {}}, 'silent'],
  ['an error response', {jsonrpc: '2.0', id: 'm-errresp', error: {code: 1, message: 'x'}}, 'silent'],
  ['an unknown notification', {jsonrpc: '2.0', method: 'notifications/bogus'}, 'silent'],
  ['an unknown method without id', {jsonrpc: '2.0', method: 'no/such'}, 'silent'],
  ['a request in the server direction', null, 'silent', env({direction: 'server-to-client', payload: {jsonrpc: '2.0', id: 'm-dir', method: 'ping'}})],
  ['another envelope type', null, 'silent', env({type: 'other', payload: {jsonrpc: '2.0', id: 'm-type', method: 'ping'}})],
  ['another channel', null, 'silent', env({channel: 'elsewhere', payload: {jsonrpc: '2.0', id: 'm-chan', method: 'ping'}})],
  ['an envelope without payload', null, 'strict', {channel: 'mcp-default', type: 'mcp', direction: 'client-to-server'}],
  ['an envelope without direction', null, 'silent', {channel: 'mcp-default', type: 'mcp', payload: {jsonrpc: '2.0', id: 'm-nodir', method: 'ping'}}],
  ['a string message', null, 'silent', 'mcp-check-ready'],
  ['a null message', null, 'silent', null],
];
const out = [];
for (let i = 0; i < cases.length; i++) {
  const [name, payload, mode, envelope] = cases[i];
  const sentinel = 'sentinel-' + i;
  const mark = w.seen.length;
  if (envelope !== undefined) window.postMessage(envelope, '*');
  else w.post(payload);
  w.post({jsonrpc: '2.0', id: sentinel, method: 'ping'});
  await w.waitResponse(sentinel, M.patience);
  // What the server sent (not the server-direction envelope the case posted itself).
  const own = envelope && typeof envelope === 'object' ? JSON.stringify(envelope.payload) : undefined;
  const fromServer = w.seen.slice(mark)
    .filter((e) => e.direction === 'server-to-client' && e.sameWindow && (own === undefined || JSON.stringify(e.payload) !== own))
    .map((e) => e.payload);
  out.push({
    name, mode: mode || 'strict',
    // A usable id: a string, or a number JSON can carry.
    id: payload && typeof payload === 'object' && !Array.isArray(payload) &&
      (typeof payload.id === 'string' || Number.isFinite(payload.id)) ? payload.id : null,
    responses: fromServer.filter((p) => !(p && p.id === sentinel)),
    sentinel: fromServer.filter((p) => p && p.id === sentinel).map((p) => 'result' in p ? 'result' : 'error'),
  });
}
const c = await T.connect();
return {
  started,
  cases: out,
  after: (await M.listAll(c)).items.map((r) => r.uri),
  goExited: M.goExited(),
  uncaught: H.uncaught.slice(),
};`

// mcpMalformedCase is what mcpMalformedJS reports for one case.
type mcpMalformedCase struct {
	Name      string
	Mode      string          // strict: a JSON-RPC error (or, without a usable id, nothing); lenient: may also be answered with a result; silent: must not be answered
	ID        json.RawMessage // the request's usable id (a string or a number), or null
	Responses []json.RawMessage
	Sentinel  []string
}

// checkMalformed applies the rules to what mcpMalformedJS returned. A
// request that carries a usable id must get exactly one response carrying
// that id (an error, or for a lenient case a result too); one without a
// usable id gets at most one error, with a null id, or nothing. With
// idsMayGoUnanswered (for a server we did not write, whose transport drops
// what fails its schema before the server sees it) a request with a usable
// id may go unanswered too.
func checkMalformed(t *testing.T, p *mcpPage, raw json.RawMessage, idsMayGoUnanswered bool) {
	t.Helper()
	var got struct {
		Started  bool
		Cases    []mcpMalformedCase
		After    []string
		GoExited bool
		Uncaught []string
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	if !got.Started {
		t.Errorf("the first sentinel ping was not answered\n%s", p.ConsoleText())
	}
	for _, c := range got.Cases {
		t.Logf("%-34s answered: %s", c.Name, joinRaw(c.Responses))
		if len(c.Sentinel) != 1 || c.Sentinel[0] != "result" {
			t.Errorf("%s: the ping that followed got %v, want exactly one result", c.Name, c.Sentinel)
		}
		if c.Mode == "silent" {
			if len(c.Responses) > 0 {
				t.Errorf("%s: must not be answered, got %s", c.Name, joinRaw(c.Responses))
			}
			continue
		}
		wantID := strings.TrimSpace(string(c.ID))
		hasID := wantID != "" && wantID != "null"
		switch {
		case len(c.Responses) > 1:
			t.Errorf("%s: %d responses, want at most one: %s", c.Name, len(c.Responses), joinRaw(c.Responses))
		case len(c.Responses) == 0 && hasID && !idsMayGoUnanswered:
			t.Errorf("%s: no answer; a request with the id %s must get an error carrying it", c.Name, wantID)
		}
		for _, r := range c.Responses {
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Result  json.RawMessage `json:"result"`
				Error   *struct {
					Code    *int   `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(r, &resp); err != nil {
				t.Errorf("%s: the answer is not a JSON-RPC object: %s", c.Name, r)
				continue
			}
			if resp.JSONRPC != "2.0" {
				t.Errorf("%s: answer without jsonrpc \"2.0\": %s", c.Name, r)
			}
			switch {
			case resp.Error != nil:
				if resp.Error.Code == nil || resp.Error.Message == "" {
					t.Errorf("%s: error without an integer code and a message: %s", c.Name, r)
				}
			case resp.Result != nil && c.Mode == "lenient":
			default:
				t.Errorf("%s: want a JSON-RPC error, got %s", c.Name, r)
			}
			id := strings.TrimSpace(string(resp.ID))
			if !hasID {
				wantID = "null"
			}
			if !jsonEqual(id, wantID) {
				t.Errorf("%s: answer id %s, want %s", c.Name, id, wantID)
			}
		}
	}
	if strings.Join(got.After, ",") != "test://m" {
		t.Errorf("after the malformed messages, resources/list gave %v, want [test://m]", got.After)
	}
	if got.GoExited {
		t.Errorf("the Go runtime exited\n%s", p.ConsoleText())
	}
	if len(got.Uncaught) > 0 {
		t.Errorf("uncaught errors in the page: %v", got.Uncaught)
	}
	if t.Failed() {
		t.Logf("%s", p.ConsoleText())
	}
}

// jsonEqual reports whether the JSON texts a and b hold the same value (so
// that a number id matches however it was written).
func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// joinRaw lists messages for a failure or a log line, each cut to 300 bytes
// (one answer names a 200,000-character method).
func joinRaw(rs []json.RawMessage) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
		if len(r) > 300 {
			s[i] = string(r[:300]) + "…"
		}
	}
	return strings.Join(s, ", ")
}

// TestMCPMalformedMessages: malformed messages get a JSON-RPC error or are
// ignored (only when they carry no usable id), and a valid request after each
// is still answered once.
func TestMCPMalformedMessages(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	var raw json.RawMessage
	p.run(mcpMalformedJS, &raw)
	checkMalformed(t, p, raw, false)
}

// TestMCPProtocolVersionPerRequest: the stock client (2025-11-25) and the
// 2026-07-28 revision side by side: the revision is chosen per request by
// _meta["io.modelcontextprotocol/protocolVersion"].
func TestMCPProtocolVersionPerRequest(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`F.resource({uri: 'test://v', name: 'v', mimeType: 'text/plain', value: 'v'});
const c = await T.connect();
const legacy = await c.callRaw('resources/read', {uri: 'test://v'});
const modern = await c.callRaw('resources/read', {uri: 'test://v', _meta: c.meta()});
const pick = (r) => r.result ? {resultType: r.result.resultType ?? null, ttlMs: r.result.ttlMs ?? null, text: r.result.contents[0].text} : r;
return {legacy: pick(legacy), modern: pick(modern)};`,
		`{"legacy": {"resultType": null, "ttlMs": null, "text": "v"}, "modern": {"resultType": "complete", "ttlMs": 0, "text": "v"}}`)
}
