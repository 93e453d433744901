package relay

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The Model Context panel (js/extension/panel.html) is tested headless as an
// extension page in a tab of a Chromium that has the extension loaded. DevTools
// gives a panel chrome.devtools.inspectedWindow; here devtoolsShim gives the
// panel's tab the same two calls, forwarded through CDP (a Runtime binding
// out of the panel, Runtime.evaluate in the inspected tab, the answer back
// into the panel), so that the panel reaches the page exactly as DevTools
// lets it: by evaluating expressions there.

// devtoolsShim is evaluated in the panel's tab before its scripts run.
const devtoolsShim = `(() => {
  let next = 0;
  const waiting = new Map();
  globalThis.__devtoolsReply = (id, result, exc) => {
    const cb = waiting.get(id);
    waiting.delete(id);
    if (cb) cb(result, exc);
  };
  globalThis.chrome = globalThis.chrome || {};
  chrome.devtools = { inspectedWindow: {
    eval(expr, cb) {
      const id = ++next;
      waiting.set(id, cb || (() => {}));
      __devtoolsEval(JSON.stringify({ id, op: "eval", expr }));
    },
    reload(opts) {
      __devtoolsEval(JSON.stringify({ id: 0, op: "reload", expr: (opts && opts.injectedScript) || "" }));
    },
  } };
})();`

// openPanel opens the panel's page in a new tab of b, inspecting the tab
// inspected, and returns the panel's tab.
func openPanel(t *testing.T, b *extBrowser, inspected *browsertest.Tab) *browsertest.Tab {
	t.Helper()
	panel := b.Tab(t)
	panel.Timeout = timeout
	calls := make(chan string, 256)
	chromedp.ListenTarget(panel.Ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventBindingCalled); ok && e.Name == "__devtoolsEval" {
			calls <- e.Payload
		}
	})
	ctx, cancel := context.WithCancel(panel.Ctx)
	t.Cleanup(cancel)
	// One goroutine answers the calls in order, as DevTools does.
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case payload := <-calls:
				var call struct {
					ID   int    `json:"id"`
					Op   string `json:"op"`
					Expr string `json:"expr"`
				}
				if json.Unmarshal([]byte(payload), &call) != nil {
					continue
				}
				if call.Op == "reload" {
					chromedp.Run(inspected.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
						if _, err := cdppage.AddScriptToEvaluateOnNewDocument(call.Expr).Do(ctx); err != nil {
							return err
						}
						return cdppage.Reload().Do(ctx)
					}))
					continue
				}
				result, exc := "null", "undefined"
				err := chromedp.Run(inspected.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
					res, ex, err := cdpruntime.Evaluate(call.Expr).WithReturnByValue(true).Do(ctx)
					if err != nil {
						return err
					}
					if ex != nil {
						desc := ex.Text
						if ex.Exception != nil {
							desc = ex.Exception.Description
						}
						b, _ := json.Marshal(map[string]any{"isException": true, "value": desc})
						exc = string(b)
					} else if len(res.Value) > 0 {
						result = string(res.Value)
					}
					return nil
				}))
				if err != nil {
					b, _ := json.Marshal(map[string]any{"isError": true, "value": err.Error()})
					exc = string(b)
				}
				chromedp.Run(panel.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
					_, _, err := cdpruntime.Evaluate(fmt.Sprintf("__devtoolsReply(%d, %s, %s)", call.ID, result, exc)).Do(ctx)
					return err
				}))
			}
		}
	}()
	err := chromedp.Run(panel.Ctx,
		emulation.SetDeviceMetricsOverride(1100, 760, 1, false),
		cdpruntime.AddBinding("__devtoolsEval"),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := cdppage.AddScriptToEvaluateOnNewDocument(devtoolsShim).Do(ctx)
			return err
		}))
	if err != nil {
		t.Fatal(err)
	}
	panel.Navigate("chrome-extension://" + ExtensionID + "/panel.html")
	return panel
}

