package e2e

import "testing"

// wasm/CONTRACT.md §3 and §6: completion of a template's variables
// (completion/complete) and icons, through the stock SDK client.

// mcpCompleteFixture registers the templates the completion tests complete.
const mcpCompleteFixture = `const mc = document.modelContext;
const seen = [];
const weather = {
  city(value, context) { seen.push({value, context, self: this === weather}); return ['Berlin', 'Bern', 'Bergen', 'Paris'].filter((c) => c.startsWith(value)); },
  country: async (value) => Array.from({length: 150}, (_, i) => value + i),
};
mc.registerResource({uriTemplate: 'weather://{country}/{city}', name: 'weather', get: (p) => p, complete: weather});
delete weather.country; // read once, at registration: completing country below still works
mc.registerResource({uriTemplate: 'plain://{x}', name: 'plain', mimeType: 'text/plain', get: ({x}) => 'plain ' + x});
mc.registerResource({uriTemplate: 'bad://{a}/{b}/{c}/{d}', name: 'bad', get: () => 1, complete: {
  a() { throw new Error('boom'); },
  b: () => Promise.reject(new TypeError('rejected')),
  c: () => new Promise(() => {}),
  d: () => [1, 'x'],
}});
const ref = (uri) => ({type: 'ref/resource', uri});
const arg = (name, value) => ({name, value});
const brief = (x) => x.error ? {code: x.error.code, message: x.error.message} : x.result.completion;
`

// TestMCPCompletion completes template variables through the SDK Client
// (2025-11-25) and raw 2026-07-28 requests: the completer's values, cut at
// 100 with total and hasMore, the capability in initialize and
// server/discover, and every error of §6; a completer that never settles
// times out without holding back a read sent after it.
func TestMCPCompletion(t *testing.T) {
	p := openMCP(t, "/mcp.html?"+testBuild)
	p.expect(mcpCompleteFixture+`
const c = await T.connect();
mc[Symbol.for('modelcontext.internals')].setCompleteTimeout(200);
const r = {};
r.capability = c.client.getServerCapabilities().completions;
r.city = (await c.client.complete({ref: ref('weather://{country}/{city}'), argument: arg('city', 'Ber'), context: {arguments: {country: 'de'}}})).completion;
r.seen = [...seen];
const many = (await c.client.complete({ref: ref('weather://{country}/{city}'), argument: arg('country', 'c')})).completion;
r.country = {n: many.values.length, first: many.values[0], last: many.values[99], total: many.total, hasMore: many.hasMore};
r.noCompleter = brief(await c.call('completion/complete', {ref: ref('plain://{x}'), argument: arg('x', '')}));
r.noVariable = brief(await c.call('completion/complete', {ref: ref('weather://{country}/{city}'), argument: arg('zip', '')}));
r.unknown = brief(await c.call('completion/complete', {ref: ref('nope://{x}'), argument: arg('x', '')}));
r.concrete = brief(await c.call('completion/complete', {ref: ref('plain://1'), argument: arg('x', '')}));
r.prompt = brief(await c.call('completion/complete', {ref: {type: 'ref/prompt', name: 'p'}, argument: arg('x', '')}));
r.threw = brief(await c.call('completion/complete', {ref: ref('bad://{a}/{b}/{c}/{d}'), argument: arg('a', '')}));
r.rejected = brief(await c.call('completion/complete', {ref: ref('bad://{a}/{b}/{c}/{d}'), argument: arg('b', '')}));
r.notStrings = brief(await c.call('completion/complete', {ref: ref('bad://{a}/{b}/{c}/{d}'), argument: arg('d', '')}));
let settled = false;
const pending = c.call('completion/complete', {ref: ref('bad://{a}/{b}/{c}/{d}'), argument: arg('c', '')}).then((x) => { settled = true; return x; });
r.readMeanwhile = (await c.call('resources/read', {uri: 'plain://1'})).result.contents[0].text;
r.pendingDuringRead = !settled;
r.neverSettles = brief(await pending);
r.afterwards = (await c.client.complete({ref: ref('weather://{country}/{city}'), argument: arg('city', 'Pa')})).completion;
const clientErrors = [...c.errors];
await c.close(); // the raw session below shares the channel
const s = await T.session({channel: 'mcp-default'});
const o = {modern: true};
r.discover = (await s.request('server/discover', {}, o)).result.capabilities.completions;
const modern = await s.request('completion/complete', {ref: ref('weather://{country}/{city}'), argument: arg('city', 'Berg')}, o);
r.modern = {completion: modern.result.completion, resultType: modern.result.resultType, valid: T.validate('core.CompleteResultSchema', modern.result)};
r.modernUnknown = (await s.request('completion/complete', {ref: ref('nope://{x}'), argument: arg('x', '')}, o)).error.code;
r.errors = [...clientErrors, ...s.errors];
return r;`, `{
  "capability": {},
  "city": {"values": ["Berlin", "Bern", "Bergen"], "total": 3, "hasMore": false},
  "seen": [{"value": "Ber", "context": {"arguments": {"country": "de"}}, "self": true}],
  "country": {"n": 100, "first": "c0", "last": "c99", "total": 150, "hasMore": true},
  "noCompleter": {"values": [], "total": 0, "hasMore": false},
  "noVariable": {"values": [], "total": 0, "hasMore": false},
  "unknown": {"code": -32602, "message": "MCP error -32602: Invalid params: no resource template \"nope://{x}\" (resources/templates/list lists them)"},
  "concrete": {"code": -32602, "message": "MCP error -32602: Invalid params: no resource template \"plain://1\" (resources/templates/list lists them)"},
  "prompt": {"code": -32602, "message": "MCP error -32602: Invalid params: this server completes \"ref/resource\" only (resource template variables), not \"ref/prompt\""},
  "threw": {"code": -32603, "message": "MCP error -32603: completing \"a\" of \"bad://{a}/{b}/{c}/{d}\" failed: boom"},
  "rejected": {"code": -32603, "message": "MCP error -32603: completing \"b\" of \"bad://{a}/{b}/{c}/{d}\" failed: rejected"},
  "notStrings": {"code": -32603, "message": "MCP error -32603: completing \"d\" of \"bad://{a}/{b}/{c}/{d}\" failed: the completer must return an array of strings (or a Promise of one), got an array with an item that is not a string"},
  "readMeanwhile": "plain 1",
  "pendingDuringRead": true,
  "neverSettles": {"code": -32603, "message": "MCP error -32603: completing \"c\" of \"bad://{a}/{b}/{c}/{d}\" failed: the completer did not answer within 200 ms"},
  "afterwards": {"values": ["Paris"], "total": 1, "hasMore": false},
  "discover": {},
  "modern": {"completion": {"values": ["Bergen"], "total": 1, "hasMore": false}, "resultType": "complete", "valid": null},
  "modernUnknown": -32602,
  "errors": []
}`)
}

