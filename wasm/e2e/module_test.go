package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// moduleResult waits (15 s at most) for the Promise a module page puts in
// window.__moduleResult once its module script has run, and returns what it
// resolves to.
const moduleResult = `(async () => {
  for (const end = Date.now() + 15000; !window.__moduleResult && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  if (!window.__moduleResult) throw new Error('the page set no window.__moduleResult within 15 s');
  return await window.__moduleResult;
})()`

// TestESModuleImport: `import "/static/modelcontext.js"` (a side-effect
// import, no script tag to read attributes from) finds its .wasm beside the
// file, queues early calls and serves them once ready.
func TestESModuleImport(t *testing.T) {
	requireImpl(t, "wasm")
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/module.html"))
	var got struct {
		Ready   bool
		Value   struct{ N int }
		List    []string
		After   int
		Globals []string
	}
	tab.Eval(moduleResult, &got)
	if !got.Ready || got.Value.N != 42 || len(got.List) != 1 || got.List[0] != "state://module" || got.After != 0 {
		t.Errorf("as an ES module: %+v\n%s", got, tab.ConsoleText())
	}
	if got.Globals[0] != "undefined" || got.Globals[1] != "undefined" {
		t.Errorf("globals left behind: Go %s, process %s", got.Globals[0], got.Globals[1])
	}
}

// TestESModuleNamedExports: dist/modelcontext.mjs has the named exports of the
// page API, they are document.modelContext's own members, and a query string
// or hash on the module's URL changes nothing: the .wasm is found beside it.
// With the classic tag on the same page there is one registry and one fetch.
func TestESModuleNamedExports(t *testing.T) {
	requireImpl(t, "wasm")
	for _, query := range []string{"", "?both=1"} {
		t.Run("page"+query, func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Navigate(browsertest.URL(t, "/module-named.html"+query))
			var got struct {
				Names          []string
				SameAsDocument bool
				Value          struct{ N int }
				Pushed         []int
				List           []string
				After          int
				WasmFetches    []string
			}
			tab.Eval(moduleResult, &got)
			want := "changesSince checkResource connectFrame followResource getResourceTemplates getResources readResource ready registerPageResource registerResource registerResourceTools resourceFields resourceKey serveMCP subscribeResource"
			if n := strings.Join(got.Names, " "); n != want {
				t.Errorf("exports: %s\nwant:    %s", n, want)
			}
			if !got.SameAsDocument || got.Value.N != 2 || fmt.Sprint(got.Pushed) != "[1]" || fmt.Sprint(got.List) != "[state://named]" || got.After != 0 {
				t.Errorf("named exports do not work: %+v\n%s", got, tab.ConsoleText())
			}
			if fmt.Sprint(got.WasmFetches) != "[/static/modelcontext.wasm]" {
				t.Errorf(".wasm fetched as %v, want once from /static/modelcontext.wasm", got.WasmFetches)
			}
		})
	}
}

// TestClassicScriptImportedWithQuery: the classic script imported for its side
// effect with a query string and a hash, from a page in a sub-folder, still
// finds the .wasm beside itself.
func TestClassicScriptImportedWithQuery(t *testing.T) {
	requireImpl(t, "wasm")
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/sub/qs.html"))
	var got struct {
		Value       struct{ N int }
		WasmFetches []string
	}
	tab.Eval(moduleResult, &got)
	if got.Value.N != 1 || fmt.Sprint(got.WasmFetches) != "[/static/modelcontext.wasm]" {
		t.Errorf("got %+v\n%s", got, tab.ConsoleText())
	}
}

// TestBlobScriptWithoutDataWasm: a script loaded from a blob: URL has no
// folder for its .wasm to be in; without data-wasm the page is told so, and
// the data-wasm tests cover the other case.
func TestBlobScriptWithoutDataWasm(t *testing.T) {
	requireImpl(t, "wasm")
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/blank.html"))
	var got struct {
		Installed bool
		Without   string
	}
	tab.Eval(`(async () => {
  const code = await (await fetch('/static/modelcontext.js')).text();
  const url = URL.createObjectURL(new Blob([code], {type: 'text/javascript'}));
  const load = (attrs) => new Promise((resolve) => {
    const s = document.createElement('script');
    s.src = url;
    for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
    s.onload = resolve;
    document.head.append(s);
  });
  await load({});
  const mc = document.modelContext;
  const installed = typeof mc.registerResource === 'function';
  const without = await mc.ready.then(() => 'resolved', (e) => e.message);
  return {installed, without};
})()`, &got)
	if !got.Installed || !strings.Contains(got.Without, "cannot tell where modelcontext.wasm is") || !strings.Contains(got.Without, "data-wasm") {
		t.Errorf("got %+v\n%s", got, tab.ConsoleText())
	}
}

// TestESModuleBindingHelpers: the ES module's helpers for framework bindings,
// alone and on a page whose classic script serves (?both=1):
// checkResource throws registerResource's TypeError without registering and
// asks for no get; resourceFields keeps the registered fields in one order;
// followResource follows a uri before it is listed (nothing while it is
// not, as the other resource's push shows), reads it once listed, gets each
// push, and nothing after it stops (a second follower's third value is the
// sentinel).
func TestESModuleBindingHelpers(t *testing.T) {
	requireImpl(t, "wasm")
	for _, query := range []string{"", "?both=1"} {
		t.Run("page"+query, func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Navigate(browsertest.URL(t, "/module-bindings.html"+query))
			var got struct {
				CheckError   string
				Fields       map[string]any
				SameKey      bool
				OtherKey     bool
				BeforeListed []int
				Seen         []int
				Sentinel     []int
				Listed       []string
			}
			tab.Eval(moduleResult, &got)
			if want := `TypeError: modelcontext: registerResource: "name" is required (uri "state://later")`; got.CheckError != want {
				t.Errorf("checkResource: %s\nwant:          %s", got.CheckError, want)
			}
			if fmt.Sprint(got.Fields) != "map[name:later uri:state://later]" || !got.SameKey || !got.OtherKey {
				t.Errorf("resourceFields %v, same key %v, other key differs %v", got.Fields, got.SameKey, got.OtherKey)
			}
			if len(got.BeforeListed) != 0 || fmt.Sprint(got.Seen) != "[1 2]" || fmt.Sprint(got.Sentinel) != "[1 2 3]" {
				t.Errorf("followResource: before listed %v, seen %v (want [1 2]), sentinel %v (want [1 2 3])\n%s", got.BeforeListed, got.Seen, got.Sentinel, tab.ConsoleText())
			}
			if fmt.Sprint(got.Listed) != "[state://other state://later]" {
				t.Errorf("getResources lists %v: checkResource registered something?", got.Listed)
			}
		})
	}
}