// testDemoDist is a folder with dist/'s files and the test build's scripts
// (make build-test) in place of the module's, so that the demo page has
// the internals (js/testhooks).
func testDemoDist(t *testing.T) string {
	t.Helper()
	root := browsertest.RepoRoot()
	dir := t.TempDir()
	entries, err := os.ReadDir(filepath.Join(root, "dist"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src := filepath.Join(root, "dist", e.Name())
		if _, err := os.Stat(filepath.Join(root, ".cache", "testdist", e.Name())); err == nil {
			src = filepath.Join(root, ".cache", "testdist", e.Name())
		}
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".cache", "testdist", "modelcontext.js")); err != nil {
		t.Fatal(".cache/testdist/modelcontext.js missing: run make build-test")
	}
	return dir
}

// waitFor waits until cond (JavaScript) holds in tab, and fails showing
// what the tab shows otherwise.
func waitFor(tab *browsertest.Tab, what, cond string) {
	tab.TB().Helper()
	err := tab.TryEval(`(async () => { for (;;) { if (`+cond+`) return true; await new Promise((r) => setTimeout(r, 20)); } })()`, nil)
	if err != nil {
		var text string
		tab.TryEval(`document.body.innerText`, &text)
		tab.TB().Fatalf("%s: %v\nthe panel shows:\n%s", what, err, text)
	}
}

