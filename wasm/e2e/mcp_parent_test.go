package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// Serving a parent (CONTRACT.md §6.1): a page in an iframe, with serveMCP's
// parent option or data-mcp-parent, answers a stock client in its parent
// (the TypeScript SDK's Client over @mcp-b/transports' IframeParentTransport)
// when the parent's origin is listed, and nothing else.
//
// The parent is testdata/pages/mcp-parent.html (no module); the child is
// testdata/pages/mcp-child.html, which registers child://count and obeys
// the parent's {type: 'child-command'} messages (see the page).

// otherOrigin starts a second full test server (the module's files, the
// pages and the client bundles) on another port of 127.0.0.1: another
// origin; closed when t ends.
func otherOrigin(t *testing.T) *browsertest.Server {
	t.Helper()
	s := browsertest.NewServer(func(mux *http.ServeMux) { mux.Handle("/out/", mcpOutHandler()) })
	t.Cleanup(s.Close)
	return s
}

// childURL is mcp-child.html on base, serving the parents origins.
func childURL(base string, parents []string, extra ...string) string {
	q := url.Values{}
	for _, p := range parents {
		q.Add("parent", p)
	}
	for _, e := range extra {
		q.Set(e, "1")
	}
	return base + "/mcp-child.html?" + q.Encode()
}

// parentJS gives a scenario in the parent page T (the client bundle),
// frame(src) (an iframe, loaded), command(f, origin, op) (a child command
// and its report), reports (every child report) and seen (every MCP
// envelope a frame posted to this page: {origin, channel, payload}).
const parentJS = `const T = window.mcpTest;
if (!T) throw new Error('testdata/out/mcpclient.js did not load: run make mcpclient');
const reports = [], seen = [];
window.addEventListener('message', (ev) => {
  const d = ev.data;
  if (d && d.type === 'child-report') reports.push(d);
  else if (d && d.type === 'mcp') seen.push({origin: ev.origin, channel: d.channel, payload: d.payload});
});
const frame = async (src) => {
  const f = document.createElement('iframe');
  const loaded = new Promise((r) => f.addEventListener('load', r, {once: true}));
  f.src = src;
  document.body.append(f);
  await loaded;
  return f;
};
const until = async (what, pred) => {
  if (!(await T.waitUntil(pred, T.patience))) throw new Error('waited in vain for ' + what);
};
const command = async (f, origin, op, want = op) => {
  const n = reports.length;
  f.contentWindow.postMessage({type: 'child-command', op}, origin);
  await until('the child\'s report ' + want, () => reports.slice(n).some((r) => r.op === want));
  return reports.slice(n).find((r) => r.op === want);
};
`

// parentClientJS connects a stock client to the child in f (at origin
// CHILD), lists, reads, subscribes, has the child change, and reads again.
const parentClientJS = `const f = await frame(CHILD_URL);
const client = new T.Client({name: 'parent', version: '1.0.0'});
const updates = [];
client.setNotificationHandler(T.sdk.ResourceUpdatedNotificationSchema, async (n) => { updates.push(n.params.uri); });
let closed = false;
client.onclose = () => { closed = true; };
const transport = new T.IframeParentTransport({iframe: f, targetOrigin: CHILD});
await client.connect(transport);
const listed = (await client.listResources()).resources.map((r) => r.uri);
const before = (await client.readResource({uri: 'child://count'})).contents[0].text;
await client.subscribeResource({uri: 'child://count'});
await command(f, CHILD, 'bump');
await until('notifications/resources/updated', () => updates.length > 0);
const after = (await client.readResource({uri: 'child://count'})).contents[0].text;
const targets = [...new Set(seen.map((e) => e.origin))];
`

