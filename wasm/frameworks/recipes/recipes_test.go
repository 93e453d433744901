//go:build unix

package recipes

import (
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

func appDir() string {
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", "recipes")
}

// static maps the paths the recipes load to the installed files.
var static = map[string]string{
	"/static/modelcontext.js":         "modelcontext/modelcontext.js",
	"/static/modelcontext-runtime.js": "modelcontext/modelcontext-runtime.js",
	"/static/modelcontext.wasm":       "modelcontext/modelcontext.wasm",
	"/static/htmx.min.js":             "htmx.org/dist/htmx.min.js",
	"/static/turbo.es2017-esm.js":     "@hotwired/turbo/dist/turbo.es2017-esm.js",
	"/static/alpine.min.js":           "alpinejs/dist/cdn.min.js",
}

// cart is the server's side of a recipe: the number of items, and the
// routes that answer the page's requests.
type cart struct {
	mu sync.Mutex
	n  int
}

func (c *cart) set(f func(int) int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = f(c.n)
	return c.n
}

func add(n int) int     { return n + 1 }
func empty(int) int     { return 0 }
func current(n int) int { return n }

// recipe is one page of js/FRAMEWORKS.md and how the test drives it.
type recipe struct {
	example string
	uri     string
	// mounted is true in the page once the library has started.
	mounted string
	// addButton and emptyButton are the selectors of the two buttons.
	addButton, emptyButton string
	// swapped is true once the element of the resource is not the one the
	// page held at the click (window.before): the swap is done. Empty for
	// a recipe that swaps nothing.
	swapped string
	// values are what the resource reads after no change, one item and none.
	values [3]string
	// routes adds the server's answers, from the recipe's templates.
	routes func(t *testing.T, mux *http.ServeMux, c *cart)
}

// tmpl parses the Go html/template of example name.
func tmpl(t *testing.T, name string) *template.Template {
	t.Helper()
	return template.Must(template.New(name).Parse(docs.Example(t, name, "html").Text))
}

func render(w http.ResponseWriter, tp *template.Template, contentType string, n int) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-store")
	tp.Execute(w, n)
}

var recipes = []recipe{
	{
		example: "htmx", uri: "shop://cart",
		mounted:   `typeof htmx === "object"`,
		addButton: `button[hx-post="/cart/add"]`, emptyButton: `button[hx-post="/cart/empty"]`,
		swapped: `document.getElementById("cart") !== before`,
		values:  [3]string{`"In the cart: 0"`, `"In the cart: 1"`, `"In the cart: 0"`},
		routes: func(t *testing.T, mux *http.ServeMux, c *cart) {
			fragment := tmpl(t, "htmx-cart")
			mux.HandleFunc("POST /cart/add", func(w http.ResponseWriter, r *http.Request) {
				render(w, fragment, "text/html; charset=utf-8", c.set(add))
			})
			mux.HandleFunc("POST /cart/empty", func(w http.ResponseWriter, r *http.Request) {
				render(w, fragment, "text/html; charset=utf-8", c.set(empty))
			})
		},
	},
	{
		example: "turbo", uri: "shop://cart",
		mounted:   `typeof Turbo === "object"`,
		addButton: `#cart-frame button`, emptyButton: `form[action="/cart/empty"] button`,
		swapped: `document.getElementById("cart") !== before`,
		values:  [3]string{`"In the cart: 0"`, `"In the cart: 1"`, `"In the cart: 0"`},
		routes: func(t *testing.T, mux *http.ServeMux, c *cart) {
			frame, stream := tmpl(t, "turbo-frame"), tmpl(t, "turbo-stream")
			mux.HandleFunc("POST /cart/add", func(w http.ResponseWriter, r *http.Request) {
				c.set(add)
				http.Redirect(w, r, "/cart", http.StatusSeeOther)
			})
			mux.HandleFunc("GET /cart", func(w http.ResponseWriter, r *http.Request) {
				render(w, frame, "text/html; charset=utf-8", c.set(current))
			})
			mux.HandleFunc("POST /cart/empty", func(w http.ResponseWriter, r *http.Request) {
				render(w, stream, "text/vnd.turbo-stream.html; charset=utf-8", c.set(empty))
			})
		},
	},
	{
		example: "alpine", uri: "state://alpine-cart",
		mounted:   `document.querySelector("[x-data] span")?.textContent === "0"`,
		addButton: `[x-data] button:nth-of-type(1)`, emptyButton: `[x-data] button:nth-of-type(2)`,
		values: [3]string{`[]`, `[{"sku":"tea","qty":1}]`, `[]`},
	},
}

