package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// js/MCP.md's "Following a page at the least cost", run as written beside
// the README's five-line cart: an agent in the page, an MCP client, and the
// browser's agent through read_changes.

// logCapture records what the page logs, for the examples that print.
const logCapture = "<script>window.__logs = []; const log = console.log; console.log = (...a) => { window.__logs.push(a.join(' ')); log(...a); };</script>\n"

// untilJS waits (bounded) for a condition the examples' logs reach.
const untilJS = `const until = async (f) => { for (let i = 0; i < 1500 && !f(); i++) await new Promise((r) => setTimeout(r, 10)); };
`

func TestFollowInPageExample(t *testing.T) {
	requireImpl(t, "wasm")
	example := docBlock(t, "follow-in-page", "js")
	html := docBlock(t, "five-lines", "html")
	browsertest.SharedServer(t).Handle("/follow-in-page.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n<script src=\"/harness.js\"></script>\n"+html+logCapture+
			"<script>\n"+example+"\nwindow.turn = turn;\n</script>\n")
	}))
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, "/follow-in-page.html"))
	p := &page{Tab: tab}
	// Five items make the cart long enough for a patch to be shorter than it.
	p.expect(untilJS+`
for (const sku of ['mug', 'tea', 'pen', 'cup', 'hat', 'bag']) addToCart(sku);
await until(() => window.__logs.filter((l) => l.startsWith('patch:')).length === 6);
await window.turn();
const patches = window.__logs.filter((l) => l.startsWith('patch:')).map((l) => l.split(' ').slice(2).join(' '));
return {first: patches[0], last: patches[5], changed: window.__logs.filter((l) => l.startsWith('changed:')).length,
  revisionsGrow: window.__logs.filter((l) => l.startsWith('patch:')).map((l) => Number(l.split(' ')[1])).every((n, i, a) => i === 0 || n > a[i - 1])};`,
		`{"first": "null", "last": "[{\"op\":\"add\",\"path\":\"/items/5\",\"value\":{\"sku\":\"bag\",\"qty\":1}}]", "changed": 1, "revisionsGrow": true}`)
}

func TestFollowMCPExample(t *testing.T) {
	p := mcpClientPage(t, "follow-mcp", docBlock(t, "follow-mcp", "js"))
	var got struct {
		Logs []string
		Cart string
		Read int
	}
	p.run(untilJS+`
await until(() => window.__subscribed);
let reads = 0;
const skus = ['mug', 'tea', 'pen', 'cup', 'hat', 'bag'];
for (const [i, sku] of skus.entries()) {
  addToCart(sku);
  await until(() => window.__logs.filter((l) => l.startsWith('now:')).length === i + 1);
}
return {logs: window.__logs.filter((l) => l.startsWith('now:')), cart: JSON.stringify(cart)};`, &got)
	if len(got.Logs) != 6 {
		t.Fatalf("the example printed %d updates, want 6: %q\n%s", len(got.Logs), got.Logs, p.ConsoleText())
	}
	for i, l := range got.Logs {
		// "now: state://cart <JSON> at revision N"
		f := strings.Fields(l)
		if len(f) != 6 || f[1] != "state://cart" || f[3] != "at" || f[4] != "revision" {
			t.Fatalf("update %d printed %q", i, l)
		}
		var v struct{ Items []any }
		if err := json.Unmarshal([]byte(f[2]), &v); err != nil || len(v.Items) != i+1 {
			t.Errorf("update %d: the client's cart %s has %d items, want %d (%v)", i, f[2], len(v.Items), i+1, err)
		}
	}
	if last := strings.Fields(got.Logs[5])[2]; last != got.Cart {
		t.Errorf("the client followed the cart to %s, the page has %s", last, got.Cart)
	}
}

func TestFollowNativeExample(t *testing.T) {
	example := docBlock(t, "follow-native", "js")
	last := strings.LastIndex(example, "await mc.executeTool(")
	if last < 0 {
		t.Fatalf("the follow-native example has no executeTool call:\n%s", example)
	}
	body := example[:last] + "return " + example[last:]
	p := openNative(t, "")
	var got string
	p.Eval("(async () => {\n"+
		"const cart = {items: []};\n"+
		"let ping; document.modelContext.registerResource({uri: 'state://cart', name: 'cart', get: () => cart, subscribe: (f) => (ping = f, () => {})});\n"+
		"const addToCart = (sku) => { cart.items.push({sku, qty: 1}); ping(); };\n"+
		body+"\n})()", &got)
	var answer struct {
		Revision float64
		Reset    bool
		Changes  []map[string]any
	}
	if err := json.Unmarshal([]byte(got), &answer); err != nil {
		t.Fatalf("read_changes answered %q: %v\n%s", got, err, p.ConsoleText())
	}
	if answer.Reset || answer.Revision == 0 || len(answer.Changes) != 1 || answer.Changes[0]["uri"] != "state://cart" {
		t.Fatalf("read_changes since the first answer: %s; want the cart alone, no reset\n%s", got, p.ConsoleText())
	}
	if _, ok := answer.Changes[0]["value"]; !ok {
		if _, ok := answer.Changes[0]["patch"]; !ok {
			t.Errorf("the cart's change has neither a value nor a patch: %s", got)
		}
	}
}
