//go:build unix

package sveltekit

import (
	"fmt"
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
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", "sveltekit")
}

// start serves the app's production build (`node build`, adapter-node's
// server) behind a proxy that keeps its answers out of the browser's cache.
func start(t *testing.T) (string, *frameworktest.Output) {
	t.Helper()
	dir := appDir()
	frameworktest.InstalledPackage(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "build", "index.js")); err != nil {
		t.Fatalf("%v: run `make test-sveltekit`, which builds the app", err)
	}
	origin, out := frameworktest.Start(t, dir, nil, "node", "build")
	return frameworktest.Proxy(t, origin, nil), out
}

// The recipes of js/FRAMEWORKS.md, as the app holds them.
var recipes = []struct{ example, file, section, uri string }{
	{"sveltekit-store", "StoreCart.svelte", "store", "state://kit-cart"},
	{"sveltekit-runes", "RunesCart.svelte", "runes", "state://runes-cart"},
}

const mounted = `document.documentElement.dataset.mounted === ""`

// TestBuild: svelte-check found nothing (the recipes type-check, as the app
// uses them), the build holds the module's .wasm once, and the server renders
// the page, the recipes' buttons included, with no error: on the server the
// import installs nothing.
func TestBuild(t *testing.T) {
	dir := appDir()
	for _, r := range recipes {
		b, err := os.ReadFile(filepath.Join(dir, "src", "readme", r.file))
		if err != nil {
			t.Fatalf("%v: run `make test-sveltekit`, which copies the recipes into the app", err)
		}
		if block := docs.Example(t, r.example, "svelte"); string(b) != block.Text {
			t.Errorf("src/readme/%s is not %s's %s example (line %d): run `make test-sveltekit`", r.file, block.File, r.example, block.Line)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "build.log"))
	if err != nil {
		t.Fatalf("%v: run `make test-sveltekit`, which builds the app", err)
	}
	if !strings.Contains(string(log), "svelte-check found 0 errors and 0 warnings") {
		t.Errorf("build.log does not say svelte-check found nothing:\n%s", log)
	}
	wasm := frameworktest.InstalledPackage(t, dir)
	frameworktest.BuiltWasm(t, filepath.Join(dir, "build", "client"), wasm, "run `make test-sveltekit`, which builds the app")

	url, out := start(t)
	frameworktest.CheckServerPage(t, url, "/", out, `<section id="store"><button>Add tea</button>`, `<section id="runes"><button>Add tea</button>`)
	frameworktest.NoServerErrors(t, out, "Error", "modelcontext:")
}

// TestLazyBoot: a visit without an agent fetches no .wasm; an agent's does,
// once.
func TestLazyBoot(t *testing.T) {
	url, _ := start(t)
	tab, got := frameworktest.LazyBoot(t, url+"/", mounted, "", 60*time.Second)
	if !strings.HasPrefix(got, "/_app/immutable/assets/modelcontext.") {
		t.Errorf("the agent's visit fetched %s, want the build's /_app/immutable/assets/modelcontext.<hash>.wasm", got)
	}
	frameworktest.NoErrors(t, tab)
}

// TestRecipes drives both recipes in one page: each resource is listed and
// read; Add tea, Empty the cart, Empty the cart again (an equal value) and
// Add tea make three resourceupdated events, the last the sentinel that
// shows the third change made none. Leaving the page (client-side
// navigation) unregisters both; coming back registers them again.
func TestRecipes(t *testing.T) {
	url, out := start(t)
	tab := frameworktest.Open(t, url+"/", mounted, 60*time.Second)
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	checkListed(t, tab, []string{"state://kit-cart", "state://runes-cart"})
	frameworktest.ListenUpdates(t, tab)
	tea := `[{"sku":"tea","qty":1}]`
	for _, r := range recipes {
		t.Run(r.section, func(t *testing.T) {
			if read := frameworktest.Read(t, tab, r.uri); read != "[]" {
				t.Errorf("readResource(%q) = %s, want []", r.uri, read)
			}
			tab.Eval(`updates.length = 0; true`, nil)
			button := func(n int) string { return fmt.Sprintf(`#%s button:nth-of-type(%d)`, r.section, n) }
			for i, step := range []struct {
				button int
				events int // after the click
			}{{1, 1}, {2, 2}, {2, 2}, {1, 3}} {
				tab.Eval(fmt.Sprintf(`document.querySelector(%q).click(); true`, button(step.button)), nil)
				if i == 2 {
					continue // the unchanged value: the next click's event is the sentinel
				}
				frameworktest.WaitFor(t, tab, fmt.Sprintf(`updates.length >= %d`, step.events), 15*time.Second)
			}
			want := []string{r.uri + " " + tea, r.uri + " []", r.uri + " " + tea}
			if updates := frameworktest.Updates(t, tab); fmt.Sprint(updates) != fmt.Sprint(want) {
				t.Errorf("resourceupdated after add, empty, empty, add: %q, want %q (none for the unchanged value)", updates, want)
			}
			if read := frameworktest.Read(t, tab, r.uri); read != tea {
				t.Errorf("readResource(%q) after the changes = %s, want %s", r.uri, read, tea)
			}
			var shown string
			tab.Eval(fmt.Sprintf(`document.querySelector("#%s p").textContent`, r.section), &shown)
			if shown != "In the cart: 1" {
				t.Errorf("the page shows %q, want In the cart: 1", shown)
			}
		})
	}
	tab.Eval(`document.getElementById("other").click(); true`, nil)
	frameworktest.WaitFor(t, tab, `document.documentElement.dataset.mounted === "other"`, 15*time.Second)
	checkListed(t, tab, nil)
	tab.Eval(`document.getElementById("back").click(); true`, nil)
	frameworktest.WaitFor(t, tab, mounted, 15*time.Second)
	checkListed(t, tab, []string{"state://kit-cart", "state://runes-cart"})
	frameworktest.NoErrors(t, tab)
	frameworktest.NoServerErrors(t, out, "Error")
}

func checkListed(t *testing.T, tab *browsertest.Tab, want []string) {
	t.Helper()
	if got := frameworktest.Listed(t, tab); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("getResources lists %q, want %q", got, want)
	}
}
