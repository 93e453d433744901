//go:build unix

package astro

import (
	"bytes"
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
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", "astro")
}

// start serves the app's build with the Node adapter's standalone server,
// on the Node.js the app pins, behind a proxy that keeps its answers out of
// the browser's cache.
func start(t *testing.T) (string, *frameworktest.Output) {
	t.Helper()
	dir := appDir()
	frameworktest.InstalledPackage(t, dir)
	node := filepath.Join(dir, "node_modules", ".bin", "node")
	for _, f := range []string{node, filepath.Join(dir, "dist", "server", "entry.mjs")} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v: run `make test-astro`, which installs and builds the app", err)
		}
	}
	origin, out := frameworktest.Start(t, dir, []string{"ASTRO_TELEMETRY_DISABLED=1"}, node, "dist/server/entry.mjs")
	return frameworktest.Proxy(t, origin, nil), out
}

// mounted: the island hydrated (Astro takes its ssr attribute off then).
const mounted = `document.querySelector("astro-island") !== null && document.querySelector("astro-island[ssr]") === null`

// The recipes of js/FRAMEWORKS.md, as the app holds them, and how the test
// drives each: four clicks, the third of which changes nothing, and what
// the resource reads before and after each.
type step struct {
	button string
	value  string // the value read after the click, as JSON
}

var recipes = []struct {
	example, file, lang, section, uri, first string
	steps                                    [4]step
}{
	{"astro-island", "Cart.tsx", "tsx", "island", "state://astro-cart", `[]`, [4]step{
		{`#island button:nth-of-type(1)`, `[{"sku":"tea","qty":1}]`},
		{`#island button:nth-of-type(2)`, `[]`},
		{`#island button:nth-of-type(2)`, `[]`},
		{`#island button:nth-of-type(1)`, `[{"sku":"tea","qty":1}]`},
	}},
	{"astro-script", "Theme.astro", "astro", "script", "state://theme", `"light"`, [4]step{
		{`#script button[data-theme="dark"]`, `"dark"`},
		{`#script button[data-theme="light"]`, `"light"`},
		{`#script button[data-theme="light"]`, `"light"`},
		{`#script button[data-theme="dark"]`, `"dark"`},
	}},
}

// TestBuild: astro check found nothing (the recipes type-check as the app
// uses them), the client build holds the module's .wasm once, and the
// server renders the page, the island's buttons included, with no error.
func TestBuild(t *testing.T) {
	dir := appDir()
	for _, r := range recipes {
		b, err := os.ReadFile(filepath.Join(dir, "src", "readme", r.file))
		if err != nil {
			t.Fatalf("%v: run `make test-astro`, which copies the recipes into the app", err)
		}
		if block := docs.Example(t, r.example, r.lang); string(b) != block.Text {
			t.Errorf("src/readme/%s is not %s's %s example (line %d): run `make test-astro`", r.file, block.File, r.example, block.Line)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "build.log"))
	if err != nil {
		t.Fatalf("%v: run `make test-astro`, which builds the app", err)
	}
	// Colour codes, where a tool thought it wrote to a terminal, are left out.
	log = regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAll(log, nil)
	for _, want := range []string{"- 0 errors\n- 0 warnings\n", "[build] Complete!"} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("build.log does not say %q:\n%s", want, log)
		}
	}
	wasm := frameworktest.InstalledPackage(t, dir)
	var emitted []string
	filepath.WalkDir(filepath.Join(dir, "dist", "client"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".wasm") {
			if b, _ := os.ReadFile(p); !bytes.Equal(b, wasm) {
				t.Errorf("%s is not the module's .wasm", p)
			}
			emitted = append(emitted, p)
		}
		return nil
	})
	if len(emitted) != 1 {
		t.Errorf("dist/client holds the .wasm files %q, want one", emitted)
	}

	url, out := start(t)
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, s := range []string{`<button>Add tea</button>`, `<button data-theme="dark">Dark</button>`} {
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(s)) {
			t.Fatalf("GET /: %s, want 200 with %s rendered on the server:\n%s\nthe server said:\n%s", resp.Status, s, body, out)
		}
	}
	if s := out.String(); strings.Contains(s, "Error") || strings.Contains(s, "modelcontext:") {
		t.Errorf("the server reported:\n%s", s)
	}
}

// TestLazyBoot: a visit without an agent fetches no .wasm; an agent's does,
// once, from where Astro emitted it.
func TestLazyBoot(t *testing.T) {
	url, _ := start(t)
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	rec := frameworktest.Record(t, tab)
	got := frameworktest.CheckLazyBoot(t, tab, rec, url+"/", mounted)
	if !strings.HasPrefix(got, "/_astro/modelcontext.") {
		t.Errorf("the agent's visit fetched %s, want the build's /_astro/modelcontext.<hash>.wasm", got)
	}
	noErrors(t, tab)
}

// TestRecipes drives both recipes in one page: each resource is listed and
// read; of four clicks the third changes nothing, and the fourth's event is
// the sentinel that shows it made none.
func TestRecipes(t *testing.T) {
	url, out := start(t)
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(url + "/")
	waitFor(t, tab, mounted)
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	waitFor(t, tab, `document.modelContext.getResources().length === 2`)
	var listed []string
	tab.Eval(`document.modelContext.getResources().map((r) => r.uri).sort()`, &listed)
	if want := []string{"state://astro-cart", "state://theme"}; fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("getResources lists %q, want %q", listed, want)
	}
	tab.Eval(`window.updates = []; document.modelContext.addEventListener("resourceupdated", (e) => updates.push(e.detail.uri + " " + JSON.stringify(e.detail.value))); true`, nil)
	for _, r := range recipes {
		t.Run(r.section, func(t *testing.T) {
			read := func() string {
				var s string
				tab.Eval(fmt.Sprintf(`document.modelContext.readResource(%q).then(JSON.stringify)`, r.uri), &s)
				return s
			}
			if got := read(); got != r.first {
				t.Errorf("readResource(%q) = %s, want %s", r.uri, got, r.first)
			}
			tab.Eval(`updates.length = 0; true`, nil)
			var want []string
			for i, s := range r.steps {
				tab.Eval(fmt.Sprintf(`document.querySelector(%q).click(); true`, s.button), nil)
				if i == 2 {
					continue // the same value: the next click's event is the sentinel
				}
				want = append(want, r.uri+" "+s.value)
				waitFor(t, tab, fmt.Sprintf(`updates.length >= %d`, len(want)))
				if got := read(); got != s.value {
					t.Errorf("after click %d readResource(%q) = %s, want %s", i+1, r.uri, got, s.value)
				}
			}
			var updates []string
			tab.Eval(`updates`, &updates)
			if fmt.Sprint(updates) != fmt.Sprint(want) {
				t.Errorf("resourceupdated after four clicks: %q, want %q (none for the unchanged value)", updates, want)
			}
		})
	}
	noErrors(t, tab)
	if s := out.String(); strings.Contains(s, "Error") {
		t.Errorf("the server reported:\n%s", s)
	}
}

func waitFor(t *testing.T, tab *browsertest.Tab, cond string) {
	t.Helper()
	var ok bool
	tab.Eval(fmt.Sprintf(`(async () => {
		for (const end = Date.now() + 15000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
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
