//go:build unix

package frameworks

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
				installedPackage(t, dir)
				wasm, err := os.ReadFile(filepath.Join(dir, "node_modules", "modelcontext", "modelcontext.wasm"))
				if err != nil {
					t.Fatal(err)
				}
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
	var found []string
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".wasm") {
			rel, _ := filepath.Rel(site, p)
			found = append(found, "/"+filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil || len(found) != 1 {
		t.Fatalf("%s holds the .wasm files %q (%v), want one: run `make test-frameworks`, which builds each app", site, found, err)
	}
	return found[0]
}
