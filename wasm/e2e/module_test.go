package e2e

import (
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestESModuleImport: `import "/static/modelcontext.js"` (a side-effect
// import, no script tag to read attributes from) finds its .wasm beside the
// file, queues early calls and serves them once ready.
func TestESModuleImport(t *testing.T) {
	requireImpl(t, "wasm")
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/module.html"))
	p := &page{Tab: tab, t: t, impl: "wasm"}
	p.runRaw(`for (let i = 0; i < 100 && !window.__moduleResult; i++) await new Promise((r) => setTimeout(r, 20));
return await window.__moduleResult;`, nil)
	var got struct {
		Ready   bool
		Value   struct{ N int }
		List    []string
		After   int
		Globals []string
	}
	p.runRaw(`return await window.__moduleResult;`, &got)
	if !got.Ready || got.Value.N != 42 || len(got.List) != 1 || got.List[0] != "state://module" || got.After != 0 {
		t.Errorf("as an ES module: %+v\n%s", got, tab.ConsoleText())
	}
	if got.Globals[0] != "undefined" || got.Globals[1] != "undefined" {
		t.Errorf("globals left behind: Go %s, process %s", got.Globals[0], got.Globals[1])
	}
}