// TestRecipes serves each page as written and drives it: a visit without an
// agent fetches no .wasm (the page's markup and code only produce); then an
// agent finds the resource listed and reads it; Add, Empty, Empty again (the
// same value) and Add make three resourceupdated events, the last the
// sentinel that shows the unchanged one made none; after each the resource
// is listed once and reads what the page shows.
func TestRecipes(t *testing.T) {
	dir := appDir()
	frameworktest.InstalledPackage(t, dir)
	for _, r := range recipes {
		t.Run(r.example, func(t *testing.T) {
			mux := http.NewServeMux()
			for p, f := range static {
				file := filepath.Join(dir, "node_modules", filepath.FromSlash(f))
				if _, err := os.Stat(file); err != nil {
					t.Fatalf("%v: run `make test-recipes`, which installs the recipes' libraries", err)
				}
				mux.HandleFunc("GET "+p, func(w http.ResponseWriter, req *http.Request) { http.ServeFile(w, req, file) })
			}
			page := "<!doctype html>\n<meta charset=\"utf-8\">\n<title>" + r.example + "</title>\n" + docs.Example(t, r.example, "html").Text
			mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, req *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte(page))
			})
			c := &cart{}
			if r.routes != nil {
				r.routes(t, mux, c)
			}
			srv := httptest.NewServer(browsertest.NoCache(mux))
			t.Cleanup(srv.Close)

			tab, _ := frameworktest.LazyBoot(t, srv.URL+"/", r.mounted, "", 60*time.Second)
			check(t, tab, r, 0)
			frameworktest.ListenUpdates(t, tab)
			steps := []struct {
				button string
				value  int // the index in r.values after it
			}{{r.addButton, 1}, {r.emptyButton, 2}, {r.emptyButton, 2}, {r.addButton, 1}}
			var want []string
			for i, s := range steps {
				tab.Eval(fmt.Sprintf(`window.before = document.getElementById("cart"); document.querySelector(%q).click(); true`, s.button), nil)
				if r.swapped != "" {
					waitFor(t, tab, r.swapped, "the swap")
				}
				if i == 2 {
					continue // the same value: the next step's event is the sentinel
				}
				want = append(want, r.uri+" "+r.values[s.value])
				waitFor(t, tab, fmt.Sprintf(`updates.length >= %d`, len(want)), "resourceupdated")
				check(t, tab, r, s.value)
			}
			if updates := frameworktest.Updates(t, tab); fmt.Sprint(updates) != fmt.Sprint(want) {
				t.Errorf("resourceupdated after add, empty, empty, add: %q, want %q (none for the unchanged value)", updates, want)
			}
			frameworktest.NoErrors(t, tab)
		})
	}
}

// check: the resource is listed once and reads r.values[v].
func check(t *testing.T, tab *browsertest.Tab, r recipe, v int) {
	t.Helper()
	var got struct {
		Listed []string
		Read   string
	}
	tab.Eval(fmt.Sprintf(`(async () => ({
		listed: document.modelContext.getResources().map((r) => r.uri),
		read: JSON.stringify(await document.modelContext.readResource(%q)),
	}))()`, r.uri), &got)
	if fmt.Sprint(got.Listed) != fmt.Sprint([]string{r.uri}) {
		t.Errorf("getResources lists %q, want %s once", got.Listed, r.uri)
	}
	if got.Read != r.values[v] {
		t.Errorf("readResource(%q) = %s, want %s", r.uri, got.Read, r.values[v])
	}
}

func waitFor(t *testing.T, tab *browsertest.Tab, cond, what string) {
	t.Helper()
	if !frameworktest.Wait(t, tab, cond, 15*time.Second) {
		var state any
		tab.Eval(`({ listed: document.modelContext.getResources().map((r) => r.uri), updates: window.updates, body: document.body.innerHTML })`, &state)
		t.Fatalf("waited for %s (%s); the page: %v\n%s", what, cond, state, tab.ConsoleText())
	}
}
