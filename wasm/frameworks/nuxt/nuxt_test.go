//go:build unix

package nuxt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

func appDir() string {
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", "nuxt")
}

// node is the Node.js 22 the app's lock file pins (the npm package "node"),
// which Nuxt needs.
func node(t *testing.T) string {
	t.Helper()
	p := filepath.Join(appDir(), "node_modules", ".bin", "node")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%v: run `make test-nuxt`, which installs the app's locked packages", err)
	}
	return p
}

// mounted is the page's mark that it was hydrated: app/app.vue sets it.
const mounted = `document.documentElement.dataset.mounted === ""`

// TestREADMEExample: the app's components are the guide's Nuxt examples,
// byte for byte, and its nuxt.config holds the guide's, line for line.
func TestREADMEExample(t *testing.T) {
	for _, c := range []struct{ example, lang, file string }{
		{"nuxt-pinia", "vue", "app/components/Cart.vue"},
		{"nuxt-ref", "vue", "app/components/Clicks.vue"},
		{"nuxt-store", "typescript", "app/stores/cart.ts"},
	} {
		block := docs.Example(t, c.example, c.lang)
		got, err := os.ReadFile(filepath.Join(appDir(), c.file))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != block.Text {
			t.Errorf("%s is not %s's %s example (line %d); copy the block into it (or the other way round)", c.file, block.File, c.example, block.Line)
		}
	}
	block := docs.Example(t, "nuxt-config", "typescript")
	config, err := os.ReadFile(filepath.Join(appDir(), "nuxt.config.ts"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(config), "\n")
	for _, line := range strings.Split(strings.TrimSpace(block.Text), "\n") {
		found := false
		for _, l := range lines {
			found = found || l == line
		}
		if !found {
			t.Errorf("nuxt.config.ts has no line %q of %s's nuxt-config example (line %d)", line, block.File, block.Line)
		}
	}
}

// TestBuild: nuxt typecheck found nothing; nuxt build emitted the module's
// .wasm once, with a brotli and a gzip copy beside it (modelcontext/nuxt),
// and said nothing about it; Nitro's server renders both pages with no
// .wasm in any hint and serves the .wasm compressed; a visit without an
// agent fetches no .wasm, and an agent sees the cart and the clicks.
func TestBuild(t *testing.T) {
	dir := appDir()
	wasm := frameworktest.InstalledPackage(t, dir)
	for _, name := range []string{"typecheck.log", "build.log"} {
		log, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%v: run `make test-nuxt`, which type-checks and builds the app", err)
		}
		for _, bad := range []string{"ERROR", "error TS", "modelcontext:"} {
			if bytes.Contains(log, []byte(bad)) {
				t.Errorf("%s says %s:\n%s", name, bad, log)
			}
		}
		if name == "build.log" && !bytes.Contains(log, []byte("Build complete")) {
			t.Errorf("build.log shows no complete build:\n%s", log)
		}
	}
	assets := filepath.Join(dir, ".output", "public", "_nuxt")
	var emitted []string
	entries, err := os.ReadDir(assets)
	if err != nil {
		t.Fatalf("%v: run `make test-nuxt`, which builds the app", err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".wasm") {
			emitted = append(emitted, e.Name())
		}
	}
	if len(emitted) != 3 || !regexp.MustCompile(`^modelcontext\.[\w-]+\.wasm$`).MatchString(emitted[0]) ||
		emitted[1] != emitted[0]+".br" || emitted[2] != emitted[0]+".gz" {
		t.Fatalf(".output/public/_nuxt holds %q, want modelcontext.<hash>.wasm and its .br and .gz", emitted)
	}
	got, err := os.ReadFile(filepath.Join(assets, emitted[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wasm) {
		t.Errorf(".output/public/_nuxt/%s is not the module's .wasm", emitted[0])
	}
	built := "/_nuxt/" + emitted[0]

	url, out := startServer(t)
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
		if bytes.Contains(body, []byte(".wasm")) {
			t.Errorf("GET %s: the page names a .wasm (a prefetch or preload hint downloads it on every visit):\n%s", path, body)
		}
	}
	t.Run("compressed", func(t *testing.T) {
		for _, enc := range []string{"br", "gzip"} {
			req, _ := http.NewRequest("GET", url+built, nil)
			req.Header.Set("Accept-Encoding", enc)
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.Header.Get("Content-Encoding") != enc || resp.Header.Get("Content-Type") != "application/wasm" || len(body) >= len(wasm)/3 {
				t.Errorf("GET %s with Accept-Encoding: %s: Content-Encoding %q, Content-Type %q, %d bytes; want %s, application/wasm, under a third of %d",
					built, enc, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), len(body), enc, len(wasm))
			} else {
				t.Logf("%s: %d bytes with %s (%d uncompressed)", built, len(body), enc, len(wasm))
			}
		}
	})
	t.Run("lazy boot", func(t *testing.T) { checkLazyBoot(t, url, built) })
	t.Run("agent", func(t *testing.T) { checkAgent(t, url, out, built) })
}