// TestIcons: icons are listed as given in getResources,
// getResourceTemplates and both MCP lists on both revisions (a path
// resolved against the document); a bad icon is a TypeError naming icons
// and the uri, and registers nothing.
func TestIcons(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`const mc = document.modelContext;
const icons = [{src: 'https://example.com/cart.png', mimeType: 'image/png', sizes: ['48x48', '96x96'], theme: 'light'}, {src: '/icons/cart.svg'}];
const desc = {uri: 'state://cart', name: 'cart', get: () => 1, icons};
mc.registerResource(desc);
mc.registerResource({uriTemplate: 'app://orders/{id}', name: 'order', get: (p) => p, icons: [{src: 'data:image/png;base64,iVBORw0KGgo=', theme: 'dark'}]});
icons[0].src = 'https://changed.example/';
icons.push({src: 'https://late.example/'});
const resolved = new URL('/icons/cart.svg', location.href).href;
const r = {};
r.resources = mc.getResources()[0].icons;
r.templates = mc.getResourceTemplates()[0].icons;
const c = await T.connect();
r.list = (await c.client.listResources()).resources[0].icons;
r.templateList = (await c.client.listResourceTemplates()).resourceTemplates[0].icons;
const clientErrors = [...c.errors];
await c.close(); // the raw session below shares the channel
const s = await T.session({channel: 'mcp-default'});
r.modernList = (await s.request('resources/list', {}, {modern: true})).result.resources[0].icons;
r.modernTemplates = (await s.request('resources/templates/list', {}, {modern: true})).result.resourceTemplates[0].icons;
const mark = (l) => l.map((i) => i.src === resolved ? {...i, src: 'RESOLVED'} : i);
for (const k of Object.keys(r)) r[k] = mark(r[k]);
const refused = (icons) => {
  try {
    mc.registerResource({uri: 'state://bad', name: 'bad', get: () => 1, icons});
    return 'registered';
  } catch (e) {
    return e.name + ': ' + e.message;
  }
};
r.bad = [
  refused([{src: 'javascript:alert(1)'}]),
  refused([{src: ' JavaScript:alert(1)'}]),
  refused([{src: 'http://example.com/x.png'}]),
  refused([{src: 'ftp://example.com/x.png'}]),
  refused([{}]),
  refused('https://example.com/x.png'),
  refused(['https://example.com/x.png']),
  refused([{src: 'https://example.com/x.png', sizes: '48x48'}]),
  refused([{src: 'https://example.com/x.png', theme: 'blue'}]),
  refused([{src: 'https://example.com/x.png', mimeType: 1}]),
  refused([{get src() { throw new Error('no'); }}]),
];
r.badRegistered = mc.getResources().some((x) => x.uri === 'state://bad');
r.errors = [...clientErrors, ...s.errors];
return r;`, `{
  "resources": [{"src": "https://example.com/cart.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "light"}, {"src": "RESOLVED"}],
  "templates": [{"src": "data:image/png;base64,iVBORw0KGgo=", "theme": "dark"}],
  "list": [{"src": "https://example.com/cart.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "light"}, {"src": "RESOLVED"}],
  "templateList": [{"src": "data:image/png;base64,iVBORw0KGgo=", "theme": "dark"}],
  "modernList": [{"src": "https://example.com/cart.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "light"}, {"src": "RESOLVED"}],
  "modernTemplates": [{"src": "data:image/png;base64,iVBORw0KGgo=", "theme": "dark"}],
  "bad": [
    "TypeError: modelcontext: registerResource: \"icons[0].src\" must be an https: or data: URL, or a path, got \"javascript:alert(1)\" (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].src\" must be an https: or data: URL, or a path, got \" JavaScript:alert(1)\" (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].src\" must be an https: or data: URL, or a path, got \"http://example.com/x.png\" (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].src\" must be an https: or data: URL, or a path, got \"ftp://example.com/x.png\" (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].src\" must be a string, got undefined (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons\" must be an array of {src, mimeType?, sizes?, theme?}, got string (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0]\" must be an object {src, mimeType?, sizes?, theme?}, got string (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].sizes\" must be an array of strings like \"48x48\" or \"any\" (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].theme\" must be \"light\" or \"dark\" (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: \"icons[0].mimeType\" must be a string, got number (uri \"state://bad\")",
    "TypeError: modelcontext: registerResource: reading \"icons[0].src\" threw: no"
  ],
  "badRegistered": false,
  "errors": []
}`)
}

