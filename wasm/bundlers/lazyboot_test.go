//go:build unix

package bundlers

import (
	"bytes"
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

// TestLazyBootNoAgent: a production build's page without an agent fetches
// no .wasm, whatever the bundler put in it (an asset hint, a preload, a
// runtime that fetches assets ahead): the build of src/bare.js (dist-bare/:
// the module imported, a resource registered, nothing consumed), for Vite
// (through the index.html it writes, with its hints), webpack and Parcel.
// Chromium counts the requests up to a sentinel fetched after the load
// event and an idle period; then an agent reads ready and the page fetches
// the build's .wasm, once.
func TestLazyBootNoAgent(t *testing.T) {
	for _, name := range []string{"vite", "webpack", "parcel"} {
		t.Run(name, func(t *testing.T) {
			dir := appDir(name)
			installedPackage(t, dir)
			site := filepath.Join(dir, "dist-bare")
			emitted := frameworktest.BuiltWasm(t, site, nil, buildHint)
			mux := http.NewServeMux()
			mux.Handle("/", http.FileServer(http.Dir(site)))
			if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
				// No HTML of the bundler's own: a page that loads the bundle.
				tag := bareTag(t, site)
				mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					w.Write([]byte("<!doctype html>\n<meta charset=\"utf-8\">\n<title>bare</title>\n" + tag + "\n"))
				})
			}
			srv := httptest.NewServer(browsertest.NoCache(mux))
			t.Cleanup(srv.Close)
			tab, _ := frameworktest.LazyBoot(t, srv.URL+"/", `document.readyState === "complete"`, "/"+emitted, 60*time.Second)
			var listed []string
			tab.Eval(`document.modelContext.getResources().map((r) => r.uri)`, &listed)
			if len(listed) != 1 || listed[0] != "state://bare" {
				t.Errorf("getResources lists %q, want state://bare", listed)
			}
		})
	}
}

// bareTag returns the script tag of the one bundle at the top of site: a
// module script when the bundle is an ES module (it uses import.meta).
func bareTag(t *testing.T, site string) string {
	t.Helper()
	js, _ := filepath.Glob(filepath.Join(site, "*.js"))
	if len(js) != 1 {
		t.Fatalf("%s holds the bundles %q, want one", site, js)
	}
	b, err := os.ReadFile(js[0])
	if err != nil {
		t.Fatal(err)
	}
	typ := ""
	if bytes.Contains(b, []byte("import.meta")) || bytes.Contains(b, []byte("export{")) || bytes.Contains(b, []byte("export {")) {
		typ = ` type="module"`
	}
	return `<script` + typ + ` src="/` + strings.TrimPrefix(filepath.Base(js[0]), "/") + `"></script>`
}
