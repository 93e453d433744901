//go:build unix

package angular

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

func appDir() string {
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", "angular")
}

// mounted is the page's mark that it rendered in the browser (hydrated,
// after server-side rendering): src/app/home.ts sets it.
const mounted = `document.documentElement.dataset.mounted === ""`

// TestREADMEExample: the app's service is the guide's Angular example, byte
// for byte, so the example is what ng build type-checks and the tests run.
func TestREADMEExample(t *testing.T) {
	block := docs.Example(t, "angular-service", "typescript")
	file := filepath.Join(appDir(), "src", "app", "cart.ts")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != block.Text {
		t.Errorf("%s is not %s's angular-service example (line %d); copy the block into it (or the other way round)", file, block.File, block.Line)
	}
	angularJSON, err := os.ReadFile(filepath.Join(appDir(), "angular.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(angularJSON, []byte("modelcontext")) {
		t.Errorf("angular.json mentions modelcontext: the package needs nothing there")
	}
}

// project is one of the workspace's two projects, which `make test-angular`
// builds into dist/<name>/, printing into build-<name>.log.
type project struct {
	name string
	ssr  bool
}

var projects = []project{{name: "csr"}, {name: "ssr", ssr: true}}

// TestBuild: each project's ng build type-checked the app (strict,
// skipLibCheck off, Angular's own WebMCP types in the program) with no
// warning, emitted the module's .wasm once into the browser's files (media/,
// with nothing in angular.json) and none into the server's; served (csr by
// a file server, ssr by its own Node.js server, which renders the page on
// the server where the import installs nothing), a visit without an agent
// fetches no .wasm and an agent sees the cart.
func TestBuild(t *testing.T) {
	wasm := frameworktest.InstalledPackage(t, appDir())
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			dir := filepath.Join(appDir(), "dist", p.name)
			log, err := os.ReadFile(filepath.Join(appDir(), "build-"+p.name+".log"))
			if err != nil {
				t.Fatalf("%v: run `make test-angular`, which builds the app", err)
			}
			if !bytes.Contains(log, []byte("Application bundle generation complete")) {
				t.Fatalf("build-%s.log shows no complete build:\n%s", p.name, log)
			}
			for _, bad := range []string{"WARNING", "ERROR", "modelcontext:"} {
				if bytes.Contains(log, []byte(bad)) {
					t.Errorf("build-%s.log says %s:\n%s", p.name, bad, log)
				}
			}
			emitted := frameworktest.BuiltWasm(t, filepath.Join(dir, "browser"), wasm, buildHint)
			if !strings.HasPrefix(emitted, "media/modelcontext-") {
				t.Fatalf("dist/%s/browser holds %s, want media/modelcontext-<hash>.wasm", p.name, emitted)
			}
			var url string
			var out *frameworktest.Output
			if p.ssr {
				if w := frameworktest.WasmFiles(t, filepath.Join(dir, "server"), buildHint); len(w) > 0 {
					t.Errorf("dist/ssr/server holds the .wasm files %q: the server build took the browser's module", w)
				}
				url, out = startSSR(t)
				checkServerHTML(t, url, out)
			} else {
				url = serveStatic(t, filepath.Join(dir, "browser"), nil)
			}
			t.Run("lazy boot", func(t *testing.T) { checkLazyBoot(t, url, "/"+emitted) })
			t.Run("agent", func(t *testing.T) { checkAgent(t, url, out, "/"+emitted) })
		})
	}
}

// TestServe: ng serve (the csr project's development build, with Vite's
// dependency pre-bundling on, as by default) serves the page, and it works
// as built: no .wasm on a visit without an agent, the cart to an agent.
func TestServe(t *testing.T) {
	frameworktest.InstalledPackage(t, appDir())
	ng := filepath.Join("node_modules", "@angular", "cli", "bin", "ng.js")
	origin, out := frameworktest.Start(t, appDir(), []string{"NG_CLI_ANALYTICS=false"},
		"/bin/sh", "-c", `exec "$0" "$1" serve csr --host 127.0.0.1 --port "$PORT"`, frameworktest.Node(t, appDir()), ng)
	url := frameworktest.Proxy(t, origin, nil)
	servesPage(t, origin, out)
	t.Run("lazy boot", func(t *testing.T) { checkLazyBoot(t, url, "") })
	t.Run("agent", func(t *testing.T) { checkAgent(t, url, out, "") })
}

