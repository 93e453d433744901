//go:build unix

package astro

import (
	"bytes"
	"fmt"
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
	frameworktest.BuiltWasm(t, filepath.Join(dir, "dist", "client"), wasm, "run `make test-astro`, which builds the app")

	url, out := start(t)
	frameworktest.CheckServerPage(t, url, "/", out, `<button>Add tea</button>`, `<button data-theme="dark">Dark</button>`)
	frameworktest.NoServerErrors(t, out, "Error", "modelcontext:")
}

// TestLazyBoot: a visit without an agent fetches no .wasm; an agent's does,
// once, from where Astro emitted it.
func TestLazyBoot(t *testing.T) {
	url, _ := start(t)
	tab, got := frameworktest.LazyBoot(t, url+"/", mounted, "", 60*time.Second)
	if !strings.HasPrefix(got, "/_astro/modelcontext.") {
		t.Errorf("the agent's visit fetched %s, want the build's /_astro/modelcontext.<hash>.wasm", got)
	}
	frameworktest.NoErrors(t, tab)
}

// TestRecipes drives both recipes in one page: each resource is listed and
// read; of four clicks the third changes nothing, and the fourth's event is
// the sentinel that shows it made none.
func TestRecipes(t *testing.T) {
	url, out := start(t)
	tab := frameworktest.Open(t, url+"/", mounted, 60*time.Second)
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	frameworktest.WaitFor(t, tab, `document.modelContext.getResources().length === 2`, 15*time.Second)
	if listed, want := frameworktest.Listed(t, tab), []string{"state://astro-cart", "state://theme"}; fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("getResources lists %q, want %q", listed, want)
	}
	frameworktest.ListenUpdates(t, tab)
	for _, r := range recipes {
		t.Run(r.section, func(t *testing.T) {
			read := func() string { return frameworktest.Read(t, tab, r.uri) }
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
				frameworktest.WaitFor(t, tab, fmt.Sprintf(`updates.length >= %d`, len(want)), 15*time.Second)
				if got := read(); got != s.value {
					t.Errorf("after click %d readResource(%q) = %s, want %s", i+1, r.uri, got, s.value)
				}
			}
			if updates := frameworktest.Updates(t, tab); fmt.Sprint(updates) != fmt.Sprint(want) {
				t.Errorf("resourceupdated after four clicks: %q, want %q (none for the unchanged value)", updates, want)
			}
		})
	}
	frameworktest.NoErrors(t, tab)
	frameworktest.NoServerErrors(t, out, "Error")
}
