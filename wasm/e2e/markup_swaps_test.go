package e2e

import (
	"fmt"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// Pages swap fragments of themselves, and a declarative resource must
// survive its element being rendered anew (wasm/CONTRACT.md §8.1): the
// element that takes the place of the one holding a uri takes the resource
// over, without a resourcelistchanged when its fields are the same, with a
// push when its value changed. The libraries are the real ones, from npm
// (testdata/swaps, served at /swaps/); the fragments they fetch come from
// swapFragment.

var swapsOnce sync.Once

// openSwaps serves testdata/swaps/node_modules at /swaps/ and the fragments
// at /markup-swap/, and opens page in a fresh tab.
func openSwaps(t *testing.T, page string) *browsertest.Tab {
	t.Helper()
	requireImpl(t, "wasm")
	dir := filepath.Join(browsertest.RepoRoot(), "testdata", "swaps", "node_modules")
	if _, err := os.Stat(filepath.Join(dir, "htmx.org")); err != nil {
		t.Fatalf("testdata/swaps/node_modules is missing: run make testdata/swaps/node_modules/.package-lock.json (make test-browser does)")
	}
	swapsOnce.Do(func() {
		srv := browsertest.SharedServer(t)
		srv.Handle("/swaps/", http.StripPrefix("/swaps/", http.FileServer(http.Dir(dir))))
		srv.Handle("/markup-swap/", http.HandlerFunc(swapFragment))
	})
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(browsertest.URL(t, page))
	return tab
}

// swapFragment renders what the swapping libraries fetch: the product's
// <section> for htmx (?price, ?title), a page with the product's
// turbo-frame for Turbo (?price), and a turbo-stream that replaces the cart
// count (?count).
func swapFragment(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	num := func(name string) int {
		n, _ := strconv.Atoi(q.Get(name))
		return n
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch r.URL.Path {
	case "/markup-swap/product":
		title := ""
		if t := q.Get("title"); t != "" {
			title = ` data-title="` + html.EscapeString(t) + `"`
		}
		fmt.Fprintf(w, `<section id="product" data-resource="shop://product" data-name="product"%s>OLED TV 55" - %d EUR</section>`, title, num("price"))
	case "/markup-swap/turbo-frame":
		fmt.Fprintf(w, `<!doctype html><html><head><title>Product</title></head><body>
<turbo-frame id="product">
  <section data-resource="shop://product" data-name="product">OLED TV 55" - %d EUR</section>
  <script type="application/ld+json" data-resource="shop://product-data" data-name="product-data">{"price": %d}</script>
  <a id="next" href="/markup-swap/turbo-frame?price=%d">cheaper</a>
</turbo-frame>
</body></html>`, num("price"), num("price"), num("price")-100)
	case "/markup-swap/turbo-stream":
		w.Header().Set("Content-Type", "text/vnd.turbo-stream.html; charset=utf-8")
		fmt.Fprintf(w, `<turbo-stream action="replace" target="cart-count"><template><span id="cart-count" data-resource="shop://cart-count" data-name="cart-count">%d</span></template></turbo-stream>`, num("count"))
	default:
		http.NotFound(w, r)
	}
}

// watchProduct is a scenario's prelude: lists and pushes it records, and
// state() which says what an agent sees at that point.
const watchProduct = `await mc.ready;
const lists = H.listChanges(mc);
const pushes = [];
mc.addEventListener('resourceupdated', (e) => pushes.push(e.detail.uri + ' ' + JSON.stringify(e.detail.value)));
const read = async (u) => { try { return await mc.readResource(u); } catch (e) { return e.name; } };
const state = async (...uris) => {
  await H.settle();
  const out = {listed: mc.getResources().map((d) => d.uri + (d.title ? ' (' + d.title + ')' : '')), lists: lists.count, pushes: pushes.splice(0)};
  lists.count = 0;
  for (const u of uris) out[u] = await read(u);
  return out;
};
`

func TestMarkupSwaps(t *testing.T) {
	requireMCPBundles(t)
	t.Run("htmx outerHTML", func(t *testing.T) {
		// Issue 45, row 2: the new element was refused and the old one's
		// removal then unregistered the uri for good; a subscribed MCP
		// client got list_changed, then "Resource not found".
		evalJSON(t, openSwaps(t, "/markup-htmx.html"), watchProduct+`
const c = await mcpTest.connect();
await c.client.subscribeResource({uri: 'shop://product'});
const swap = async (id) => {
  const done = new Promise((r) => document.addEventListener('htmx:after:swap', r, {once: true}));
  document.getElementById(id).click();
  await done;
  const s = await state('shop://product');
  // A round trip: the notifications sent before it have arrived.
  s.mcpRead = (await c.client.readResource({uri: 'shop://product'})).contents[0].text;
  s.mcp = c.notifications.splice(0).map((n) => n.method.replace('notifications/resources/', '') + (n.params && n.params.uri ? ' ' + n.params.uri : ''));
  return s;
};
const same = await swap('same');
const cheaper = await swap('cheaper');
const retitled = await swap('retitled');
document.getElementById('product').textContent = 'OLED TV 55" - 699 EUR';
await c.waitNotifications('notifications/resources/updated', 1);
const later = await state('shop://product');
later.mcp = c.notifications.splice(0).map((n) => n.method.replace('notifications/resources/', ''));
return {same, cheaper, retitled, later, warnings: H.mine('warn'), errors: H.mine('error')};`,
			`{"same": {"listed": ["shop://product"], "lists": 0, "pushes": [], "shop://product": "OLED TV 55\" - 899 EUR", "mcpRead": "OLED TV 55\" - 899 EUR", "mcp": []},
			"cheaper": {"listed": ["shop://product"], "lists": 0, "pushes": ["shop://product \"OLED TV 55\\\" - 799 EUR\""], "shop://product": "OLED TV 55\" - 799 EUR", "mcpRead": "OLED TV 55\" - 799 EUR", "mcp": ["updated shop://product"]},
			"retitled": {"listed": ["shop://product (Today only)"], "lists": 1, "pushes": [], "shop://product": "OLED TV 55\" - 799 EUR", "mcpRead": "OLED TV 55\" - 799 EUR", "mcp": ["list_changed"]},
			"later": {"listed": ["shop://product (Today only)"], "lists": 0, "pushes": ["shop://product \"OLED TV 55\\\" - 699 EUR\""], "shop://product": "OLED TV 55\" - 699 EUR", "mcp": ["updated"]},
			"warnings": [], "errors": []}`)
	})
	t.Run("Turbo frame navigation and stream replace", func(t *testing.T) {
		evalJSON(t, openSwaps(t, "/markup-turbo.html"), watchProduct+`
const frame = document.getElementById('product');
const loaded = new Promise((r) => frame.addEventListener('turbo:frame-load', r, {once: true}));
document.getElementById('next').click();
await loaded;
const navigated = await state('shop://product', 'shop://product-data');
const response = await fetch('/markup-swap/turbo-stream?count=3', {headers: {Accept: 'text/vnd.turbo-stream.html'}});
Turbo.renderStreamMessage(await response.text());
// The stream element renders after a repaint and then removes itself.
while (document.querySelector('turbo-stream') || document.getElementById('cart-count').textContent !== '3') await H.sleep(10);
const streamed = await state('shop://cart-count');
return {navigated, streamed, warnings: H.mine('warn'), errors: H.mine('error')};`,
			`{"navigated": {"listed": ["shop://product", "shop://product-data", "shop://cart-count"], "lists": 0,
				"pushes": ["shop://product \"OLED TV 55\\\" - 799 EUR\"", "shop://product-data {\"price\":799}"],
				"shop://product": "OLED TV 55\" - 799 EUR", "shop://product-data": {"price": 799}},
			"streamed": {"listed": ["shop://product", "shop://product-data", "shop://cart-count"], "lists": 0,
				"pushes": ["shop://cart-count \"3\""], "shop://cart-count": "3"},
			"warnings": [], "errors": []}`)
	})
	t.Run("code re-renders: Preact, innerHTML, replaceWith", func(t *testing.T) {
		evalJSON(t, openSwaps(t, "/markup-render.html"), `while (!window.rendered) await H.sleep(10);
`+watchProduct+`
const uris = ['shop://product', 'shop://cart-count', 'shop://note'];
renderCart('b', 2); // a new element, the same value
const preactSame = await state(...uris);
renderCart('c', 3);
const preactChanged = await state(...uris);
const box = document.getElementById('box');
box.innerHTML = box.innerHTML;
const innerHTML = await state(...uris);
const note = document.getElementById('note');
const fresh = note.cloneNode(true);
fresh.textContent = 'Ships tomorrow';
note.replaceWith(fresh);
const replaced = await state(...uris);
fresh.textContent = 'Ships on Monday';
const later = await state('shop://note');
return {preactSame, preactChanged, innerHTML, replaced, later, warnings: H.mine('warn'), errors: H.mine('error')};`,
			`{"preactSame": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": [],
				"shop://product": "OLED TV 55\" - 899 EUR", "shop://cart-count": "2", "shop://note": "Ships today"},
			"preactChanged": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": ["shop://cart-count \"3\""],
				"shop://product": "OLED TV 55\" - 899 EUR", "shop://cart-count": "3", "shop://note": "Ships today"},
			"innerHTML": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": [],
				"shop://product": "OLED TV 55\" - 899 EUR", "shop://cart-count": "3", "shop://note": "Ships today"},
			"replaced": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": ["shop://note \"Ships tomorrow\""],
				"shop://product": "OLED TV 55\" - 899 EUR", "shop://cart-count": "3", "shop://note": "Ships tomorrow"},
			"later": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": ["shop://note \"Ships on Monday\""], "shop://note": "Ships on Monday"},
			"warnings": [], "errors": []}`)
	})
	t.Run("a refused element takes over when the holder leaves", func(t *testing.T) {
		evalJSON(t, openSwaps(t, "/markup-render.html"), `while (!window.rendered) await H.sleep(10);
`+watchProduct+`
const old = document.getElementById('note');
const second = document.createElement('p');
second.dataset.resource = 'shop://note'; second.dataset.name = 'note'; second.textContent = 'Ships tomorrow';
document.querySelector('main').append(second); // refused: the uri is taken
const refused = await state('shop://note');
old.remove(); // in a later batch: the refused one is looked at again
const handedOn = await state('shop://note');
second.textContent = 'Ships on Monday';
const later = await state('shop://note');
second.remove(); // nothing left to take it over
const gone = await state('shop://note');
return {refused, handedOn, later, gone, warnings: H.mine('warn')};`,
			`{"refused": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": [], "shop://note": "Ships today"},
			"handedOn": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": ["shop://note \"Ships tomorrow\""], "shop://note": "Ships tomorrow"},
			"later": {"listed": ["shop://product", "shop://note", "shop://cart-count"], "lists": 0, "pushes": ["shop://note \"Ships on Monday\""], "shop://note": "Ships on Monday"},
			"gone": {"listed": ["shop://product", "shop://cart-count"], "lists": 1, "pushes": [], "shop://note": "NotFoundError"},
			"warnings": ["modelcontext: the element with data-resource=\"shop://note\" is ignored: earlier markup registered \"shop://note\", and markup never replaces a registered resource"]}`)
	})
}