// servesPage waits until ng serve answers its page: it listens before its
// first build is done (in a clean clone, with no .angular cache, a while),
// and answers an error until then.
func servesPage(t *testing.T, origin string, out fmt.Stringer) {
	t.Helper()
	for end := time.Now().Add(3 * time.Minute); ; {
		resp, err := http.Get(origin + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(end) {
			t.Fatalf("ng serve did not answer its page with 200 within 3 minutes (last: %v %v):\n%s", resp, err, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestMissingWasm: a deployment of the csr build without its .wasm (the
// server answers 404 for it) fails at the first consumer call with an error
// that names the URL, says Angular's builder emitted the file there, and
// what to do.
func TestMissingWasm(t *testing.T) {
	frameworktest.InstalledPackage(t, appDir())
	browser := filepath.Join(appDir(), "dist", "csr", "browser")
	emitted := frameworktest.BuiltWasm(t, browser, nil, buildHint)
	url := serveStatic(t, browser, map[string]http.Handler{"/" + emitted: http.NotFoundHandler()})
	tab := frameworktest.Open(t, url+"/", mounted, 60*time.Second)
	var message string
	tab.Eval(`document.modelContext.readResource("state://cart").then(() => "resolved", (e) => e.message)`, &message)
	for _, want := range []string{
		"modelcontext: could not fetch", "/" + emitted, "HTTP 404",
		"your bundler emitted the module's .wasm as", "(the page runs Angular 22.", "serve that file with the rest of the build",
	} {
		if !strings.Contains(message, want) {
			t.Errorf("readResource rejected with %q, which does not say %q", message, want)
		}
	}
}

// buildHint says what builds the app's dist/.
const buildHint = "run `make test-angular`, which builds the app"

// serveStatic serves the csr build's files as a static host does, with
// index.html for the app's routes, behind frameworktest's proxy (answers
// kept out of the browser's cache), extra's routes first.
func serveStatic(t *testing.T, root string, extra map[string]http.Handler) string {
	t.Helper()
	files := http.FileServer(http.Dir(root))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.URL.Path))); err != nil && !strings.Contains(r.URL.Path, ".") {
			http.ServeFile(w, r, filepath.Join(root, "index.html"))
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return frameworktest.Proxy(t, srv.URL, extra)
}

// startSSR runs the ssr project's server (dist/ssr/server/server.mjs, the
// app's own Express server) on the pinned Node.js, behind frameworktest's
// proxy.
func startSSR(t *testing.T) (string, *frameworktest.Output) {
	t.Helper()
	origin, out := frameworktest.Start(t, appDir(), nil, frameworktest.Node(t, appDir()), filepath.Join("dist", "ssr", "server", "server.mjs"))
	return frameworktest.Proxy(t, origin, nil), out
}

// checkServerHTML: the server renders / (prerendered at build time) and
// /agent (on request), the cart's button included, with status 200 and
// nothing said on the server.
func checkServerHTML(t *testing.T, url string, out *frameworktest.Output) {
	t.Helper()
	for _, path := range []string{"/", "/agent"} {
		frameworktest.CheckServerPage(t, url, path, out, `<button id="add"`)
	}
	frameworktest.NoServerErrors(t, out, "Error", "modelcontext:")
}

// checkLazyBoot: a visit without an agent fetches no .wasm (the cart is
// registered and changed twice, which starts nothing); an agent's then
// fetches wantWasm once, and reads the cart as the visitor left it.
func checkLazyBoot(t *testing.T, url, wantWasm string) {
	clicked := mounted + ` && (document.querySelector("#add").click(), document.querySelector("#add").click(), true)`
	tab, _ := frameworktest.LazyBoot(t, url+"/", clicked, wantWasm, 3*time.Minute)
	if read := frameworktest.Read(t, tab, "state://cart"); read != `["tea","tea"]` {
		t.Errorf(`readResource("state://cart") = %s, want ["tea","tea"]`, read)
	}
	frameworktest.NoErrors(t, tab)
}

// checkAgent loads /agent, whose panel (src/app/agent.ts) lists the
// resources, reads state://cart and records every resourceupdated, and
// checks what it and a listener of the test's see: the cart listed once and
// read as [], then one push per change (Add tea), none for an unchanged
// value (Change nothing, which sets an equal copy: the next change's push
// is the sentinel); the .wasm fetched once (wantWasm, if given) as
// application/wasm. Neither the page nor the server reports an error.
func checkAgent(t *testing.T, url string, out *frameworktest.Output, wantWasm string) {
	tab := frameworktest.Open(t, url+"/agent", mounted+` && document.getElementById("agent")`, 3*time.Minute)
	frameworktest.CheckAgent(t, tab, frameworktest.Agent{
		Listed: []string{"state://cart cart"},
		URI:    "state://cart", Read: `[]`, Final: `["tea","tea"]`,
		Steps: []frameworktest.Step{
			{Click: "#add", Push: `state://cart ["tea"]`},
			{Click: "#same"},
			{Click: "#add", Push: `state://cart ["tea","tea"]`},
		},
	}, 60*time.Second, out)
	frameworktest.CheckWasmFetched(t, tab, wantWasm)
	frameworktest.NoErrors(t, tab)
	frameworktest.NoServerErrors(t, out, "Error", "modelcontext:")
}
