package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The guards of SECURITY.md on messages: a message from a window the module
// does not serve, or from an origin it does not allow, is dropped before
// anything of it is read; an allowed message over 1 MiB of text is answered
// with -32600 and not copied into Go. Each scenario ends with a round trip
// of the page's own client: the server still answers.

// TestForeignMessagesAreNotRead hands the server's listeners (the loader's,
// before the module runs, and the runtime's) message events
// whose data counts every read of its members: one from another window with
// the page's origin, one from the page's window with another origin. Neither
// is read; the same message from the page's window and origin is (the
// control), and a stock client's ping is answered after them (the sentinel).
func TestForeignMessagesAreNotRead(t *testing.T) {
	p := openMCP(t, "/mcp.html")
	// Not p.expect: its prelude starts the module.
	evalJSON(t, p.Tab, `const T = window.mcpTest;
const frame = document.createElement('iframe');
document.body.append(frame);
// The data counts its reads. Once a client runs, only its payload does: the
// client's own listener reads the envelope of every message, but not the
// payload of a client-to-server one.
const reads = new Set();
const counted = (tag, o) => new Proxy(o, {get(o, k) { reads.add(tag); return o[k]; }});
let client = false;
const spy = (tag) => {
  const payload = counted(tag, {jsonrpc: '2.0', id: tag, method: 'ping'});
  const envelope = {channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload};
  return client ? envelope : counted(tag, envelope);
};
const send = (tag, source, origin) => window.dispatchEvent(new MessageEvent('message', {data: spy(tag), source, origin}));
const foreign = (when) => {
  send('other-window ' + when, frame.contentWindow, location.origin);
  send('other-origin ' + when, window, 'https://evil.example');
  send('no-source ' + when, null, location.origin);
};
foreign('before boot'); // the loader's own listener, before the module runs
await H.settle();
const startedByForeign = H.wasmRequests().fetched.length > 0;
client = true;
const c = await T.connect();
await c.call('ping');
foreign('after boot');
send('control', window, location.origin);
return {read: [...reads], startedByForeign, sentinel: !!(await c.call('ping')).result};`,
		`{"read": ["control"], "startedByForeign": false, "sentinel": true}`)
}

// TestForeignMessagesDoNotGrowMemory: after boot, a cross-origin iframe (a
// sandboxed srcdoc frame, as an ad would be) and an opener (a page of the
// same origin that opened the module's page) post 512 MB in all, in large
// strings shaped as MCP requests. The module's memory does not grow, and
// its own client's read is still answered.
func TestForeignMessagesDoNotGrowMemory(t *testing.T) {
	requireTestBuild(t)
	p := openMCP(t, "/blank.html")
	var got struct {
		Before, After, HeapBefore, HeapAfter float64
		Read, FrameOrigin                    string
		GoExited                             bool
	}
	p.Eval(`(async () => {
const victim = window.open('/mcp.html?`+testBuild+`');
for (let i = 0; !(victim.document && victim.document.readyState === 'complete' && victim.mcpTest); i++) {
  if (i > 600) throw new Error('the page opened did not load');
  await new Promise((r) => setTimeout(r, 50));
}
const vmc = victim.document.modelContext;
vmc.registerResource({uri: 'test://kept', name: 'kept', get: () => 'still here'});
const c = await victim.mcpTest.connect();
const I = vmc[Symbol.for('modelcontext.internals')];
await c.call('resources/read', {uri: 'test://kept'});
const before = I.stats().wasmMemoryBytes;
const heapBefore = victim.performance.memory ? victim.performance.memory.usedJSHeapSize : 0;
// Every message is a resources/read whose uri is a string of 16 MiB.
const request = (i, big) => ({channel: 'mcp-default', type: 'mcp', direction: 'client-to-server',
  payload: {jsonrpc: '2.0', id: i, method: 'resources/read', params: {uri: big + i}}});
// The frame posts 16 of them, then "done" (a window's messages arrive in order).
const frameDone = new Promise((resolve) => victim.addEventListener('message', (ev) => {
  if (ev.data === 'frame-done') resolve(ev.origin);
}));
const frame = victim.document.createElement('iframe');
frame.sandbox = 'allow-scripts';
frame.srcdoc = '<script>const big = "x".repeat(16 << 20); for (let i = 0; i < 16; i++) parent.postMessage(' +
  '{channel: "mcp-default", type: "mcp", direction: "client-to-server", payload: {jsonrpc: "2.0", id: i, method: "resources/read", params: {uri: big + i}}}, "*");' +
  'parent.postMessage("frame-done", "*");</' + 'script>';
victim.document.body.append(frame);
const frameOrigin = await frameDone;
// The opener posts 16 more, then its own "done".
const openerDone = new Promise((resolve) => victim.addEventListener('message', (ev) => {
  if (ev.data === 'opener-done') resolve();
}));
const big = 'y'.repeat(16 << 20);
for (let i = 0; i < 16; i++) victim.postMessage(request(i, big), '*');
victim.postMessage('opener-done', '*');
await openerDone;
const read = await c.call('resources/read', {uri: 'test://kept'});
const out = {before, after: I.stats().wasmMemoryBytes, heapBefore,
  heapAfter: victim.performance.memory ? victim.performance.memory.usedJSHeapSize : 0,
  read: read.result ? read.result.contents[0].text : JSON.stringify(read.error), frameOrigin, goExited: I.goExited};
victim.close();
return out;
})()`, &got)
	t.Logf("wasm memory %.1f → %.1f MiB; JS heap %.1f → %.1f MiB (performance.memory, coarse)",
		got.Before/(1<<20), got.After/(1<<20), got.HeapBefore/(1<<20), got.HeapAfter/(1<<20))
	if got.FrameOrigin != "null" {
		t.Errorf("the frame posted from origin %q, want a cross-origin (opaque) frame", got.FrameOrigin)
	}
	if got.Read != `"still here"` || got.GoExited {
		t.Errorf("after the foreign messages the client read %s (Go exited: %v), want \"still here\"", got.Read, got.GoExited)
	}
	// Wasm memory grows by 64 KiB pages; the module's own read allocates a
	// little. One 16 MiB string copied into Go would grow it by 16 MiB.
	if grew := got.After - got.Before; grew > 1<<20 {
		t.Errorf("512 MiB of foreign messages grew the module's memory by %.1f MiB (%.0f → %.0f bytes)", grew/(1<<20), got.Before, got.After)
	}
}

