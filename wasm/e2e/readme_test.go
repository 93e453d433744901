package e2e

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
)

// The guides' examples, run as written: each test takes a code block out of
// the Markdown file that holds it and runs it in a page the way a new user
// would.

// docBlock returns the first ```lang block after "<!-- example: name -->",
// in whichever Markdown file of the repository holds that marker.
func docBlock(t *testing.T, name, lang string) string {
	t.Helper()
	return docs.Example(t, name, lang).Text
}

// TestREADMEExample pastes the README's first html example into a page and
// checks that an agent sees the resource it registers.
func TestREADMEExample(t *testing.T) {
	requireImpl(t, "wasm")
	example := docBlock(t, "five-lines", "html")
	browsertest.SharedServer(t).Handle("/readme-example.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<script src=\"/harness.js\"></script>\n"+example)
	}))
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/readme-example.html"))
	p := &page{Tab: tab}
	p.expect(readmeAgent, readmeAgentWant)
}

// readmeAgent is what an agent does with the README's cart, in the page.
const readmeAgent = `const pushes = [];
mc.addEventListener('resourceupdated', (e) => pushes.push(e.detail));
addToCart('mug');
listeners.forEach((f) => f()); // nothing changed: suppressed
return {list: mc.getResources(), read: await mc.readResource('state://cart'), pushes, errors: H.log.filter((l) => l.level !== 'debug').length};`

const readmeAgentWant = `{"list": [{"uri": "state://cart", "name": "cart", "description": "What the visitor is about to buy", "mimeType": "application/json", "subscribable": true}],
  "read": {"items": [{"sku": "mug", "qty": 1}]},
  "pushes": [{"uri": "state://cart", "value": {"items": [{"sku": "mug", "qty": 1}]}, "revision": 2}],
  "errors": 0}`

// TestREADMEImportExample runs the README's import example (TypeScript,
// its types stripped by esbuild as a bundler would) as a module that
// imports "modelcontext" (mapped to the built module, as a bundler would
// resolve it), then the README's "What an agent sees" block. make types
// and make test-package type-check both.
func TestREADMEImportExample(t *testing.T) {
	requireImpl(t, "wasm")
	example := docBlock(t, "five-lines", "ts")
	agent := docBlock(t, "agent-sees", "ts")
	module := stripTypes(t, example+`
window.cart = cart;
window.listeners = listeners;
window.addToCart = addToCart;
window.__agent = (async () => {
`+agent+`
})();
`)
	browsertest.SharedServer(t).Handle("/readme-import.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html>
<meta charset=utf-8>
<script src="/harness.js"></script>
<script type="importmap">{"imports": {"modelcontext": "/static/modelcontext.mjs"}}</script>
<script type="module">
`+module+`
</script>
`)
	}))
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/readme-import.html"))
	p := &page{Tab: tab}
	p.expect(`for (let i = 0; i < 1500 && !window.__agent; i++) await new Promise((r) => setTimeout(r, 10));
await window.__agent;
const cart = window.cart, listeners = window.listeners, addToCart = window.addToCart;
`+readmeAgent, readmeAgentWant)
}

// stripTypes turns TypeScript into JavaScript with the esbuild of
// testdata/mcpclient (make mcpclient installs it), without bundling: the
// imports stay as they are.
func stripTypes(t *testing.T, ts string) string {
	t.Helper()
	esbuild := filepath.Join(browsertest.RepoRoot(), "testdata", "mcpclient", "node_modules", ".bin", "esbuild")
	if _, err := os.Stat(esbuild); err != nil {
		t.Fatalf("%s missing: run make mcpclient", esbuild)
	}
	cmd := exec.Command(esbuild, "--loader=ts", "--format=esm", "--target=es2022", "--log-level=warning")
	cmd.Stdin = strings.NewReader(ts)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("esbuild --loader=ts: %v\n%s", err, errOut.String())
	}
	return out.String()
}

// TestREADMEMCPClientExample bundles the README's MCP client example with
// the stock client of testdata/mcpclient (make mcpclient installs it), runs
// it in a page that serves the README's cart over MCP, changes the cart,
// and checks the client printed the list and the change.
func TestREADMEMCPClientExample(t *testing.T) {
	requireImpl(t, "wasm")
	p := mcpClientPage(t, "readme-client", docBlock(t, "mcp-client", "js"))
	p.expect(`const until = async (f) => { for (let i = 0; i < 1500 && !f(); i++) await new Promise((r) => setTimeout(r, 10)); };
await until(() => window.__subscribed);
addToCart('mug');
await until(() => window.__logs.some((l) => l.startsWith('changed:')));
return window.__logs.filter((l) => l.startsWith('resources:') || l.startsWith('changed:'));`,
		`["resources: state://cart", "changed: state://cart {\"items\":[{\"sku\":\"mug\",\"qty\":1}]}"]`)
}

// mcpClientPage bundles an MCP client example from the docs with the stock
// client of testdata/mcpclient (make mcpclient installs it), as the
// module script /<name>.js of a page /<name>.html that holds the README's
// cart (five lines) served over MCP (data-mcp) and records console.log in
// window.__logs, and opens that page. The example sets window.__subscribed
// when it has run to its end.
func mcpClientPage(t *testing.T, name, example string) *page {
	t.Helper()
	requireImpl(t, "wasm")
	dir := filepath.Join(browsertest.RepoRoot(), "testdata", "mcpclient")
	esbuild := filepath.Join(dir, "node_modules", ".bin", "esbuild")
	if _, err := os.Stat(esbuild); err != nil {
		t.Fatalf("%s missing: run make mcpclient", esbuild)
	}
	cmd := exec.Command(esbuild, "--bundle", "--format=esm", "--target=es2022", "--log-level=warning")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(example + "\nwindow.__subscribed = true;\n")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("bundling the %s example: %v\n%s", name, err, errOut.String())
	}
	bundle := out.String()
	html := docBlock(t, "five-lines", "html")
	srv := browsertest.SharedServer(t)
	srv.Handle("/"+name+".js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, bundle)
	}))
	srv.Handle("/"+name+".html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<script src=\"/harness.js\"></script>\n"+
			strings.Replace(html, `<script src="/static/modelcontext.js">`, `<script src="/static/modelcontext.js" data-mcp>`, 1)+
			logCapture+"<script type=\"module\" src=\"/"+name+".js\"></script>\n")
	}))
	tab := browsertest.NewTab(t)
	tab.Navigate(srv.URL("/" + name + ".html"))
	return &page{Tab: tab}
}
