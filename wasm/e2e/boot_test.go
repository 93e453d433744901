package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// Boot: by default (data-boot="lazy") the module fetches no .wasm and starts
// no Go until the first consumer contact; data-boot="eager" starts at once,
// data-boot="idle" in idle time after the load event. Each test proves
// "nothing happened" with harness.js's H.quiet() (after the load event, an
// idle period and a request's round trip) and H.wasmRequests() (the page's
// fetch calls and the browser's resource timing), never with a sleep.

// noWasmYet is the JSON of H.wasmRequests() before any .wasm request.
const noWasmYet = `{"fetched": [], "timed": []}`

// Producers alone fetch nothing: registering, replacing and unregistering
// work (subscribe is called when the module starts), invalid descriptors
// throw, and neither the .wasm nor the loader's runtime is requested.
func TestLazyBootProducersFetchNothing(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got json.RawMessage
		open(t, "wasm", "", "").runRaw(lines(
			`const mc = document.modelContext;`,
			`let subscribed = 0;`,
			`const un = mc.registerResource({uri: 'state://cart', name: 'cart', get: () => ({n: 1}), subscribe: () => { subscribed++; return () => {}; }});`,
			`mc.registerResource({uri: 'state://cart', name: 'cart', get: () => 2});`,
			`const bad = H.error(() => mc.registerResource({uri: 'state://x'}));`,
			`mc.addEventListener('click', () => {});`,
			`await H.quiet();`,
			`const before = H.wasmRequests();`,
			`un();`,
			`return {before, runtime: H.runtimeRequests(), subscribed, bad: bad && bad.name, members: typeof mc.readResource};`,
		), &got)
		if d := jsonDiff(got, `{"before": `+noWasmYet+`, "runtime": [], "subscribed": 0, "bad": "TypeError", "members": "function"}`); d != "" {
			t.Error(d)
		}
	})
}

// Each consumer contact starts the module, and is answered once it runs.
func TestLazyBootTriggers(t *testing.T) {
	register := `document.modelContext.registerResource({uri: 'state://cart', name: 'cart', get: () => ({items: [1]}), subscribe: (f) => { window.push = f; return () => {}; }});`
	cases := []struct {
		name, query, js, want string
	}{
		{"readResource", "", `return await mc.readResource('state://cart');`, `{"items": [1]}`},
		{"getResources", "", `const l = mc.getResources().map((d) => d.uri); await H.wasmFetched; await mc.ready; return l;`, `["state://cart"]`},
		{"getResourceTemplates", "", `const l = mc.getResourceTemplates(); await H.wasmFetched; await mc.ready; return l;`, `[]`},
		{"subscribeResource", "", lines(
			`const got = [];`,
			`mc.subscribeResource('state://cart', (v) => got.push(v));`,
			`await H.wasmFetched; await mc.ready; window.push(); await H.settle();`,
			`return got;`), `[{"items": [1]}]`},
		{"addEventListener resourceupdated", "", lines(
			`const got = [];`,
			`mc.addEventListener('resourceupdated', (e) => got.push(e.detail.uri));`,
			`await H.wasmFetched; await mc.ready; window.push(); await H.settle();`,
			`return got;`), `["state://cart"]`},
		{"addEventListener resourcelistchanged", "", lines(
			`const got = [];`,
			`mc.addEventListener('resourcelistchanged', (e) => got.push(e.detail.resources.length));`,
			`await H.wasmFetched; await mc.ready;`,
			`mc.registerResource({uri: 'state://b', name: 'b', get: () => 1});`,
			`return got;`), `[1, 2]`},
		{"onresourceupdated", "", lines(
			`const got = [];`,
			`mc.onresourceupdated = (e) => got.push(e.detail.value);`,
			`await H.wasmFetched; await mc.ready; window.push(); await H.settle();`,
			`return got;`), `[{"items": [1]}]`},
		{"onresourcelistchanged", "", lines(
			`const got = [];`,
			`mc.onresourcelistchanged = (e) => got.push(e.detail.resources.map((d) => d.uri));`,
			`await H.wasmFetched; await mc.ready;`,
			`mc.registerResource({uri: 'state://b', name: 'b', get: () => 1});`,
			`return got;`), `[["state://cart"], ["state://cart", "state://b"]]`},
		{"await ready", "", `await mc.ready; return await H.wasmFetched !== '';`, `true`},
		{"ready.then", "", `await new Promise((r) => mc.ready.then(r)); return 'ok';`, `"ok"`},
		{"tool execution", "existing=own", lines(
			`mc.registerResourceTools();`,
			`await H.quiet();`,
			`const before = H.wasmRequests().fetched.length;`,
			`const r = await window.__tools.read_resource.execute({uri: 'state://cart'});`,
			`return {before, r: JSON.stringify(r).includes('items')};`), `{"before": 0, "r": true}`},
	}
	wasmOnly(t, func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var got json.RawMessage
				open(t, "wasm", "", c.query).runRaw(lines(
					register,
					`const mc = document.modelContext;`,
					`await H.quiet();`,
					`const before = H.wasmRequests();`,
					`if (before.fetched.length || before.timed.length) return {before};`,
					`return await (async () => {`, c.js, `})();`,
				), &got)
				if d := jsonDiff(got, c.want); d != "" {
					t.Error(d)
				}
			})
		}
	})
}

