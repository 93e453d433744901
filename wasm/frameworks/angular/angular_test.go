//go:build unix

package angular

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// node is the Node.js 22 the app's lock file pins (the npm package "node"):
// the Angular CLI and the ssr project's server need it.
func node(t *testing.T) string {
	t.Helper()
	p := filepath.Join(appDir(), "node_modules", ".bin", "node")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%v: run `make test-angular`, which installs the app's locked packages", err)
	}
	return p
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
			emitted := wasmFiles(t, filepath.Join(dir, "browser"))
			if len(emitted) != 1 || !strings.HasPrefix(emitted[0], "media/modelcontext-") {
				t.Fatalf("dist/%s/browser holds the .wasm files %q, want one, media/modelcontext-<hash>.wasm", p.name, emitted)
			}
			got, err := os.ReadFile(filepath.Join(dir, "browser", emitted[0]))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, wasm) {
				t.Errorf("dist/%s/browser/%s is not the module's .wasm", p.name, emitted[0])
			}
			var url string
			var out *frameworktest.Output
			if p.ssr {
				if w := wasmFiles(t, filepath.Join(dir, "server")); len(w) > 0 {
					t.Errorf("dist/ssr/server holds the .wasm files %q: the server build took the browser's module", w)
				}
				url, out = startSSR(t)
				checkServerHTML(t, url, out)
			} else {
				url = serveStatic(t, filepath.Join(dir, "browser"), nil)
			}
			t.Run("lazy boot", func(t *testing.T) { checkLazyBoot(t, url, "/"+emitted[0]) })
			t.Run("agent", func(t *testing.T) { checkAgent(t, url, out, "/"+emitted[0]) })
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
		"/bin/sh", "-c", `exec "$0" "$1" serve csr --host 127.0.0.1 --port "$PORT"`, node(t), ng)
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
	emitted := wasmFiles(t, browser)
	if len(emitted) != 1 {
		t.Fatalf("dist/csr/browser holds the .wasm files %q, want one: run `make test-angular`", emitted)
	}
	url := serveStatic(t, browser, map[string]http.Handler{"/" + emitted[0]: http.NotFoundHandler()})
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(url + "/")
	waitFor(t, tab, mounted)
	var message string
	tab.Eval(`document.modelContext.readResource("state://cart").then(() => "resolved", (e) => e.message)`, &message)
	for _, want := range []string{
		"modelcontext: could not fetch", "/" + emitted[0], "HTTP 404",
		"your bundler emitted the module's .wasm as", "(the page runs Angular 22.", "serve that file with the rest of the build",
	} {
		if !strings.Contains(message, want) {
			t.Errorf("readResource rejected with %q, which does not say %q", message, want)
		}
	}
}

// wasmFiles returns the .wasm files under dir, relative to it, with slashes.
func wasmFiles(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".wasm") {
			rel, _ := filepath.Rel(dir, path)
			found = append(found, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v: run `make test-angular`, which builds the app", err)
	}
	return found
}

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
	origin, out := frameworktest.Start(t, appDir(), nil, node(t), filepath.Join("dist", "ssr", "server", "server.mjs"))
	return frameworktest.Proxy(t, origin, nil), out
}

// checkServerHTML: the server renders / (prerendered at build time) and
// /agent (on request), the cart's button included, with status 200 and
// nothing said on the server.
func checkServerHTML(t *testing.T, url string, out *frameworktest.Output) {
	t.Helper()
	for _, path := range []string{"/", "/agent"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`<button id="add"`)) {
			t.Fatalf("GET %s: %s, want 200 with the cart's button rendered on the server:\n%s\nthe server said:\n%s", path, resp.Status, body, out)
		}
	}
	if s := out.String(); strings.Contains(s, "Error") || strings.Contains(s, "modelcontext:") {
		t.Errorf("the server reported:\n%s", s)
	}
}

// checkLazyBoot: a visit without an agent fetches no .wasm (the cart is
// registered and changed twice, which starts nothing); an agent's then
// fetches wantWasm once, and reads the cart as the visitor left it.
func checkLazyBoot(t *testing.T, url, wantWasm string) {
	tab := browsertest.NewTab(t)
	tab.Timeout = 3 * time.Minute
	rec := frameworktest.Record(t, tab)
	clicked := mounted + ` && (document.querySelector("#add").click(), document.querySelector("#add").click(), true)`
	got := frameworktest.CheckLazyBoot(t, tab, rec, url+"/", clicked)
	if wantWasm != "" && got != wantWasm {
		t.Errorf("the agent's visit fetched %s, want the build's %s", got, wantWasm)
	}
	var read string
	tab.Eval(`document.modelContext.readResource("state://cart").then(JSON.stringify)`, &read)
	if read != `["tea","tea"]` {
		t.Errorf(`readResource("state://cart") = %s, want ["tea","tea"]`, read)
	}
	noErrors(t, tab)
}

// seen is what the app's agent panel (src/app/agent.ts) shows.
type seen struct {
	Error  string
	List   []struct{ URI, Name string }
	Read   json.RawMessage
	Pushes []push
}

// push is a resourceupdated event's detail, as far as the tests compare it.
type push struct {
	URI   string
	Value json.RawMessage
}

// pushes are the events, each "<uri> <value as compact JSON>".
func pushes(list []push) []string {
	var out []string
	for _, p := range list {
		var b bytes.Buffer
		if err := json.Compact(&b, p.Value); err != nil {
			b.Reset()
			b.Write(p.Value)
		}
		out = append(out, p.URI+" "+b.String())
	}
	return out
}

