package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The classic script is a stub that imports modelcontext-runtime.js from
// beside itself when the module starts. A runtime that is missing, or from
// another build, fails the start as a .wasm that cannot load does: the page
// keeps working, producers still register, ready and the consumers reject
// with an Error that names the runtime's URL and the fix, reported once.
// data-runtime points the script at a runtime elsewhere.
func TestRuntimeMissingOrForeign(t *testing.T) {
	requireImpl(t, "wasm")
	root := browsertest.RepoRoot()
	srv := browsertest.SharedServer(t)
	file := func(path string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, err := os.ReadFile(path)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(b)
		})
	}
	// /lonely/ has the script and no runtime; /foreign/ has the script with
	// the test build's runtime, another build's.
	srv.Handle("/lonely/modelcontext.js", file(filepath.Join(root, "dist", "modelcontext.js")))
	srv.Handle("/foreign/modelcontext.js", file(filepath.Join(root, "dist", "modelcontext.js")))
	srv.Handle("/foreign/modelcontext-runtime.js", file(filepath.Join(root, browsertest.TestBuildDir, "modelcontext-runtime.js")))
	t.Run("data-runtime", func(t *testing.T) {
		srv.Handle("/runtime-elsewhere.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<title>runtime</title>\n<script src=\"/harness.js\"></script>\n"+
				"<script src=\"/lonely/modelcontext.js\" data-wasm=\"/static/modelcontext.wasm\" data-runtime=\"/static/modelcontext-runtime.js\"></script>\n")
		}))
		tab := browsertest.NewTab(t)
		tab.Navigate(browsertest.URL(t, "/runtime-elsewhere.html"))
		evalJSON(t, tab, lines(
			`mc.registerResource({uri: 'state://cart', name: 'cart', get: () => ({n: 1})});`,
			`return {read: await mc.readResource('state://cart'), runtime: H.runtimeRequests().map((u) => new URL(u).pathname), errors: H.mine('error')};`,
		), `{"read": {"n": 1}, "runtime": ["/static/modelcontext-runtime.js"], "errors": []}`)
	})
	for _, c := range []struct{ dir, want string }{
		{"lonely", `modelcontext: could not load the runtime \"http://127.0.0.1:PORT/lonely/modelcontext-runtime.js\"`},
		{"foreign", `modelcontext: \"http://127.0.0.1:PORT/foreign/modelcontext-runtime.js\" is not the runtime of this modelcontext.js (another build)`},
	} {
		t.Run(c.dir, func(t *testing.T) {
			page := "/runtime-" + c.dir + ".html"
			srv.Handle(page, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<title>runtime</title>\n<script src=\"/harness.js\"></script>\n"+
					"<script src=\"/"+c.dir+"/modelcontext.js\" data-wasm=\"/static/modelcontext.wasm\"></script>\n")
			}))
			tab := browsertest.NewTab(t)
			tab.Navigate(browsertest.URL(t, page))
			evalJSON(t, tab, lines(
				`const un = mc.registerResource({uri: 'state://cart', name: 'cart', get: () => 1});`,
				`const port = (e) => e.message.replace(/127\.0\.0\.1:\d+/, '127.0.0.1:PORT');`,
				`const read = await mc.readResource('state://cart').then(() => 'resolved', port);`,
				`const ready = await mc.ready.then(() => 'resolved', (e) => port(e) === read);`,
				`un();`,
				`return {starts: read.startsWith(`+"`"+c.want+"`"+`), fix: read.includes('put modelcontext-runtime.js beside modelcontext.js'), ready,`,
				`  errors: H.mine('error').length, wasm: H.wasmRequests().fetched.length <= 1};`,
			), `{"starts": true, "fix": true, "ready": true, "errors": 1, "wasm": true}`)
		})
	}
}
