//go:build unix

package nuxt

import (
	"bytes"
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
		body := frameworktest.CheckServerPage(t, url, path, out, `<button id="add"`)
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
		"/bin/sh", "-c", `exec "$0" "$1" dev --host 127.0.0.1 --port "$PORT"`, frameworktest.Node(t, appDir()), nuxt)
	url := frameworktest.Proxy(t, origin, nil)
	t.Run("lazy boot", func(t *testing.T) { checkLazyBoot(t, url, "") })
	t.Run("agent", func(t *testing.T) { checkAgent(t, url, out, "") })
}

// startServer runs the build's Nitro server (.output/server/index.mjs) on
// the pinned Node.js, behind frameworktest's proxy.
func startServer(t *testing.T) (string, *frameworktest.Output) {
	t.Helper()
	origin, out := frameworktest.Start(t, appDir(), nil, frameworktest.Node(t, appDir()), filepath.Join(".output", "server", "index.mjs"))
	return frameworktest.Proxy(t, origin, nil), out
}

// checkLazyBoot: a visit without an agent fetches no .wasm (the cart is
// registered and changed twice, which starts nothing); an agent's then
// fetches wantWasm once, and reads the cart as the visitor left it.
func checkLazyBoot(t *testing.T, url, wantWasm string) {
	clicked := mounted + ` && (document.querySelector("#add").click(), document.querySelector("#add").click(), true)`
	tab, _ := frameworktest.LazyBoot(t, url+"/", clicked, wantWasm, 3*time.Minute)
	if read := frameworktest.Read(t, tab, "state://cart"); read != `{"items":["tea","tea"]}` {
		t.Errorf(`readResource("state://cart") = %s, want {"items":["tea","tea"]}`, read)
	}
	frameworktest.NoErrors(t, tab)
}

// checkAgent loads /agent, whose panel (app/components/AgentPanel.vue)
// lists the resources, reads state://cart and records every
// resourceupdated, and checks what it and a listener of the test's see:
// the cart (Pinia) and the clicks (a ref) listed once each, the cart read
// as {"items":[]}, then one push per change and none for an unchanged
// value (Change nothing sets an equal copy of the cart's items: the next
// change's push is the sentinel); the .wasm fetched once (wantWasm, if
// given) as application/wasm. Neither the page nor the server reports an
// error.
func checkAgent(t *testing.T, url string, out *frameworktest.Output, wantWasm string) {
	tab := frameworktest.Open(t, url+"/agent", mounted+` && document.getElementById("agent")`, 3*time.Minute)
	frameworktest.CheckAgent(t, tab, frameworktest.Agent{
		Listed: []string{"state://cart cart", "state://clicks clicks"},
		URI:    "state://cart", Read: `{"items":[]}`, Final: `{"items":["tea","tea"]}`,
		Steps: []frameworktest.Step{
			{Click: "#add", Push: `state://cart {"items":["tea"]}`},
			{Click: "#same"},
			{Click: "#click", Push: `state://clicks 1`},
			{Click: "#add", Push: `state://cart {"items":["tea","tea"]}`},
		},
	}, 60*time.Second, out)
	frameworktest.CheckWasmFetched(t, tab, wantWasm)
	frameworktest.NoErrors(t, tab)
	frameworktest.NoServerErrors(t, out, "ERROR", "modelcontext:")
}
