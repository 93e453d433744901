package e2e

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// When the ES module cannot fetch its .wasm, the error says what happened:
// a bundler emitted the file under a name of its own ("your bundler emitted
// the module's .wasm as ..."), Vite's dependency pre-bundler moved the
// module away from it, or no bundler emitted it and the module looked
// beside itself; and it names the framework the page shows (Angular's
// ng-version, Nuxt's __NUXT__, Next.js's __NEXT_DATA__, Vite's
// /@vite/client) with its fix.
//
// /hint/<case>/page.html is a page that imports dist/'s ES module as the
// case's build would leave it, with the case's framework marks, and
// nothing serves a .wasm under /hint/ (404), but for the case "spa", whose
// server answers every missing file with its index page, as single-page
// apps' servers do.
var hintOnce sync.Once

// hintCases: the module's path under /hint/<case>/, and the page's marks.
var hintCases = map[string]struct{ module, marks string }{
	"plain":   {module: "modelcontext.mjs"},
	"angular": {module: "modelcontext.mjs", marks: `<app-root ng-version="22.2.6"></app-root>`},
	"nuxt":    {module: "modelcontext.mjs", marks: `<script>window.__NUXT__ = {};</script>`},
	"next":    {module: "modelcontext.mjs", marks: `<script>self.__NEXT_DATA__ = {};</script>`},
	"vite":    {module: "modelcontext.mjs", marks: `<script type="module" src="/hint/vite/@vite/client"></script>`},
	// A bundler that emitted the file: its URL in the module, rewritten.
	"bundled":       {module: "assets/index-abc123.js"},
	"bundled-nuxt":  {module: "_nuxt/entry.js", marks: `<script>window.__NUXT__ = {};</script>`},
	"prebundled":    {module: "node_modules/.vite/deps/modelcontext.js"},
	"prebundled-nx": {module: "_nuxt/@fs/app/node_modules/.cache/vite/client/deps/modelcontext.js", marks: `<script>window.__NUXT__ = {};</script>`},
	"spa":           {module: "main-abc123.js", marks: `<app-root ng-version="22.2.6"></app-root>`},
}

func serveHints(t *testing.T) {
	requireImpl(t, "wasm")
	mjs := filepath.Join(browsertest.RepoRoot(), "dist", "modelcontext.mjs")
	hintOnce.Do(func() {
		browsertest.SharedServer(t).Handle("/hint/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			name, file, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/hint/"), "/")
			c, ok := hintCases[name]
			w.Header().Set("Cache-Control", "no-store")
			switch {
			case !ok:
				http.NotFound(w, r)
			case file == "page.html":
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte(`<!doctype html><meta charset="utf-8"><title>hint</title>` + c.marks +
					`<script type="module">import * as mc from "/hint/` + name + `/` + c.module + `"; window.mc = mc;</script>`))
			case file == "@vite/client":
				w.Header().Set("Content-Type", "text/javascript")
			case file == c.module:
				b, err := os.ReadFile(mjs)
				if err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
				if strings.HasPrefix(name, "bundled") {
					b = bytes.Replace(b, []byte(`new URL("modelcontext.wasm",import.meta.url)`), []byte(`new URL("modelcontext-abc123.wasm",import.meta.url)`), 1)
				}
				w.Header().Set("Content-Type", "text/javascript")
				w.Write(b)
			case name == "spa":
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte(`<!doctype html><title>index</title><app-root></app-root>`))
			default:
				http.NotFound(w, r)
			}
		}))
	})
}

func TestLoadingHint(t *testing.T) {
	cases := []struct {
		name    string
		mention []string
		not     []string
	}{
		{"plain", []string{`/hint/plain/modelcontext.wasm": HTTP 404`,
			"no bundler emitted the module's .wasm, so the module looked for it beside itself;",
			"copy node_modules/modelcontext/modelcontext.wasm there, beside the bundle", "__MODELCONTEXT_WASM_URL__"},
			[]string{"your bundler emitted", "the page runs"}},
		{"angular", []string{"/hint/angular/modelcontext.wasm", "HTTP 404", "no bundler emitted", "(the page runs Angular 22.2.6)",
			`Angular's application builder (17.1 and later) emits it`, `{"glob": "modelcontext.wasm", "input": "node_modules/modelcontext", "output": "/"}`, "angular.json"},
			[]string{"your bundler emitted"}},
		{"nuxt", []string{"no bundler emitted", "(the page runs Nuxt)", `add "modelcontext/nuxt" to the modules of nuxt.config`}, nil},
		{"next", []string{"no bundler emitted", "(the page runs Next.js)", "Next.js emits it when a component imports the package"}, []string{"esbuild"}},
		{"vite", []string{"no bundler emitted", "(the page runs Vite's dev server)", "server.fs.allow"}, []string{"esbuild"}},
		{"bundled", []string{`your bundler emitted the module's .wasm as "http://`, `/hint/bundled/assets/modelcontext-abc123.wasm"`, "HTTP 404",
			"serve that file with the rest of the build", "__MODELCONTEXT_WASM_URL__"},
			[]string{"no bundler emitted", "the page runs"}},
		{"bundled-nuxt", []string{"your bundler emitted", "/hint/bundled-nuxt/_nuxt/modelcontext-abc123.wasm", "(the page runs Nuxt)"}, nil},
		{"prebundled", []string{"/hint/prebundled/node_modules/.vite/deps/modelcontext.wasm", "HTTP 404",
			"Vite's dependency pre-bundler moved the module away from its .wasm:", `add optimizeDeps: { exclude: ["modelcontext"] } to the Vite config`},
			[]string{"your bundler emitted", "no bundler emitted"}},
		{"prebundled-nx", []string{"Vite's dependency pre-bundler moved the module away from its .wasm (the page runs Nuxt):",
			`add "modelcontext/nuxt" to the modules of nuxt.config`}, []string{"optimizeDeps"}},
		{"spa", []string{"/hint/spa/modelcontext.wasm", "is missing: the server answered with an HTML page", "(the page runs Angular 22.2.6)", "angular.json"},
			[]string{"HTTP 404"}},
	}
	wasmOnly(t, func(t *testing.T) {
		serveHints(t)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				tab := browsertest.NewTab(t)
				tab.Navigate(browsertest.URL(t, "/hint/"+c.name+"/page.html"))
				// The first consumer call starts the module; its failure is
				// the call's rejection.
				var got struct {
					Message string
					Wasm    []string
				}
				tab.Eval(`(async () => {
					while (!window.mc) await new Promise((r) => setTimeout(r, 10));
					const before = performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length;
					const message = await window.mc.readResource("state://x").then(() => "resolved", (e) => e.message);
					return { message, wasm: before ? ["fetched before the first consumer call"] : [] };
				})()`, &got)
				t.Logf("%s", got.Message)
				if len(got.Wasm) > 0 {
					t.Errorf("the page fetched a .wasm before the first consumer call")
				}
				if !strings.HasPrefix(got.Message, "modelcontext: ") {
					t.Fatalf("readResource rejected with %q, want a modelcontext: error", got.Message)
				}
				for _, want := range c.mention {
					if !strings.Contains(got.Message, want) {
						t.Errorf("the error does not say %q:\n%s", want, got.Message)
					}
				}
				for _, bad := range c.not {
					if strings.Contains(got.Message, bad) {
						t.Errorf("the error says %q:\n%s", bad, got.Message)
					}
				}
			})
		}
	})
}
