package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestREADMEExample pastes the README's first html example into a page, as a
// new user would, and checks that an agent sees the resource it registers.
func TestREADMEExample(t *testing.T) {
	requireImpl(t, "wasm")
	b, err := os.ReadFile(filepath.Join(browsertest.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```html\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no ```html example")
	}
	browsertest.SharedServer(t).Handle("/readme-example.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<script src=\"/harness.js\"></script>\n"+example)
	}))
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/readme-example.html"))
	p := &page{Tab: tab, impl: "wasm"}
	p.expect(`const pushes = [];
mc.addEventListener('resourceupdated', (e) => pushes.push(e.detail));
cart.items.push({sku: 'mug', qty: 1});
listeners.forEach((f) => f());
listeners.forEach((f) => f()); // nothing changed: suppressed
return {list: mc.getResources(), read: await mc.readResource('state://cart'), pushes, errors: H.log.filter((l) => l.level !== 'debug').length};`,
		`{"list": [{"uri": "state://cart", "name": "cart", "description": "What the visitor is about to buy", "mimeType": "application/json", "subscribable": true}],
  "read": {"items": [{"sku": "mug", "qty": 1}]},
  "pushes": [{"uri": "state://cart", "value": {"items": [{"sku": "mug", "qty": 1}]}}],
  "errors": 0}`)
}