// TestDev: nuxt dev (Vite 7's dependency pre-bundling on, as by default,
// which modelcontext/nuxt keeps the package out of) serves the page, and it
// works as built.
func TestDev(t *testing.T) {
	frameworktest.InstalledPackage(t, appDir())
	nuxt := filepath.Join("node_modules", "nuxt", "bin", "nuxt.mjs")
	origin, out := frameworktest.Start(t, appDir(), []string{"NUXT_TELEMETRY_DISABLED=1"},
		"/bin/sh", "-c", `exec "$0" "$1" dev --host 127.0.0.1 --port "$PORT"`, node(t), nuxt)
	url := frameworktest.Proxy(t, origin, nil)
	t.Run("lazy boot", func(t *testing.T) { checkLazyBoot(t, url, "") })
	t.Run("agent", func(t *testing.T) { checkAgent(t, url, out, "") })
}

// startServer runs the build's Nitro server (.output/server/index.mjs) on
// the pinned Node.js, behind frameworktest's proxy.
func startServer(t *testing.T) (string, *frameworktest.Output) {
	t.Helper()
	origin, out := frameworktest.Start(t, appDir(), nil, node(t), filepath.Join(".output", "server", "index.mjs"))
	return frameworktest.Proxy(t, origin, nil), out
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
	if read != `{"items":["tea","tea"]}` {
		t.Errorf(`readResource("state://cart") = %s, want {"items":["tea","tea"]}`, read)
	}
	noErrors(t, tab)
}

// seen is what the app's agent panel (app/components/AgentPanel.vue) shows.
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
// listener of the test's see: the cart (Pinia) and the clicks (a ref)
// listed once each, the cart read as {"items":[]}, then one push per change
// and none for an unchanged value (Change nothing sets an equal copy of the
// cart's items: the next change's push is the sentinel); the .wasm fetched
// once (wantWasm, if given) as application/wasm. Neither the page nor the
// server reports an error.
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
	if fmt.Sprint(s.List) != "[{state://cart cart} {state://clicks clicks}]" {
		t.Errorf("getResources() = %+v, want state://cart (cart) and state://clicks (clicks), once each", s.List)
	}
	if string(s.Read) != `{"items":[]}` {
		t.Errorf(`readResource("state://cart") = %s, want {"items":[]}`, s.Read)
	}
	tab.Eval(`window.testPushes = [];
		document.modelContext.addEventListener("resourceupdated", (e) => testPushes.push(JSON.parse(JSON.stringify(e.detail)))); true`, nil)
	var want []string
	for _, step := range []struct{ button, push string }{
		{"#add", `state://cart {"items":["tea"]}`},
		{"#same", ""}, // an equal value: the next click's push is the sentinel
		{"#click", `state://clicks 1`},
		{"#add", `state://cart {"items":["tea","tea"]}`},
	} {
		tab.Eval(fmt.Sprintf(`document.querySelector(%q).click(); true`, step.button), nil)
		if step.push == "" {
			continue
		}
		want = append(want, step.push)
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
	if read != `{"items":["tea","tea"]}` {
		t.Errorf(`readResource("state://cart") after the clicks = %s, want {"items":["tea","tea"]}`, read)
	}
	checkWasmFetched(t, tab, wantWasm)
	noErrors(t, tab)
	if s := out.String(); strings.Contains(s, "ERROR") || strings.Contains(s, "modelcontext:") {
		t.Errorf("the server reported:\n%s", s)
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
		for (const end = Date.now() + 120000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
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