// checkAgent loads /agent, whose panel lists the resources, reads
// state://cart and records every resourceupdated, and checks what it and a
// listener of the test's see: the cart listed once and read as [], then
// one push per change (Add tea), none for an unchanged value (Change
// nothing, which sets an equal copy: the next change's push is the
// sentinel); the .wasm fetched once (wantWasm, if given) as
// application/wasm. Neither the page nor the server reports an error.
func checkAgent(t *testing.T, url string, out *frameworktest.Output, wantWasm string) {
	tab := browsertest.NewTab(t)
	tab.Timeout = 3 * time.Minute
	tab.Navigate(url + "/agent")
	waitFor(t, tab, mounted+` && document.getElementById("agent")`)
	panel := func(cond string) seen {
		t.Helper()
		var s seen
		tab.Eval(fmt.Sprintf(`(async () => {
			const seen = () => JSON.parse(document.getElementById("agent").textContent || "{}");
			const end = performance.now() + 60000;
			for (let s = seen(); ; s = seen()) {
				if (s.error || (%s) || performance.now() > end) return s;
				await new Promise((r) => setTimeout(r, 20));
			}
		})()`, cond), &s)
		if s.Error != "" {
			t.Fatalf("the agent panel shows an error: %s\n%s", s.Error, tab.ConsoleText())
		}
		return s
	}
	s := panel(`s.list && "read" in s`)
	if fmt.Sprint(s.List) != "[{state://cart cart}]" {
		t.Errorf("getResources() = %+v, want state://cart (cart), once", s.List)
	}
	if string(s.Read) != "[]" {
		t.Errorf(`readResource("state://cart") = %s, want []`, s.Read)
	}
	tab.Eval(`window.testPushes = [];
		document.modelContext.addEventListener("resourceupdated", (e) => testPushes.push(JSON.parse(JSON.stringify(e.detail)))); true`, nil)
	var want []string
	for _, button := range []string{"#add", "#same", "#add"} {
		tab.Eval(fmt.Sprintf(`document.querySelector(%q).click(); true`, button), nil)
		if button == "#same" {
			continue // an equal value: the next click's push is the sentinel
		}
		want = append(want, "state://cart ["+strings.TrimSuffix(strings.Repeat(`"tea",`, len(want)+1), ",")+"]")
		n := len(want)
		s = panel(fmt.Sprintf(`s.pushes.length >= %d`, n))
		var mine []push
		tab.Eval(fmt.Sprintf(`(async () => {
			for (const end = performance.now() + 15000; testPushes.length < %d && performance.now() < end; ) await new Promise((r) => setTimeout(r, 20));
			return testPushes;
		})()`, n), &mine)
		if fmt.Sprint(pushes(s.Pushes)) != fmt.Sprint(want) || fmt.Sprint(pushes(mine)) != fmt.Sprint(want) {
			t.Fatalf("after the clicks the panel saw the pushes %q and the test's listener %q, want %q", pushes(s.Pushes), pushes(mine), want)
		}
	}
	var read string
	tab.Eval(`document.modelContext.readResource("state://cart").then(JSON.stringify)`, &read)
	if read != `["tea","tea"]` {
		t.Errorf(`readResource("state://cart") after the clicks = %s, want ["tea","tea"]`, read)
	}
	checkWasmFetched(t, tab, wantWasm)
	noErrors(t, tab)
	if out != nil {
		if s := out.String(); strings.Contains(s, "Error") || strings.Contains(s, "modelcontext:") {
			t.Errorf("the server reported:\n%s", s)
		}
	}
}

// checkWasmFetched: the page fetched one .wasm (wantWasm if given), served
// as application/wasm.
func checkWasmFetched(t *testing.T, tab *browsertest.Tab, wantWasm string) {
	t.Helper()
	var got struct {
		Fetched []string
		Type    string
		Magic   []int
	}
	tab.Eval(`(async () => {
		const fetched = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm"));
		if (fetched.length !== 1) return { fetched };
		const response = await fetch(fetched[0]);
		const magic = [...new Uint8Array(await response.arrayBuffer()).slice(0, 4)];
		return { fetched, type: response.headers.get("content-type"), magic };
	})()`, &got)
	if len(got.Fetched) != 1 {
		t.Fatalf("the page fetched %d .wasm files %q, want 1", len(got.Fetched), got.Fetched)
	}
	t.Logf("the page fetched %s", got.Fetched[0])
	if wantWasm != "" && got.Fetched[0] != wantWasm {
		t.Errorf("the page fetched %s, want the build's %s", got.Fetched[0], wantWasm)
	}
	if got.Type != "application/wasm" || fmt.Sprint(got.Magic) != "[0 97 115 109]" {
		t.Errorf("%s: Content-Type %q, first bytes %v; want application/wasm and [0 97 115 109]", got.Fetched[0], got.Type, got.Magic)
	}
}

func waitFor(t *testing.T, tab *browsertest.Tab, cond string) {
	t.Helper()
	var ok bool
	tab.Eval(fmt.Sprintf(`(async () => {
		for (const end = Date.now() + 60000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
			if (%s) return true;
		}
		return false;
	})()`, cond), &ok)
	if !ok {
		t.Fatalf("waited for %s\n%s", cond, tab.ConsoleText())
	}
}

func noErrors(t *testing.T, tab *browsertest.Tab) {
	t.Helper()
	for _, line := range tab.Console() {
		if strings.HasPrefix(line, "console.error") || strings.HasPrefix(line, "console.warning") || strings.HasPrefix(line, "uncaught") {
			t.Errorf("the page logged %s", line)
		}
	}
}