func TestMCPParent(t *testing.T) {
	requireImpl(t, "wasm")
	requireMCPBundles(t)
	srv := browsertest.SharedServer(t)
	open := func(t *testing.T) *parentPage {
		tab := browsertest.NewTab(t)
		tab.Timeout = 60 * time.Second
		tab.Navigate(srv.URL("/mcp-parent.html"))
		return &parentPage{Tab: tab}
	}
	js := func(child, childURL string, body string) string {
		return "const CHILD = " + jsString(child) + ", CHILD_URL = " + jsString(childURL) + ";\n" + parentJS + body
	}

	for _, tc := range []struct {
		name  string
		child func(t *testing.T) string // the child's origin
		extra []string
	}{
		{"same origin", func(t *testing.T) string { return srv.URL("") }, nil},
		{"cross origin", func(t *testing.T) string { return otherOrigin(t).URL("") }, nil},
		{"data-mcp-parent", func(t *testing.T) string { return otherOrigin(t).URL("") }, []string{"attr"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			child := tc.child(t)
			p := open(t)
			body := parentClientJS + `const own = await command(f, CHILD, 'own');
return {listed, before, after, updates, targets,
  own: {ping: own.ping, list: own.list}, crossOrigin: CHILD !== location.origin, closed};`
			p.expect(js(child, childURL(child, []string{srv.URL("")}, tc.extra...), body),
				`{"listed": ["child://count"], "before": "{\"n\":0}", "after": "{\"n\":1}", "updates": ["child://count"], "targets": [`+jsString(child)+`],
				"own": {"ping": {"result": {}}, "list": ["child://count"]}, "crossOrigin": `+jsonBool(child != srv.URL(""))+`, "closed": false}`)
		})
	}

	// stop() of serveMCP's handle ends both servers: the parent hears
	// "mcp-server-stopped" (its transport closes), and so does the page's own
	// channel.
	t.Run("stop ends both", func(t *testing.T) {
		child := otherOrigin(t).URL("")
		p := open(t)
		p.expect(js(child, childURL(child, []string{"https://unlisted.example", srv.URL("")}), parentClientJS+`await command(f, CHILD, 'own');
await command(f, CHILD, 'stop');
await until('the own channel\'s mcp-server-stopped', () => reports.some((r) => r.op === 'own-stopped'));
await until('mcp-server-stopped from the child', () => seen.some((e) => e.payload === 'mcp-server-stopped'));
await until('the transport to close', () => closed);
return {stopped: seen.filter((e) => e.payload === 'mcp-server-stopped').map((e) => e.channel),
  ownStopped: reports.some((r) => r.op === 'own-stopped'), closed};`),
			`{"stopped": ["mcp-iframe"], "ownStopped": true, "closed": true}`)
	})

	// A parent whose origin is not listed gets nothing, neither the
	// announcement nor an answer, before the module runs or after. The
	// sentinel: a command after its messages has the child ping its own
	// server with a stock client (which starts the module); messages reach
	// the child in order and the child's posts reach the parent in order, so
	// anything the child's server had posted to the parent would have come
	// before that report.
	t.Run("unlisted parent", func(t *testing.T) {
		child := otherOrigin(t).URL("")
		p := open(t)
		p.expect(js(child, childURL(child, []string{"https://shop.example", "http://127.0.0.1:1"}), `const f = await frame(CHILD_URL);
const post = (payload) => f.contentWindow.postMessage({channel: 'mcp-iframe', type: 'mcp', direction: 'client-to-server', payload}, CHILD);
const intrude = () => {
  post('mcp-check-ready');
  post({jsonrpc: '2.0', id: 'init', method: 'initialize',
    params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'unlisted', version: '1'}}});
  post({jsonrpc: '2.0', method: 'notifications/initialized'});
  post({jsonrpc: '2.0', id: 'ping', method: 'ping'});
  post({jsonrpc: '2.0', id: 'list', method: 'resources/list'});
};
intrude(); // before the module runs: it must not start it
const own = [(await command(f, CHILD, 'own')).ping];
intrude(); // while it runs
own.push((await command(f, CHILD, 'own')).ping);
return {seen, own};`),
			`{"seen": [], "own": [{"result": {}}, {"result": {}}]}`)
	})

	// A data-mcp-parent that is not a list of origins is reported with the
	// TypeError (no server starts), and the module works on.
	t.Run("bad data-mcp-parent", func(t *testing.T) {
		child := otherOrigin(t).URL("")
		p := open(t)
		p.expect(js(child, childURL(child, []string{srv.URL("") + "/"}, "attr"), `const f = await frame(CHILD_URL);
const listed = await command(f, CHILD, 'list');
return {list: listed.list, error: listed.error};`), `{"list": ["child://count"]}`)
		if c := p.ConsoleText(); !strings.Contains(c, `TypeError: modelcontext: serveMCP: \"parent\" must be`) && !strings.Contains(c, `TypeError: modelcontext: serveMCP: "parent" must be`) {
			t.Errorf("the bad data-mcp-parent was not reported:\n%s", c)
		}
	})

	// Not in a frame: the page serves no parent and says so in debug mode;
	// a bad parent option is a TypeError naming parent, and so is a second
	// server of the parent while one serves it.
	t.Run("not in a frame, and bad options", func(t *testing.T) {
		tab := browsertest.NewTab(t)
		tab.Timeout = 60 * time.Second
		tab.Navigate(childURL(srv.URL(""), []string{"https://shop.example"}, "debug"))
		p := &page{Tab: tab}
		var got json.RawMessage
		p.Eval(`(async () => {
await document.modelContext.ready;
const errors = [];
for (const parent of [[], ['https://shop.example/'], 'https://shop.example', ['https://Shop.example']]) {
  try { document.modelContext.serveMCP({channel: 'x', parent}).stop(); errors.push('no error'); }
  catch (e) { errors.push(e.name + ': ' + e.message); }
}
const c = await window.mcpTest.connect();
const ping = await c.call('ping');
// One parent server at a time: window.server (the page's) has one.
let second = 'no error';
try { document.modelContext.serveMCP({channel: 'y', parent: ['https://other.example']}); } catch (e) { second = e.name + ': ' + e.message; }
window.server.stop();
document.modelContext.serveMCP({channel: 'y', parent: ['https://other.example']}).stop();
return {errors: [...new Set(errors)], ping, second};
})()`, &got)
		want := `{"errors": ["TypeError: modelcontext: serveMCP: \"parent\" must be a non-empty array of exact origins like \"https://example.com\" (no path, no trailing slash), or [\"*\"]"], "ping": {"result": {}},
			"second": "TypeError: modelcontext: serveMCP: an MCP server already serves the parent window; stop it first, or list all the parent's origins in one serveMCP"}`
		if d := jsonDiff(got, want); d != "" {
			t.Error(d)
		}
		if c := tab.ConsoleText(); !strings.Contains(c, "not in a frame") {
			t.Errorf("no debug line says the page serves no parent:\n%s", c)
		}
	})
}

// parentPage is a tab showing mcp-parent.html.
type parentPage struct{ *browsertest.Tab }

// expect runs body as an async function's and fails the test unless it
// returns the JSON want.
func (p *parentPage) expect(body, want string) {
	p.TB().Helper()
	var got json.RawMessage
	p.Eval("(async () => {\n"+body+"\n})()", &got)
	if d := jsonDiff(got, want); d != "" {
		p.TB().Errorf("%s\n%s", d, p.ConsoleText())
	}
}

func jsonBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