// An MCP client on a data-mcp page starts the module with its first
// message, whether it started before the module's script (the loader
// announces the server) or after it, and is answered.
func TestLazyBootMCP(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		t.Run("client after", func(t *testing.T) {
			p := openMCP(t, "/mcp.html")
			var got json.RawMessage
			p.Eval(mcpRaw(
				`await H.quiet();`,
				`const before = H.wasmRequests();`,
				`const c = await mcpTest.connect();`,
				`const list = await c.client.listResources();`,
				`return {before, listed: Array.isArray(list.resources)};`,
			), &got)
			if d := jsonDiff(got, `{"before": `+noWasmYet+`, "listed": true}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("client first", func(t *testing.T) {
			p := openMCP(t, "/mcp-early.html")
			var got json.RawMessage
			p.Eval(mcpRaw(
				`const r = await window.earlyClient;`,
				`if (r.error) return {error: r.error};`,
				`const list = await r.c.client.listResources();`,
				`return {listed: Array.isArray(list.resources)};`,
			), &got)
			if d := jsonDiff(got, `{"listed": true}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("a message from another window starts nothing", func(t *testing.T) {
			other := secondOrigin(t)
			p := openMCP(t, "/mcp.html")
			var got json.RawMessage
			p.Eval(mcpRaw(
				`const sentinel = new Promise((r) => window.addEventListener('message', (e) => { if (e.data && e.data.sentinel) r(e.origin); }));`,
				`const f = document.createElement('iframe');`,
				`f.src = `+jsString(other.URL+"/post-parent.html")+`;`,
				`document.body.append(f);`,
				`const from = await sentinel;`,
				`await H.quiet();`,
				`return {otherOrigin: from !== location.origin, requests: H.wasmRequests()};`,
			), &got)
			if d := jsonDiff(got, `{"otherOrigin": true, "requests": `+noWasmYet+`}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("serveMCP then stop before any message", func(t *testing.T) {
			var got json.RawMessage
			open(t, "wasm", "", "").runRaw(lines(
				`const seen = [];`,
				`window.addEventListener('message', (e) => { if (e.data && e.data.channel === 'lazy') seen.push(e.data.payload); });`,
				`const srv = document.modelContext.serveMCP({channel: 'lazy'});`,
				`srv.stop();`,
				`window.postMessage({channel: 'lazy', type: 'mcp', direction: 'client-to-server', payload: 'mcp-check-ready'}, '/');`,
				`await H.quiet();`,
				`return {seen, requests: H.wasmRequests()};`,
			), &got)
			if d := jsonDiff(got, `{"seen": ["mcp-server-ready", "mcp-server-stopped", "mcp-check-ready"], "requests": `+noWasmYet+`}`); d != "" {
				t.Error(d)
			}
		})
	})
}

// data-boot="eager" fetches while the page loads, "idle" after the load
// event, both without any consumer; any other value warns, naming
// data-boot, and boots lazily.
func TestBootModes(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		for _, mode := range []string{"eager", "idle"} {
			t.Run(mode, func(t *testing.T) {
				var got json.RawMessage
				open(t, "wasm", "", "boot="+mode).runRaw(lines(
					`const url = await H.wasmFetched;`,
					`return {url: url.endsWith('/static/modelcontext.wasm'), loadedFirst: document.readyState === 'complete' || `+jsString(mode)+` === 'eager', warnings: H.mine('warn')};`,
				), &got)
				if d := jsonDiff(got, `{"url": true, "loadedFirst": true, "warnings": []}`); d != "" {
					t.Error(d)
				}
			})
		}
		t.Run("unknown", func(t *testing.T) {
			var got json.RawMessage
			open(t, "wasm", "", "boot=soon").runRaw(lines(
				`await H.quiet();`,
				`return {requests: H.wasmRequests(), warnings: H.mine('warn')};`,
			), &got)
			if d := jsonDiff(got, `{"requests": `+noWasmYet+`, "warnings": ["modelcontext: data-boot=\"soon\" is not \"lazy\", \"eager\" or \"idle\"; the module boots lazily, at the first consumer call"]}`); d != "" {
				t.Error(d)
			}
		})
	})
}

// Debug mode says once that the module waits, then why it started.
func TestLazyBootDebug(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got []string
		open(t, "wasm", "", "debug=1").runRaw(lines(
			`await H.quiet();`,
			`const before = H.logs('debug').filter((l) => l.startsWith('[modelcontext]'));`,
			`await document.modelContext.readResource('x://none').catch(() => {});`,
			`return H.logs('debug').filter((l) => l.startsWith('[modelcontext]')).slice(0, before.length + 1);`,
		), &got)
		want := []string{
			"[modelcontext] waiting for an agent: the WebAssembly module starts at the first consumer call, event listener, await of ready or MCP message",
			"[modelcontext] starting the WebAssembly module: readResource was called",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("debug lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// mcpRaw is an MCP page's scenario without mcpPrelude (whose fixture is a
// consumer): H and mcpTest in scope.
func mcpRaw(l ...string) string {
	return "(async () => {\nconst H = window.H, mcpTest = window.mcpTest;\n" + lines(l...) + "\n})()"
}

// The ES module boots the same way: lazily unless __MODELCONTEXT_BOOT__ says
// otherwise before it is imported.
func TestModuleBoot(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		t.Run("lazy", func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Navigate(browsertest.URL(t, "/module-boot.html"))
			var got json.RawMessage
			tab.Eval(`(async () => {
				await H.quiet();
				const before = H.wasmRequests();
				const value = await window.__module.readResource("state://module");
				return {before, value, fetched: H.wasmRequests().fetched.length};
			})()`, &got)
			if d := jsonDiff(got, `{"before": `+noWasmYet+`, "value": {"n": 42}, "fetched": 1}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("eager", func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Navigate(browsertest.URL(t, "/module-boot.html?boot=eager"))
			var got bool
			tab.Eval(`H.wasmFetched.then((url) => url.endsWith("/static/modelcontext.wasm"))`, &got)
			if !got {
				t.Error("the eager module fetched no .wasm")
			}
		})
	})
}

// An agent harness awaits ready through the DevTools protocol
// (Runtime.evaluate with awaitPromise, as Puppeteer's and Playwright's
// page.evaluate do), which never calls its then: reading ready is consumer
// contact, so the module starts and the evaluation settles.
func TestReadingReadyStarts(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		p := open(t, "wasm", "", "")
		var before json.RawMessage
		p.runRaw(lines(
			`document.modelContext.registerResource({uri: 'state://cart', name: 'cart', get: () => ({n: 1})});`,
			`await H.quiet();`,
			`return H.wasmRequests();`,
		), &before)
		if d := jsonDiff(before, noWasmYet); d != "" {
			t.Fatalf("before ready was read: %s", d)
		}
		p.Timeout = 30 * time.Second
		p.Eval(`document.modelContext.ready`, nil) // settles only if reading it started the module
		var got json.RawMessage
		p.Eval(`document.modelContext.revision`, &got)
		if string(got) != "1" {
			t.Errorf("revision after ready = %s, want 1 (the registration replayed)", got)
		}
	})
}
