//go:build unix

package nextjs

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestLazyBootNoHintedWasm: each production build, under `next start`,
// puts no hint or preload of the module's .wasm in its page (Next's own
// preloads of chunks, fonts and styles included). The page has an agent of
// its own (app/agent.tsx reads at load), so the visit points the loader's
// own fetch elsewhere (globalThis.__MODELCONTEXT_WASM_URL__, set before the
// page's scripts) and checks that nothing requested the build's .wasm, in
// Chromium, through the whole visit: past hydration, an idle period and a
// sentinel request.
func TestLazyBootNoHintedWasm(t *testing.T) {
	wasm := frameworktest.InstalledPackage(t, appDir())
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			emitted := frameworktest.BuiltWasm(t, filepath.Join(appDir(), b.distDir, "static"), nil, buildHint)
			origin, _ := startNext(t, b, "start")
			url := frameworktest.Proxy(t, origin, map[string]http.Handler{frameworktest.LoaderWasm: frameworktest.WasmHandler(wasm)})
			tab := browsertest.NewTab(t)
			tab.Timeout = 60 * time.Second
			rec := frameworktest.Record(t, tab)
			frameworktest.RedirectLoader(t, tab)
			frameworktest.CheckNoHintedWasm(t, tab, rec, url+"/", `"list" in JSON.parse(document.getElementById("agent")?.textContent || "{}")`, "/_next/static/"+emitted)
		})
	}
}