// windowListeners counts the event listeners on the window of tab.
func windowListeners(t *testing.T, tab *browsertest.Tab) int {
	t.Helper()
	var n int
	err := chromedp.Run(tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		w, _, err := cdpruntime.Evaluate("window").Do(ctx)
		if err != nil {
			return err
		}
		ls, err := domdebugger.GetEventListeners(w.ObjectID).Do(ctx)
		n = len(ls)
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// timelineHas is a condition on the panel: an event of the timeline whose
// data-type (and data-outcome, if not empty) match holds every text.
func timelineHas(typ, outcome string, texts ...string) string {
	sel := `#events li[data-type="` + typ + `"]`
	if outcome != "" {
		sel += `[data-outcome="` + outcome + `"]`
	}
	q, _ := json.Marshal(texts)
	return fmt.Sprintf(`[...document.querySelectorAll(%q)].some((li) => %s.every((s) => li.textContent.includes(s)))`, sel, q)
}

// TestDevToolsPanel opens the Model Context panel on the demo shop (served
// with the test build) and checks what it shows: the demo's resources, a
// push after an item is added by hand, a suppressed push beside the last
// dispatched value, values that JSON cannot show, an MCP client's read with
// its revision; and that a second tab of the demo, which no panel inspects,
// gets nothing: no script, no listener, no event.
func TestDevToolsPanel(t *testing.T) {
	b := newExtBrowser(t)
	demo := serveDemoWith(t, testDemoDist(t))

	// The tab no one inspects: a getter on the hook's global counts who
	// looks for it (the loader, once, when it runs).
	other := b.Tab(t)
	other.Timeout = timeout
	if err := chromedp.Run(other.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(`window.__hookLooks = 0;
Object.defineProperty(globalThis, "__MODELCONTEXT_DEVTOOLS_HOOK__", { get() { window.__hookLooks++; return undefined; }, configurable: true });`).Do(ctx)
		return err
	})); err != nil {
		t.Fatal(err)
	}
	other.Navigate(demo + "?not-inspected")
	waitFor(other, "the uninspected demo boots", `document.modelContext.getResources().length > 0`)
	otherListeners := windowListeners(t, other)

	inspected := b.Tab(t)
	inspected.Timeout = timeout
	inspected.Navigate(demo)
	waitFor(inspected, "the demo boots", `document.modelContext.getResources().length > 0`)
	const internals = `document.modelContext[Symbol.for("modelcontext.internals")]`
	var inspecting bool
	inspected.Eval(internals+`.inspecting`, &inspecting)
	if inspecting {
		t.Fatal("the demo is inspected before the panel opened")
	}

	panel := openPanel(t, b, inspected)
	waitFor(panel, "the panel lists the demo's cart", `document.querySelector('#resources [data-uri="state://cart"]')`)
	inspected.Eval(internals+`.inspecting`, &inspecting)
	if !inspecting {
		t.Error("the panel is open but the demo's inspection channel has no hook")
	}
	// The demo connects a frame's resources after it boots: the panel
	// follows its list until both agree.
	for deadline := time.Now().Add(timeout); ; {
		var listed, resources []string
		panel.Eval(`[...document.querySelectorAll("#resources [data-uri]")].map((a) => a.dataset.uri).sort()`, &listed)
		inspected.Eval(`[...document.modelContext.getResources(), ...document.modelContext.getResourceTemplates()].map((r) => r.uri || r.uriTemplate).sort()`, &resources)
		if strings.Join(listed, " ") == strings.Join(resources, " ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the panel lists %v, the demo %v", listed, resources)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The slot picker's resource names its frame: the iframe, its src and
	// the origin the demo gave connectFrame.
	origin := strings.TrimSuffix(demo, "/")
	waitFor(panel, "the frame of courier://slot", fmt.Sprintf(`(() => { const f = document.querySelector('#resources [data-uri="courier://slot"] .frame');
  return f !== null && f.textContent === %q; })()`, "iframe#slot-picker · "+origin+"/slots.html · origin "+origin))

	// A push after an item is added by hand, and the cart's value as it arrived.
	inspected.Eval(`document.querySelector('[data-action="add-to-cart"]').click()`, nil)
	waitFor(panel, "a dispatched push of the cart", timelineHas("push", "dispatched", "state://cart", "bytes"))
	waitFor(panel, "the cart's new value", `document.querySelector('#resources [data-uri="state://cart"] .value').textContent.includes('"count": 1')`)

	// A suppressed push, beside the last dispatched value.
	inspected.Eval(`document.modelContext.registerResource({ uri: "test://same", name: "same", get: () => ({ a: 1 }),
  subscribe(on) { window.pokeSame = on; return () => {}; } }); pokeSame(); pokeSame();`, nil)
	waitFor(panel, "a suppressed push beside the last dispatched one", timelineHas("push", "suppressed", "test://same", "last dispatched", "this push (unchanged)", `"a": 1`))

	// Values JSON cannot show, and a getter that throws: shown as what they
	// are; the page goes on.
	inspected.Eval(`(() => {
  const circular = { name: "loop" };
  circular.self = circular;
  const trap = { ok: 1 };
  Object.defineProperty(trap, "bad", { enumerable: true, get() { throw new Error("no reading this"); } });
  const values = [circular, trap, new Uint8Array([1, 2, 3, 4]), "x".repeat(300000)];
  let i = 0, fail = false;
  document.modelContext.registerResource({ uri: "test://odd", name: "odd",
    get: () => { if (fail) throw new Error("get failed on purpose"); return values[i]; },
    subscribe(on) { window.pokeOdd = (n) => { if (n < 0) fail = true; else i = n; on(); }; return () => {}; } });
  for (let n = 0; n < values.length; n++) pokeOdd(n);
  pokeOdd(-1);
})()`, nil)
	waitFor(panel, "a circular value", timelineHas("push", "failed open", "test://odd", "[circular reference]"))
	waitFor(panel, "a throwing getter", timelineHas("push", "", "test://odd", "[getter threw: Error: no reading this]"))
	waitFor(panel, "binary", timelineHas("push", "dispatched", "test://odd", "Uint8Array, 4 bytes: 01 02 03 04"))
	waitFor(panel, "a huge string", timelineHas("push", "dispatched", "test://odd", "(300000 characters)", "300002 bytes"))
	waitFor(panel, "a get that threw", timelineHas("push", "get threw", "test://odd", "get failed on purpose"))
	var still int
	inspected.Eval(`document.modelContext.getResources().length`, &still)
	if still == 0 {
		t.Error("the demo lost its resources")
	}

	// An MCP client's read, with its revision (2026-07-28: per request).
	inspected.Eval(`window.postMessage({ channel: "mcp-default", type: "mcp", direction: "client-to-server", payload: { jsonrpc: "2.0", id: 7,
  method: "resources/read", params: { uri: "state://cart", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } } }, location.origin)`, nil)
	waitFor(panel, "an MCP client's read", timelineHas("mcp", "", "resources/read state://cart", "revision 2026-07-28", "MCP client "+strings.TrimSuffix(demo, "/")))
	panel.Eval(`document.querySelector('[data-view="agents"]').click()`, nil)
	waitFor(panel, "the client in Agents", `document.querySelector("#agents table") && document.querySelector("#agents table").textContent.includes("2026-07-28")`)

	// "Read now", as a consumer read by the panel.
	panel.Eval(`document.querySelector('[data-view="resources"]').click(); document.querySelector('#resources [data-uri="page://location"] .read, #resources [data-uri="state://cart"] .read').click()`, nil)
	waitFor(panel, "the panel's read", timelineHas("read", "", "read by this panel"))

	// The demo's own agent panel shows what it reads with the panel's tree
	// (js/extension/jsontree.js, served at /jsontree.js).
	inspected.Eval(`document.querySelector('#resource-list li[data-uri="state://cart"] [data-action="read"]').click()`, nil)
	waitFor(inspected, "the demo's read of the cart, as a tree", `(() => { const v = document.querySelector('#resource-list li[data-uri="state://cart"] .res-value');
  return v !== null && v.querySelector(".jt details") !== null && v.textContent.includes('"count": 1'); })()`)

	screenshot(t, panel, "devtools-panel-resources.png")
	panel.Eval(`document.querySelector('[data-view="timeline"]').click()`, nil)
	screenshot(t, panel, "devtools-panel-timeline.png")

	// The tab no one inspects: no script injected (the hook's global was
	// never defined there, only looked for once by the loader), no event
	// made (no hook listens), no listener added; and it still works.
	other.Eval(`document.querySelector('[data-action="add-to-cart"]').click()`, nil)
	waitFor(other, "the uninspected cart", `document.modelContext.readResource("state://cart").then((c) => c.count === 1)`)
	var looks int
	other.Eval(`window.__hookLooks`, &looks)
	if looks != 1 {
		t.Errorf("the uninspected tab looked for the hook %d times, want 1 (the loader, when it ran)", looks)
	}
	other.Eval(internals+`.inspecting`, &inspecting)
	if inspecting {
		t.Error("the uninspected tab has a hook")
	}
	var defined bool
	other.Eval(`Object.getOwnPropertyDescriptor(globalThis, "__MODELCONTEXT_DEVTOOLS_HOOK__").get !== undefined && !("value" in Object.getOwnPropertyDescriptor(globalThis, "__MODELCONTEXT_DEVTOOLS_HOOK__"))`, &defined)
	if !defined {
		t.Error("the hook's global of the uninspected tab was replaced")
	}
	if n := windowListeners(t, other); n != otherListeners {
		t.Errorf("the uninspected tab's window has %d event listeners, %d before the panel ran", n, otherListeners)
	}

	// "Record from load": the panel reloads the page with the hook injected
	// before its scripts and shows boot.
	panel.Eval(`document.getElementById("record").click()`, nil)
	waitFor(panel, "boot, recorded from load", timelineHas("boot", "", "booted"))
	waitFor(panel, "the cart after the reload", `document.querySelector('#resources [data-uri="state://cart"]')`)
}

// TestDevToolsPanelToolRead: on Chromium's own WebMCP, an agent calls the
// resource tools of the demo (registerResourceTools' list_resources and
// read_resource, through getTools and executeTool, as an agent of the
// browser does); the panel shows the read as a tool's, not as an in-page
// consumer's, and the list call as a tool call. A read by the page itself
// right after is an in-page consumer's.
func TestDevToolsPanelToolRead(t *testing.T) {
	b := newExtBrowser(t, "WebMCP")
	demo := serveDemoWith(t, testDemoDist(t))
	inspected := b.Tab(t)
	inspected.Timeout = timeout
	inspected.Navigate(demo)
	waitFor(inspected, "the demo boots", `document.modelContext.getResources().length > 0`)
	var native bool
	inspected.Eval(`typeof ModelContext === "function" && document.modelContext instanceof ModelContext && /\[native code\]/.test(String(ModelContext.prototype.registerTool))`, &native)
	if !native {
		t.Fatal("this Chromium has no WebMCP of its own with --enable-features=WebMCP")
	}
	panel := openPanel(t, b, inspected)
	waitFor(panel, "the panel lists the demo's cart", `document.querySelector('#resources [data-uri="state://cart"]')`)
	waitFor(panel, "the tool bridge's state", `document.querySelector("#agents .tools").textContent.includes("registerTool is on the page")`)

	// A resource only this test reads: its reads on the timeline are the
	// tool's and the page's below, in that order.
	var answer struct {
		Listed bool
		Value  map[string]any
	}
	inspected.Eval(`(async () => {
  const mc = document.modelContext;
  mc.registerResource({ uri: "test://tool", name: "tool", get: () => ({ read: true }) });
  mc.registerResourceTools();
  const call = async (name, input) => {
    for (;;) {
      const tool = (await mc.getTools()).find((t) => t.name === name);
      if (tool) return JSON.parse(await mc.executeTool(tool, input));
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const list = await call("list_resources", {});
  const value = await call("read_resource", { uri: "test://tool" });
  await mc.readResource("test://tool");
  return { listed: list.some((r) => r.uri === "test://tool"), value };
})()`, &answer)
	if !answer.Listed || answer.Value["read"] != true {
		t.Fatalf("the tools answered %+v", answer)
	}
	waitFor(panel, "the tool's list call", `[...document.querySelectorAll('#events li[data-type="tool"]')].some((li) => li.textContent.includes("list_resources · called by an agent through the browser's WebMCP"))`)
	waitFor(panel, "the tool's read", `[...document.querySelectorAll('#events li[data-type="read"][data-by="tool"]')].some((li) => li.textContent.includes("test://tool · read by a tool: read_resource, called through the browser's WebMCP"))`)
	waitFor(panel, "the page's own read after it", `[...document.querySelectorAll('#events li[data-type="read"][data-by="page"]')].some((li) => li.textContent.includes("test://tool · read by an in-page consumer"))`)
	var reads []string
	panel.Eval(`[...document.querySelectorAll('#events li[data-type="read"]')].filter((li) => li.textContent.includes("test://tool ")).map((li) => li.dataset.by)`, &reads)
	if strings.Join(reads, " ") != "tool page" {
		t.Errorf("the timeline's reads of test://tool are by %v, want [tool page]", reads)
	}
}

// TestDevToolsPanelWithoutModule: on a page without the module, the panel
// says so.
func TestDevToolsPanelWithoutModule(t *testing.T) {
	b := newExtBrowser(t)
	page := b.page("/pages/blank.html")
	panel := openPanel(t, b, page.Tab)
	waitFor(panel, "no module", `document.querySelector("#resources").textContent.includes("does not use the modelcontext module")`)
}

// screenshot writes the panel's tab as name into DEVTOOLS_SCREENSHOT_DIR
// (make devtools-screenshot: testdata/screenshots), or the test's temporary
// folder.
func screenshot(t *testing.T, tab *browsertest.Tab, name string) {
	t.Helper()
	dir := os.Getenv("DEVTOOLS_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	var png []byte
	if err := chromedp.Run(tab.Ctx, chromedp.CaptureScreenshot(&png)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", filepath.Join(dir, name))
}

// serveDemoWith serves the demo shop as serveDemo does, with dist as the
// module's folder (/static/).
func serveDemoWith(t *testing.T, dist string) string {
	t.Helper()
	root := browsertest.RepoRoot()
	bin := filepath.Join(t.TempDir(), "serve")
	build := exec.Command("go", "build", "-o", bin, "./wasm/cmd/serve")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./wasm/cmd/serve: %v\n%s", err, out)
	}
	serve := exec.Command(bin, "-addr", "127.0.0.1:0", "-demo", filepath.Join(root, "demo"), "-dist", dist)
	out, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	demo, ok := strings.CutPrefix(strings.TrimSpace(line), "demo: ")
	if err != nil || !ok {
		t.Fatalf("serve printed %q (%v)", line, err)
	}
	return demo
}