// TestCompleteValidation: complete is for templates, names their variables,
// and holds functions; anything else is a TypeError naming the field and the
// uri, and registers nothing. Its completers are read once.
func TestCompleteValidation(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	p.expect(`const mc = document.modelContext;
const refused = (d) => {
  try {
    mc.registerResource({name: 'n', get: () => 1, ...d});
    return 'registered';
  } catch (e) {
    return e.name + ': ' + e.message;
  }
};
const complete = {id: () => ['1']};
const ok = refused({uriTemplate: 'app://ok/{id}', complete});
complete.id = 5;
return {ok, bad: [
  refused({uri: 'app://concrete', complete: {id: () => []}}),
  refused({uriTemplate: 'app://a/{id}', complete: {zip: () => []}}),
  refused({uriTemplate: 'app://b/{id}', complete: {id: 'x'}}),
  refused({uriTemplate: 'app://c/{id}', complete: [() => []]}),
], templates: mc.getResourceTemplates().map((t) => t.uriTemplate)};`, `{
  "ok": "registered",
  "bad": [
    "TypeError: modelcontext: registerResource: \"complete\" is for templates only: completion offers values of a uriTemplate's {variables} (uri \"app://concrete\")",
    "TypeError: modelcontext: registerResource: \"complete.zip\" names no variable of the template (its variables: id) (uriTemplate \"app://a/{id}\")",
    "TypeError: modelcontext: registerResource: \"complete.id\" must be a function (value, context) => string[], got string (uriTemplate \"app://b/{id}\")",
    "TypeError: modelcontext: registerResource: \"complete\" must be an object of completers, {variable: (value, context) => string[]}, got array (uriTemplate \"app://c/{id}\")"
  ],
  "templates": ["app://ok/{id}"]
}`)
}