// TestOversizedRequest: a request from the page's own client with 2 MiB of
// text is answered with -32600 and its id, without being copied into Go;
// the next request is answered as usual.
func TestOversizedRequest(t *testing.T) {
	requireTestBuild(t)
	p := openMCP(t, "/mcp.html?"+testBuild)
	p.expect(`const mc = document.modelContext;
const I = mc[Symbol.for('modelcontext.internals')];
mc.registerResource({uri: 'test://kept', name: 'kept', get: () => 'still here'});
const w = T.wire();
const c = await T.connect();
await c.call('resources/read', {uri: 'test://kept'});
const before = I.stats().wasmMemoryBytes;
const big = 'x'.repeat(2 << 20);
w.post({jsonrpc: '2.0', id: 'big', method: 'resources/read', params: {uri: 'test://' + big}});
const answer = await w.waitResponse('big', M.patience);
w.post(big); // a 2 MiB string as the payload: no id to answer with
w.post({jsonrpc: '2.0', id: 'big-id-' + big, method: 'ping'}); // an id too long to echo
const nulls = [];
await T.waitUntil(() => w.seen.filter((e) => e.direction === 'server-to-client' && e.payload && e.payload.id === null).length >= 2, M.patience);
for (const e of w.seen) if (e.direction === 'server-to-client' && e.payload && e.payload.id === null) nulls.push(e.payload.error.code);
const read = await c.call('resources/read', {uri: 'test://kept'});
return {answer: answer.error, nulls, grewUnder1MiB: I.stats().wasmMemoryBytes - before < (1 << 20), read: read.result.contents[0].text};`,
		`{"answer": {"code": -32600, "message": "modelcontext: the message is over 1 MiB of text; it was not read (send large data in several requests)"},
		"nulls": [-32600, -32600], "grewUnder1MiB": true, "read": "\"still here\""}`)
}

// TestClobberedModelContext holds what SECURITY.md says of DOM clobbering: a
// visitor's <img name="modelContext"> shadows document.modelContext for code
// that looks it up afterwards, but the object taken before it still works,
// and the module's MCP server still answers.
func TestClobberedModelContext(t *testing.T) {
	requireImpl(t, "wasm")
	requireMCPBundles(t)
	clobberOnce.Do(func() {
		browsertest.SharedServer(t).Handle("/clobbered.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `<!doctype html><meta charset="utf-8"><title>clobbered</title>
<script src="/harness.js"></script>
<script src="/out/mcpclient.js"></script>
<script src="/static/modelcontext.js" data-mcp></script>
<script>window.mc = document.modelContext;</script>
<body><div class="review"><img name="modelContext" src="data:,"></div></body>`)
		}))
	})
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(browsertest.URL(t, "/clobbered.html"))
	var got json.RawMessage
	tab.Eval(`(async () => {
const looked = String(document.modelContext);
let lookedUp = null;
try { document.modelContext.registerResource({uri: 'state://x', name: 'x', get: () => 1}); } catch (e) { lookedUp = e.name; }
window.mc.registerResource({uri: 'state://cart', name: 'cart', get: () => ({items: 2})});
const c = await window.mcpTest.connect();
const read = await c.call('resources/read', {uri: 'state://cart'});
return {looked, lookedUp, kept: await window.mc.readResource('state://cart'), mcp: read.result.contents[0].text};
})()`, &got)
	if d := jsonDiff(got, `{"looked": "[object HTMLImageElement]", "lookedUp": "TypeError", "kept": {"items": 2}, "mcp": "{\"items\":2}"}`); d != "" {
		t.Errorf("%s\n%s", d, tab.ConsoleText())
	}
}

var clobberOnce sync.Once
