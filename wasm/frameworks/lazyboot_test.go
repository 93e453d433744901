//go:build unix

package frameworks

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestLazyBootNoHintedWasm: the production builds of vite-react and vite-vue
// put no hint or preload of the module's .wasm in their pages. Their pages
// have an agent of their own (a panel that lists and reads at load), so the
// visit points the loader's own fetch elsewhere
// (globalThis.__MODELCONTEXT_WASM_URL__, set before the page's scripts) and
// checks that nothing requested the build's .wasm, in Chromium, through the
// whole visit: past the load event, an idle period and a sentinel request.
func TestLazyBootNoHintedWasm(t *testing.T) {
	for _, app := range []string{"vite-react", "vite-vue"} {
		for _, page := range []string{"index.html", "readme.html"} {
			t.Run(app+"/"+page, func(t *testing.T) {
				dir := appDir(app)
				wasm := frameworktest.InstalledPackage(t, dir)
				site := filepath.Join(dir, "dist")
				built := builtWasm(t, site)
				mux := http.NewServeMux()
				mux.Handle(frameworktest.LoaderWasm, frameworktest.WasmHandler(wasm))
				mux.Handle("/", http.FileServer(http.Dir(site)))
				srv := httptest.NewServer(browsertest.NoCache(mux))
				t.Cleanup(srv.Close)
				tab := browsertest.NewTab(t)
				tab.Timeout = 60 * time.Second
				rec := frameworktest.Record(t, tab)
				frameworktest.RedirectLoader(t, tab)
				frameworktest.CheckNoHintedWasm(t, tab, rec, srv.URL+"/"+page, `document.querySelector("button") !== null`, built)
			})
		}
	}
}

// builtWasm returns the path on the site of the one .wasm in the build
// output site.
func builtWasm(t *testing.T, site string) string {
	t.Helper()
	const hint = "run `make test-frameworks`, which builds each app"
	found := frameworktest.WasmFiles(t, site, hint)
	if len(found) != 1 {
		t.Fatalf("%s holds the .wasm files %q, want one: %s", site, found, hint)
	}
	return "/" + found[0]
}
