package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

// demoDist is the folder the demo test serves at /static/: the real build in
// <repo>/dist unless $DEMO_DIST names another folder holding a
// modelcontext.js (for example one holding the plain-JavaScript reference).
func demoDist(t *testing.T) string {
	t.Helper()
	dist := filepath.Join(browsertest.RepoRoot(), "dist")
	if d := os.Getenv("DEMO_DIST"); d != "" {
		dist = d
	}
	if _, err := os.Stat(filepath.Join(dist, "modelcontext.js")); err != nil {
		t.Fatalf("%s not found: run `make build` first (the demo test drives the built module)", filepath.Join(dist, "modelcontext.js"))
	}
	return dist
}

// mcpVendor is the folder holding the stock MCP client bundle the panel's MCP
// tab loads (make mcpclient writes it), for serve's -vendor flag.
func mcpVendor(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(browsertest.RepoRoot(), "testdata", "out")
	if _, err := os.Stat(filepath.Join(dir, "mcpclient.js")); err != nil {
		t.Fatalf("%s not found: run `make mcpclient` first (the demo's MCP tab loads the stock MCP client bundle)", filepath.Join(dir, "mcpclient.js"))
	}
	return dir
}

// startDemo runs the serve command as `serve -addr 127.0.0.1:0 -demo <demo>
// -dist <dist> [more flags]` and returns the URL it printed. The server is
// shut down, and run must return nil, when the test ends.
func startDemo(t *testing.T, demoDir, distDir string, more ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	args := append([]string{"-addr", "127.0.0.1:0", "-demo", demoDir, "-dist", distDir}, more...)
	go func() {
		err := run(ctx, args, pw)
		pw.Close()
		done <- err
	}()
	line, readErr := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	if readErr != nil {
		cancel()
		t.Fatalf("serve printed no address (%v); run returned: %v", readErr, <-done)
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: run returned %v after shutdown", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("serve: run did not return within 10s of cancel")
		}
	})
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "demo: ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("serve printed %q, want \"demo: http://127.0.0.1:<port>/\"", line)
	}
	return url
}

// counts is what the panel shows for one uri: pushes dispatched and
// suppressed.
type counts struct {
	D int `json:"d"`
	S int `json:"s"`
}

// panelState is what the test reads off the agent panel.
type panelState struct {
	Status    string            `json:"status"`
	URIs      []string          `json:"uris"`      // resource list, in order
	Counters  map[string]counts `json:"counters"`  // per-resource counters (data-dispatched / data-suppressed)
	Log       map[string]counts `json:"log"`       // push-log rows per uri and kind
	Totals    counts            `json:"totals"`    // the two totals in the log's header
	Events    map[string]int    `json:"events"`    // resourceupdated events seen by the test's own listener
	Path      string            `json:"path"`      // location.pathname
	ValueText map[string]string `json:"valueText"` // text of each resource's read-out, if open
}

const readPanel = `(() => {
  const counters = {}, log = {}, valueText = {};
  const uris = [];
  for (const li of document.querySelectorAll('#resource-list > li.res')) {
    uris.push(li.dataset.uri);
    counters[li.dataset.uri] = { d: Number(li.dataset.dispatched), s: Number(li.dataset.suppressed) };
    const read = li.querySelector('.res-read');
    if (read && !read.hidden) valueText[li.dataset.uri] = li.querySelector('.res-value').textContent;
  }
  const rows = document.querySelectorAll('#push-log > li.push');
  for (const row of rows) {
    const c = log[row.dataset.uri] || (log[row.dataset.uri] = { d: 0, s: 0 });
    if (row.dataset.kind === 'dispatched') c.d++; else if (row.dataset.kind === 'suppressed') c.s++;
  }
  return {
    status: document.querySelector('#agent-status').dataset.state,
    uris, counters, log, valueText,
    totals: { d: Number(document.querySelector('#total-dispatched').textContent), s: Number(document.querySelector('#total-suppressed').textContent) },
    events: Object.fromEntries(window.__demoTestEvents || []),
    path: location.pathname,
  };
})()`

// listenEvents counts resourceupdated events per uri independently of the
// panel, as a cross-check.
const listenEvents = `(() => {
  const seen = new Map();
  window.__demoTestEvents = seen;
  document.modelContext.addEventListener('resourceupdated', (e) => seen.set(e.detail.uri, (seen.get(e.detail.uri) || 0) + 1));
  return true;
})()`

// patience bounds every wait for something that must happen (a push shown,
// a read answered): generous, since a busy machine only makes it slower.
// Nothing waits a fixed time to see that something does not happen: a
// sentinel that would come after it does (sentinelJS).
const patience = 30 * time.Second

// demoVisit drives the demo page and keeps the expected panel state in step.
type demoVisit struct {
	t    *testing.T
	tab  *browsertest.Tab
	want map[string]counts
	uris []string
	dir  string // screenshot folder when $DEMO_SCREENSHOT_DIR is unset
}

// sentinelJS posts a ping to a second MCP server of the module's, on a
// channel of the test's own (started at the first call; neither tab of the
// panel sees it), and resolves once the answer has come. Everything a step
// set off before it has reached the panel by then: a push is dispatched, and
// its MCP notifications posted, when its onChange is called or when its
// getter's Promise settles, within the task that called onChange; and
// message events reach every listener in order, so each notification posted
// before the ping has reached the MCP tab before the ping's answer comes.
const sentinelJS = `(() => {
  const channel = 'demo-test-sentinel';
  if (!window.__demoSentinel) {
    document.modelContext.serveMCP({channel});
    let n = 0;
    window.__demoSentinel = () => new Promise((resolve) => {
      const id = 'sentinel-' + (++n);
      const answer = (ev) => {
        const d = ev.data;
        if (ev.source !== window || !d || d.channel !== channel || d.direction !== 'server-to-client' || !d.payload || d.payload.id !== id) return;
        window.removeEventListener('message', answer);
        resolve(true);
      };
      window.addEventListener('message', answer);
      window.postMessage({channel, type: 'mcp', direction: 'client-to-server', payload: {jsonrpc: '2.0', id, method: 'ping'}}, location.origin);
    });
  }
  return window.__demoSentinel();
})()`

// sentinel waits for the answer of sentinelJS (Eval's deadline bounds it).
func (v *demoVisit) sentinel() {
	v.t.Helper()
	v.tab.Eval(sentinelJS, nil)
}

func (v *demoVisit) run(step string, actions ...chromedp.Action) {
	v.t.Helper()
	ctx, cancel := context.WithTimeout(v.tab.Ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		v.t.Fatalf("%s: %v\n%s", step, err, v.tab.ConsoleText())
	}
}

func (v *demoVisit) read() panelState {
	v.t.Helper()
	var s panelState
	v.tab.Eval(readPanel, &s)
	return s
}

// expect waits until the panel shows exactly v.want (the per-resource
// counters, the push-log rows, the totals, and the test's own event count),
// then checks, once the sentinel has come, that it stays there: no push
// arrives late.
func (v *demoVisit) expect(step string) panelState {
	v.t.Helper()
	deadline := time.Now().Add(patience)
	var s panelState
	for {
		s = v.read()
		if v.mismatch(s) == "" {
			break
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("after %s the panel does not show the expected pushes:\n%s\n%s", step, v.mismatch(s), v.tab.ConsoleText())
		}
		time.Sleep(25 * time.Millisecond)
	}
	v.sentinel()
	s = v.read()
	if m := v.mismatch(s); m != "" {
		v.t.Fatalf("after %s the panel changed again:\n%s\n%s", step, m, v.tab.ConsoleText())
	}
	return s
}

func (v *demoVisit) mismatch(s panelState) string {
	var b strings.Builder
	if !slices.Equal(s.URIs, v.uris) {
		fmt.Fprintf(&b, "  resource list: got %q, want %q\n", s.URIs, v.uris)
	}
	var total counts
	for _, uri := range sortedKeys(v.want, s.Counters, s.Log) {
		w := v.want[uri]
		total.D += w.D
		total.S += w.S
		if got := s.Counters[uri]; got != w {
			fmt.Fprintf(&b, "  counters of %s: got %d dispatched / %d suppressed, want %d / %d\n", uri, got.D, got.S, w.D, w.S)
		}
		if got := s.Log[uri]; got != w {
			fmt.Fprintf(&b, "  push-log rows of %s: got %d dispatched / %d suppressed, want %d / %d\n", uri, got.D, got.S, w.D, w.S)
		}
		if got := s.Events[uri]; got != w.D {
			fmt.Fprintf(&b, "  resourceupdated events for %s: got %d, want %d\n", uri, got, w.D)
		}
	}
	if s.Totals != total {
		fmt.Fprintf(&b, "  totals: got %d dispatched / %d suppressed, want %d / %d\n", s.Totals.D, s.Totals.S, total.D, total.S)
	}
	return b.String()
}

// screenshot saves the viewport as a PNG in $DEMO_SCREENSHOT_DIR, or in the
// test's temporary folder, and logs its path.
func (v *demoVisit) screenshot(name string) {
	v.t.Helper()
	var png []byte
	v.run("screenshot "+name, chromedp.CaptureScreenshot(&png))
	dir := os.Getenv("DEMO_SCREENSHOT_DIR")
	if dir == "" {
		if v.dir == "" {
			v.dir = v.t.TempDir()
		}
		dir = v.dir
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		v.t.Fatal(err)
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, png, 0o644); err != nil {
		v.t.Fatal(err)
	}
	v.t.Logf("screenshot: %s", file)
}

func (v *demoVisit) add(uri string, dispatched, suppressed int) {
	c := v.want[uri]
	c.D += dispatched
	c.S += suppressed
	v.want[uri] = c
}

const (
	pageURI  = "state://page"
	cartURI  = "state://cart"
	draftURI = "state://checkout-draft"
	noteURI  = "state://courier-note"
	// noticeURI is a resource by markup alone: the store notice in the
	// page's HTML (data-declarative on the module's script tag), registered
	// when the script runs, before the shop's.
	noticeURI = "state://store-notice"
	// slotURI is the courier's slot picker's (demo/slots.html, in an
	// iframe), which the shop lists after its own (connectFrame).
	slotURI       = "courier://slot"
	orderTemplate = "state://order/{id}"
	// deliveryURI is registered by the page's Go app (wasm/cmd/delivery),
	// not by its JavaScript: it follows the checkout draft and calls
	// onChange on every draft push, so the module suppresses the pushes
	// that leave the estimate (country and speed) as it was.
	deliveryURI = "state://delivery"
)

// readTemplate types id into the order template's Read box under list (the
// Page tab's #template-list or the MCP tab's #mcp-template-list), presses
// Enter, and returns what the read-out shows once it names the uri read.
func readTemplate(t *testing.T, v *demoVisit, list, id string) string {
	t.Helper()
	item := list + ` li[data-uri-template="` + orderTemplate + `"]`
	input := item + ` input[data-var="id"]`
	v.tab.Eval(`(document.querySelector(`+"`"+input+"`"+`).value = '', true)`, nil)
	v.run("type "+id+" into the template's Read box", chromedp.SendKeys(input, id+kb.Enter, chromedp.ByQuery))
	var out struct{ URI, Head, Text, State string }
	deadline := time.Now().Add(patience)
	for {
		v.tab.Eval(`(() => {
		  const out = document.querySelector(`+"`"+item+` .res-read`+"`"+`);
		  const body = out.querySelector('.res-contents') || out.querySelector('.res-value');
		  return { uri: out.dataset.uri || '', head: out.querySelector('.res-read-time').textContent,
		           text: out.hidden ? '' : out.textContent, state: body.dataset.state || '' };
		})()`, &out)
		if out.URI == "state://order/"+id && (out.State == "ok" || out.State == "error") {
			return out.Head + "\n" + out.Text
		}
		if time.Now().After(deadline) {
			t.Fatalf("the template's Read of %s showed nothing: %+v\n%s", id, out, v.tab.ConsoleText())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// TestDemoShop drives the demo shop like a visitor (cart, navigation, the
// checkout form, an order whose status changes on a timer) and checks that
// the agent panel shows exactly the pushes the contract promises: every
// change dispatched once, every unchanged value suppressed and counted.
func TestDemoShop(t *testing.T) {
	demoDir := filepath.Join(browsertest.RepoRoot(), "demo")
	base := startDemo(t, demoDir, demoDist(t), "-vendor", mcpVendor(t))
	tab := browsertest.NewTab(t)
	v := &demoVisit{t: t, tab: tab, want: map[string]counts{}}

	// ?tick=150: the order "server" answers every 150 ms instead of 3 s.
	v.run("set viewport", chromedp.EmulateViewport(1280, 900))
	tab.Navigate(base + "?tick=150")
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	tab.Eval(listenEvents, nil)
	// The Go app registers its resource once its own .wasm has started,
	// after the shop's three.
	v.uris = []string{noticeURI, pageURI, cartURI, draftURI, noteURI, deliveryURI, slotURI}
	if s := v.expect("loading the page"); s.Status != "ready" {
		t.Fatalf("panel status = %q, want ready", s.Status)
	}

	// Cart: every click changes the cart, so every click is one push.
	v.run("add a mug", chromedp.Click(`#product-MUG-STONE [data-action="add-to-cart"]`, chromedp.ByQuery))
	v.add(cartURI, 1, 0)
	v.expect("adding a mug")
	v.run("add a second mug", chromedp.Click(`#product-MUG-STONE [data-action="increase"]`, chromedp.ByQuery))
	v.add(cartURI, 1, 0)
	v.run("add a candle", chromedp.Click(`#product-CANDLE-BEES [data-action="add-to-cart"]`, chromedp.ByQuery))
	v.add(cartURI, 1, 0)
	v.expect("adding a second mug and a candle")

	// Navigation: a new route is a push; clicking the link of the page the
	// visitor is on is a navigation that changes nothing, so it is suppressed.
	v.run("go to the cart", chromedp.Click(`[data-nav="cart"]`, chromedp.ByQuery))
	v.add(pageURI, 1, 0)
	if s := v.expect("going to the cart"); s.Path != "/cart" {
		t.Fatalf("path = %q, want /cart", s.Path)
	}
	v.run("click Cart again", chromedp.Click(`[data-nav="cart"]`, chromedp.ByQuery))
	v.add(pageURI, 0, 1)
	v.expect("clicking Cart while on the cart")

	v.run("remove one mug", chromedp.Click(`.cart-line[data-sku="MUG-STONE"] [data-action="decrease"]`, chromedp.ByQuery))
	v.add(cartURI, 1, 0)
	v.expect("removing one mug in the cart")

	v.run("go to checkout", chromedp.Click(`[data-nav="checkout"]`, chromedp.ByQuery))
	v.add(pageURI, 1, 0)
	v.expect("going to checkout")

	// The checkout draft is trimmed and its spaces collapsed: the space
	// between "Ada" and "Lovelace" changes nothing until the "L" follows.
	v.run("type the name", chromedp.SendKeys(`#f-name`, "Ada Lovelace", chromedp.ByQuery))
	v.add(draftURI, 11, 1)
	// The Go app hears the 11 dispatched drafts: the first estimate is
	// dispatched, the 10 unchanged ones are suppressed.
	v.add(deliveryURI, 1, 10)
	v.expect(`typing "Ada Lovelace"`)
	// A trailing space, then deleting it: two input events, no change.
	v.run("type a trailing space", chromedp.SendKeys(`#f-name`, kb.End+" ", chromedp.ByQuery))
	v.add(draftURI, 0, 1)
	v.expect("typing a trailing space")
	v.run("delete the trailing space", chromedp.SendKeys(`#f-name`, kb.Backspace, chromedp.ByQuery))
	v.add(draftURI, 0, 1)
	v.expect("deleting the trailing space")

	// A character typed and deleted is A→B→A: both edits are real changes
	// relative to the last dispatched draft, so both are dispatched
	// (wasm/CONTRACT.md §3.1).
	v.run("type a digit", chromedp.SendKeys(`#f-postcode`, "9", chromedp.ByQuery))
	v.run("delete it", chromedp.SendKeys(`#f-postcode`, kb.Backspace, chromedp.ByQuery))
	v.add(draftURI, 2, 0)
	v.add(deliveryURI, 0, 2)
	v.expect("typing a postcode digit and deleting it")

	// "1017 ab": the space is suppressed until "a" follows; the letters are
	// upper-cased by the draft.
	v.run("type the postcode", chromedp.SendKeys(`#f-postcode`, "1017 ab", chromedp.ByQuery))
	v.add(draftURI, 6, 1)
	v.run("type the email", chromedp.SendKeys(`#f-email`, "ada@example.com", chromedp.ByQuery))
	v.add(draftURI, 15, 0)
	v.run("type the street", chromedp.SendKeys(`#f-street`, "Keizersgracht 1", chromedp.ByQuery))
	v.add(draftURI, 14, 1)
	v.run("type the city", chromedp.SendKeys(`#f-city`, "Amsterdam", chromedp.ByQuery))
	v.add(draftURI, 9, 0)
	v.add(deliveryURI, 0, 6+15+14+9) // the address changes no estimate
	v.expect("filling in the address")

	v.run("choose express", chromedp.Click(`input[name="shipping"][value="express"]`, chromedp.ByQuery))
	v.add(draftURI, 1, 0)
	v.add(deliveryURI, 1, 0) // a new estimate
	v.expect("choosing express delivery")
	// The Go app's resource, read like any other, and its card.
	var estimate struct {
		Country, Shipping string
		MinDays, MaxDays  int
		ShippingCents     int
	}
	tab.Eval(`document.modelContext.readResource('state://delivery')`, &estimate)
	var card struct{ State, Text string }
	tab.Eval(`({ state: document.querySelector('#delivery').dataset.state, text: document.querySelector('#delivery .delivery-text').textContent })`, &card)
	if estimate.Country != "NL" || estimate.Shipping != "express" || estimate.MinDays != 1 || estimate.MaxDays != 1 || estimate.ShippingCents != 650 ||
		card.State != "ready" || card.Text != "Express to the Netherlands: next working day · €6.50" {
		t.Fatalf("the Go app's delivery estimate: read %+v, card %+v", estimate, card)
	}
	// Clicking the option that is already chosen fires no input event at all.
	v.run("choose express again", chromedp.Click(`input[name="shipping"][value="express"]`, chromedp.ByQuery))
	v.expect("choosing express delivery again")

	v.screenshot("demo-checkout-1280.png")

	var draft struct {
		Name, Postcode, Street, Shipping string
		Missing                          []string
	}
	tab.Eval(`document.modelContext.readResource('state://checkout-draft')`, &draft)
	if draft.Name != "Ada Lovelace" || draft.Postcode != "1017 AB" || draft.Street != "Keizersgracht 1" || draft.Shipping != "express" || len(draft.Missing) != 0 {
		t.Fatalf("readResource(checkout-draft) = %+v", draft)
	}

	// Placing the order: a new resource for the order, the cart emptied, the
	// form reset, and a navigation to the order page.
	v.run("place the order", chromedp.Click(`#place-order`, chromedp.ByQuery))
	orderURI := "state://order/FH-1042"
	// The page's own resources list before the frame's (connectFrame).
	v.uris = slices.Insert(v.uris, slices.Index(v.uris, slotURI), orderURI)
	v.add(cartURI, 1, 0)
	v.add(draftURI, 1, 0)
	v.add(deliveryURI, 1, 0) // the reset form is back to standard delivery
	v.add(pageURI, 1, 0)
	// The order service is polled on a timer; each poll pushes, and the polls
	// that report the status the last one did are suppressed:
	// placed, packed, (packed), shipped, (shipped), out_for_delivery, delivered.
	v.add(orderURI, 5, 2)
	s := v.expect("placing the order and waiting for delivery")
	if s.Path != "/order/FH-1042" {
		t.Fatalf("path = %q, want /order/FH-1042", s.Path)
	}
	var status string
	tab.Eval(`document.querySelector('#order-status').dataset.status`, &status)
	if status != "delivered" {
		t.Fatalf("order page status = %q, want delivered", status)
	}

	// The browser's back button is a navigation too (popstate), and so is forward.
	tab.Eval(`history.back(), true`, nil)
	v.add(pageURI, 1, 0)
	if s := v.expect("going back"); s.Path != "/checkout" {
		t.Fatalf("path after back = %q, want /checkout", s.Path)
	}
	tab.Eval(`history.forward(), true`, nil)
	v.add(pageURI, 1, 0)
	v.expect("going forward")

	// Read buttons: readResource's value shown in the panel.
	v.run("read the cart", chromedp.Click(`#resource-list li[data-uri="state://cart"] [data-action="read"]`, chromedp.ByQuery))
	v.run("read the order", chromedp.Click(`#resource-list li[data-uri="state://order/FH-1042"] [data-action="read"]`, chromedp.ByQuery))
	deadline := time.Now().Add(patience)
	for {
		s = v.read()
		cart, order := s.ValueText[cartURI], s.ValueText[orderURI]
		if strings.Contains(cart, `"count": 0`) && strings.Contains(order, `"status": "delivered"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Read did not show the values:\ncart: %s\norder: %s", cart, order)
		}
		time.Sleep(25 * time.Millisecond)
	}
	s = v.expect("reading two resources") // reads push nothing

	// The order template, state://order/{id}, listed under the resources
	// (getResourceTemplates) with a Read box: an order id typed in, Enter,
	// and readResource of that instance. FH-1042 is the order just placed
	// (its concrete registration answers); FH-1041 is the visitor's earlier
	// order, which only the template's get reaches; FH-9999 is no order.
	var templates []string
	tab.Eval(`Array.from(document.querySelectorAll('#template-list > li.res-template'), (li) => li.dataset.uriTemplate)`, &templates)
	if !slices.Equal(templates, []string{orderTemplate}) {
		t.Fatalf("panel templates = %q, want [%q]", templates, orderTemplate)
	}
	for _, tc := range []struct{ id, want string }{
		{"FH-1042", `"status": "delivered"`},
		{"FH-1041", `"id": "FH-1041"`},
		{"FH-9999", `NotFoundError: There is no order "FH-9999"`},
	} {
		got := readTemplate(t, v, "#template-list", tc.id)
		if !strings.Contains(got, tc.want) || (tc.id != "FH-9999" && !strings.Contains(got, `"id": "`+tc.id+`"`)) {
			t.Fatalf("template Read of %s shows:\n%s\nwant it to contain %s", tc.id, got, tc.want)
		}
	}
	var concrete bool
	tab.Eval(`document.modelContext.getResources().some((r) => r.uri === 'state://order/FH-1041')`, &concrete)
	if concrete {
		t.Fatal("state://order/FH-1041 is a concrete resource; want it read through the template only")
	}
	s = v.expect("reading orders through the template") // reads push nothing

	// The module's own debug log agrees with the panel: one
	// `resource "<uri>" changed` line per dispatched push and one
	// `push suppressed (value unchanged)` line per suppressed one.
	changed := regexp.MustCompile(`^console\.debug: \[modelcontext\] resource "([^"]+)" changed`)
	suppressed := regexp.MustCompile(`^console\.debug: \[modelcontext\] resource "([^"]+)": push suppressed \(value unchanged\)`)
	fromLog := map[string]counts{}
	for _, line := range tab.Console() {
		if m := changed.FindStringSubmatch(line); m != nil {
			c := fromLog[m[1]]
			c.D++
			fromLog[m[1]] = c
		}
		if m := suppressed.FindStringSubmatch(line); m != nil {
			c := fromLog[m[1]]
			c.S++
			fromLog[m[1]] = c
		}
		if strings.HasPrefix(line, "uncaught:") || strings.HasPrefix(line, "console.error:") || strings.HasPrefix(line, "console.warning:") || blockedByCSP(line) {
			t.Errorf("page reported a problem: %s", line)
		}
	}
	for _, uri := range sortedKeys(v.want, fromLog) {
		if fromLog[uri] != v.want[uri] {
			t.Errorf("debug log for %s: %d changed / %d suppressed lines, want %d / %d", uri, fromLog[uri].D, fromLog[uri].S, v.want[uri].D, v.want[uri].S)
		}
	}

	// A screenshot of the end state, for people.
	v.screenshot("demo-shop-1280.png")

	raw, _ := json.MarshalIndent(v.want, "", "  ")
	t.Logf("pushes seen (d = dispatched, s = suppressed): %s", raw)
}

// TestDemoNarrow checks that on a phone-sized screen the agent panel stacks
// below the shop instead of squeezing it.
func TestDemoNarrow(t *testing.T) {
	base := startDemo(t, filepath.Join(browsertest.RepoRoot(), "demo"), demoDist(t))
	tab := browsertest.NewTab(t)
	ctx, cancel := context.WithTimeout(tab.Ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	tab.Navigate(base)
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	var got struct {
		ShopBottom, AgentTop, AgentWidth, ScrollWidth, ViewWidth float64
	}
	tab.Eval(`(() => {
	  const shop = document.querySelector('.shop').getBoundingClientRect();
	  const agent = document.querySelector('.agent').getBoundingClientRect();
	  return { shopBottom: shop.bottom, agentTop: agent.top, agentWidth: agent.width,
	           scrollWidth: document.documentElement.scrollWidth, viewWidth: window.innerWidth };
	})()`, &got)
	if got.AgentTop < got.ShopBottom-1 {
		t.Errorf("agent panel (top %.0f) overlaps the shop (bottom %.0f) at 390px", got.AgentTop, got.ShopBottom)
	}
	if got.AgentWidth < got.ViewWidth-1 {
		t.Errorf("agent panel is %.0fpx wide at a %.0fpx viewport, want full width", got.AgentWidth, got.ViewWidth)
	}
	if got.ScrollWidth > got.ViewWidth+1 {
		t.Errorf("page scrolls sideways at 390px: scrollWidth %.0f", got.ScrollWidth)
	}
	if dir := os.Getenv("DEMO_SCREENSHOT_DIR"); dir != "" {
		var png []byte
		if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "demo-shop-390.png")
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", file)
	}
}

// blockedByCSP reports a console line in which the browser says that the
// page's Content-Security-Policy blocked something: the demo must run under
// the policy wasm/serve sends, without inline scripts or styles.
func blockedByCSP(line string) bool {
	return strings.Contains(line, "Content Security Policy") || strings.Contains(line, "Content-Security-Policy")
}

func sortedKeys(ms ...map[string]counts) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// TestDemoWithoutWasm serves the loader without its .wasm: the panel must say
// the module failed, and the shop must keep working for the visitor.
func TestDemoWithoutWasm(t *testing.T) {
	loader, err := os.ReadFile(filepath.Join(demoDist(t), "modelcontext.js"))
	if err != nil {
		t.Fatal(err)
	}
	dist := t.TempDir()
	if err := os.WriteFile(filepath.Join(dist, "modelcontext.js"), loader, 0o644); err != nil {
		t.Fatal(err)
	}
	base := startDemo(t, filepath.Join(browsertest.RepoRoot(), "demo"), dist, "-vendor", mcpVendor(t))
	tab := browsertest.NewTab(t)
	tab.Navigate(base)
	var status struct{ State, Text string }
	tab.Eval(`new Promise((resolve) => {
	  const el = document.querySelector('#agent-status');
	  const done = () => el.dataset.state !== 'loading' && resolve({ state: el.dataset.state, text: el.textContent });
	  done();
	  new MutationObserver(done).observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
	})`, &status)
	if status.State != "error" || !strings.Contains(status.Text, "Module failed") {
		t.Fatalf("panel status = %+v, want the error state saying the module failed", status)
	}
	// The MCP tab has no server to talk to, and says why.
	tab.Eval(`new Promise((resolve) => {
	  const el = document.querySelector('#mcp-status');
	  const done = () => el.dataset.state === 'error' && resolve({ state: el.dataset.state, text: el.textContent });
	  done();
	  new MutationObserver(done).observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
	})`, &status)
	if !strings.Contains(status.Text, "module failed to start") {
		t.Fatalf("MCP tab status = %+v, want it to say there is no MCP server because the module failed to start", status)
	}
	ctx, cancel := context.WithTimeout(tab.Ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx,
		chromedp.Click(`#product-KETTLE-ENAMEL [data-action="add-to-cart"]`, chromedp.ByQuery),
		chromedp.Click(`[data-nav="cart"]`, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	var shop struct {
		Count string
		Path  string
		Lines int
	}
	tab.Eval(`({ count: document.querySelector('#nav-cart-count').textContent, path: location.pathname,
	             lines: document.querySelectorAll('.cart-line').length })`, &shop)
	if shop.Count != "1" || shop.Path != "/cart" || shop.Lines != 1 {
		t.Fatalf("shop without the module: %+v, want 1 item in the cart on /cart", shop)
	}
	// The module's own start error may surface as an unhandled rejection if
	// it lands before the panel's script has attached to ready; anything else
	// thrown is the demo's fault.
	for _, line := range tab.Console() {
		if strings.HasPrefix(line, "uncaught:") && !strings.Contains(line, "could not fetch the WebAssembly module") {
			t.Errorf("page threw: %s", line)
		}
	}
}

// mcpView is what the test reads off both tabs of the agent panel: the Page
// tab (document.modelContext) and the MCP tab (the stock SDK Client over
// postMessage).
type mcpView struct {
	Status        string            `json:"status"`     // #mcp-status data-state
	StatusText    string            `json:"statusText"` // its text
	Listing       string            `json:"listing"`    // "busy" while the MCP tab lists and subscribes
	PageURIs      []string          `json:"pageURIs"`
	MCPURIs       []string          `json:"mcpURIs"`
	PageTemplates []string          `json:"pageTemplates"`
	MCPTemplates  []string          `json:"mcpTemplates"`
	Page          map[string]counts `json:"page"`       // the Page tab's counters per uri
	Subscribed    map[string]string `json:"subscribed"` // the MCP tab's subscription state per uri
	Updated       map[string]int    `json:"updated"`    // the MCP tab's counter per uri
	Log           map[string]int    `json:"log"`        // notifications/resources/updated rows per uri
	ListChanged   int               `json:"listChanged"`
	TabPage       int               `json:"tabPage"` // the counts on the two tabs
	TabMCP        int               `json:"tabMCP"`
}

const readMCPView = `(() => {
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  const page = {}, subscribed = {}, updated = {}, log = {};
  for (const li of all('#resource-list > li.res')) page[li.dataset.uri] = { d: Number(li.dataset.dispatched), s: Number(li.dataset.suppressed) };
  for (const li of all('#mcp-resource-list > li.res')) {
    subscribed[li.dataset.uri] = li.dataset.subscribed;
    updated[li.dataset.uri] = Number(li.dataset.updated || 0);
  }
  let listChanged = 0;
  for (const row of all('#mcp-log > li')) {
    if (row.dataset.kind === 'updated') log[row.dataset.uri] = (log[row.dataset.uri] || 0) + 1;
    else if (row.dataset.kind === 'list_changed') listChanged++;
  }
  const status = document.querySelector('#mcp-status');
  return {
    status: status.dataset.state, statusText: status.textContent,
    listing: document.querySelector('#panel-mcp').dataset.listing || '',
    pageURIs: all('#resource-list > li.res').map((li) => li.dataset.uri),
    mcpURIs: all('#mcp-resource-list > li.res').map((li) => li.dataset.uri),
    pageTemplates: all('#template-list > li.res-template').map((li) => li.dataset.uriTemplate),
    mcpTemplates: all('#mcp-template-list > li.res-template').map((li) => li.dataset.uriTemplate),
    page, subscribed, updated, log, listChanged,
    tabPage: Number(document.querySelector('#tab-count-page b').textContent),
    tabMCP: Number(document.querySelector('#tab-count-mcp b').textContent),
  };
})()`

// mcpMismatch says how m differs from what the MCP tab must show: connected,
// done listing, the same resources and templates as the Page tab, every
// resource subscribed, and for every uri as many updated notifications (in
// the log and on the card) as want says and as the Page tab dispatched.
func mcpMismatch(m mcpView, want map[string]int) string {
	var b strings.Builder
	if m.Status != "ready" || m.Listing != "idle" {
		fmt.Fprintf(&b, "  MCP tab: status %q (%s), listing %q; want ready, idle\n", m.Status, m.StatusText, m.Listing)
	}
	if !slices.Equal(m.MCPURIs, m.PageURIs) {
		fmt.Fprintf(&b, "  MCP resources %q, Page tab resources %q\n", m.MCPURIs, m.PageURIs)
	}
	if !slices.Equal(m.MCPTemplates, m.PageTemplates) || !slices.Equal(m.MCPTemplates, []string{orderTemplate}) {
		fmt.Fprintf(&b, "  MCP templates %q, Page tab templates %q; want [%q]\n", m.MCPTemplates, m.PageTemplates, orderTemplate)
	}
	total := 0
	for _, uri := range m.PageURIs {
		if m.Subscribed[uri] != "yes" {
			fmt.Fprintf(&b, "  %s: subscription %q, want yes\n", uri, m.Subscribed[uri])
		}
		w := want[uri]
		total += w
		if m.Log[uri] != w || m.Updated[uri] != w || m.Page[uri].D != w {
			fmt.Fprintf(&b, "  %s: %d updated rows in the MCP log, %d on its MCP card, %d dispatched in the Page tab; want %d\n",
				uri, m.Log[uri], m.Updated[uri], m.Page[uri].D, w)
		}
	}
	for uri, n := range m.Log {
		if !slices.Contains(m.PageURIs, uri) {
			fmt.Fprintf(&b, "  %d updated rows for %s, which is not listed\n", n, uri)
		}
	}
	if m.TabMCP != total || m.TabPage != total {
		fmt.Fprintf(&b, "  tab counts: Page %d, MCP %d; want %d\n", m.TabPage, m.TabMCP, total)
	}
	return b.String()
}

// expectMCP waits until both tabs agree with want, then checks, once the
// sentinel has come, that they stay there (no notification arrives late,
// none twice).
func expectMCP(v *demoVisit, step string, want map[string]int, more func(mcpView) string) mcpView {
	v.t.Helper()
	var m mcpView
	mismatch := func() string {
		v.tab.Eval(readMCPView, &m)
		s := mcpMismatch(m, want)
		if more != nil {
			s += more(m)
		}
		return s
	}
	deadline := time.Now().Add(patience)
	for {
		d := mismatch()
		if d == "" {
			break
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("after %s the MCP tab does not show the expected notifications:\n%s%s", step, d, v.tab.ConsoleText())
		}
		time.Sleep(25 * time.Millisecond)
	}
	v.sentinel()
	if d := mismatch(); d != "" {
		v.t.Fatalf("after %s the MCP tab changed again:\n%s%s", step, d, v.tab.ConsoleText())
	}
	return m
}

// TestDemoMCP drives the panel's MCP tab: the stock MCP client (the
// TypeScript SDK's Client over @mcp-b/transports' TabClientTransport, from
// make mcpclient) connected to the module's server (data-mcp) over
// window.postMessage. It must list what the Page tab lists, be subscribed to
// every resource, log exactly one notifications/resources/updated per push the
// Page tab dispatches (none for a suppressed one), list again on list_changed,
// and read resources and template instances with resources/read.
func TestDemoMCP(t *testing.T) {
	base := startDemo(t, filepath.Join(browsertest.RepoRoot(), "demo"), demoDist(t), "-vendor", mcpVendor(t))
	tab := browsertest.NewTab(t)
	v := &demoVisit{t: t, tab: tab}
	v.run("set viewport", chromedp.EmulateViewport(1280, 900))
	// ?tick=manual: the order's status moves only when the test calls
	// __demoPoll, after the client has listed the order again and subscribed
	// (a client cannot hear pushes made before it knew the resource).
	tab.Navigate(base + "?tick=manual")
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)

	want := map[string]int{}
	// Wait for the Go app's resource too: the client must have listed and
	// subscribed to it before its first push.
	m := expectMCP(v, "loading the page", want, func(m mcpView) string {
		if !slices.Contains(m.PageURIs, deliveryURI) {
			return "  the Go app's " + deliveryURI + " is not listed yet\n"
		}
		if !slices.Contains(m.PageURIs, slotURI) {
			return "  the courier's frame's " + slotURI + " is not listed yet\n"
		}
		return ""
	})
	if want := []string{noticeURI, pageURI, cartURI, draftURI, noteURI, deliveryURI, slotURI}; !slices.Equal(m.MCPURIs, want) {
		t.Fatalf("MCP resources = %q, want %q", m.MCPURIs, want)
	}
	if !strings.Contains(m.StatusText, "protocol 2025-11-25") {
		t.Errorf("MCP status %q does not name the negotiated protocol 2025-11-25", m.StatusText)
	}

	// The tabs, by keyboard: arrows move the selection and the focus, and
	// only the selected tab's panel shows.
	type tabsState struct {
		Selected []string
		Focused  string
		Visible  []string
		TabIndex []int
	}
	tabsNow := func() tabsState {
		var s tabsState
		tab.Eval(`({
		  selected: Array.from(document.querySelectorAll('[role="tab"][aria-selected="true"]'), (t) => t.id),
		  focused: document.activeElement.id,
		  visible: Array.from(document.querySelectorAll('[role="tabpanel"]')).filter((p) => !p.hidden).map((p) => p.id),
		  tabIndex: Array.from(document.querySelectorAll('[role="tab"]'), (t) => t.tabIndex),
		})`, &s)
		return s
	}
	v.run("focus the Page tab", chromedp.Focus(`#tab-resources`, chromedp.ByQuery))
	for _, step := range []struct {
		key, tab, panel string
		tabIndex        []int
	}{
		{kb.ArrowRight, "tab-mcp", "panel-mcp", []int{-1, 0}},
		{kb.ArrowLeft, "tab-resources", "panel-resources", []int{0, -1}},
		{kb.End, "tab-mcp", "panel-mcp", []int{-1, 0}},
		{kb.Home, "tab-resources", "panel-resources", []int{0, -1}},
		{kb.ArrowLeft, "tab-mcp", "panel-mcp", []int{-1, 0}}, // wraps around
	} {
		v.run("press a key on the tabs", chromedp.KeyEvent(step.key))
		got := tabsNow()
		if !slices.Equal(got.Selected, []string{step.tab}) || got.Focused != step.tab || !slices.Equal(got.Visible, []string{step.panel}) || !slices.Equal(got.TabIndex, step.tabIndex) {
			t.Fatalf("after %q on the tabs: %+v; want %s selected and focused, only %s shown, tabindex %v", step.key, got, step.tab, step.panel, step.tabIndex)
		}
	}

	// One click in the shop, one push, one notification: the same push the
	// Page tab shows, without its value.
	v.run("add a mug", chromedp.Click(`#product-MUG-STONE [data-action="add-to-cart"]`, chromedp.ByQuery))
	want[cartURI] = 1
	expectMCP(v, "adding a mug", want, nil)
	var row struct{ Text, Title string }
	tab.Eval(`(() => { const r = document.querySelector('#mcp-log > li[data-kind="updated"]');
	  return { text: r.textContent, title: r.title }; })()`, &row)
	if !strings.Contains(row.Text, cartURI) || !regexp.MustCompile(`\d\d:\d\d:\d\d\.\d{3}`).MatchString(row.Text) || !strings.Contains(row.Title, "notifications/resources/updated") {
		t.Errorf("MCP log row = %+v, want the time and %s of a notifications/resources/updated", row, cartURI)
	}

	// A no-op edit: the trailing space leaves the normalised draft as it was,
	// so the Page tab counts a suppressed push and MCP hears nothing.
	v.run("go to checkout", chromedp.Click(`[data-nav="checkout"]`, chromedp.ByQuery))
	want[pageURI] = 1
	v.run("type a letter", chromedp.SendKeys(`#f-name`, "A", chromedp.ByQuery))
	want[draftURI] = 1
	want[deliveryURI] = 1 // the Go app's first estimate; later drafts leave it unchanged
	expectMCP(v, "going to checkout and typing a letter", want, nil)
	v.run("type a trailing space", chromedp.SendKeys(`#f-name`, " ", chromedp.ByQuery))
	expectMCP(v, "typing a trailing space", want, func(m mcpView) string {
		if m.Page[draftURI].S != 1 {
			return fmt.Sprintf("  Page tab: %d suppressed pushes of %s, want 1\n", m.Page[draftURI].S, draftURI)
		}
		return ""
	})

	// Read (resources/read): the contents as the client received them.
	v.run("read the cart over MCP", chromedp.Click(`#mcp-resource-list li[data-uri="state://cart"] [data-action="read"]`, chromedp.ByQuery))
	var read struct{ Kind, MimeType, Text, Head string }
	deadline := time.Now().Add(patience)
	for read.Kind == "" {
		tab.Eval(`(() => { const li = document.querySelector('#mcp-resource-list li[data-uri="state://cart"]');
		  const pre = li.querySelector('.res-contents[data-state="ok"] pre');
		  return pre ? { kind: pre.dataset.kind, mimeType: pre.dataset.mimeType, text: pre.textContent,
		                 head: li.querySelector('.res-read').textContent } : {}; })()`, &read)
		if time.Now().After(deadline) {
			t.Fatalf("Read over MCP showed nothing\n%s", tab.ConsoleText())
		}
		time.Sleep(25 * time.Millisecond)
	}
	if read.Kind != "text" || read.MimeType != "application/json" || !strings.Contains(read.Text, `"count": 1`) || !strings.Contains(read.Head, "resources/read") {
		t.Fatalf("Read of the cart over MCP: %+v; want text content, application/json, count 1", read)
	}
	for _, tc := range []struct{ id, want string }{
		{"FH-1041", `"id": "FH-1041"`},
		{"FH-9999", `There is no order "FH-9999"`},
	} {
		if got := readTemplate(t, v, "#mcp-template-list", tc.id); !strings.Contains(got, tc.want) || !strings.Contains(got, "resources/read state://order/"+tc.id) {
			t.Fatalf("MCP template Read of %s shows:\n%s\nwant it to contain %s", tc.id, got, tc.want)
		}
	}

	// Typing into the template's {id} box asks the page for completions
	// (completion/complete): the orders whose id starts with what is typed.
	idBox := `#mcp-template-list li[data-uri-template="` + orderTemplate + `"] input[data-var="id"]`
	tab.Eval(`(document.querySelector(`+"`"+idBox+"`"+`).value = '', true)`, nil)
	v.run("type fh into the template's id box", chromedp.SendKeys(idBox, "fh", chromedp.ByQuery))
	var offered []string
	for deadline := time.Now().Add(patience); ; time.Sleep(25 * time.Millisecond) {
		tab.Eval(`(() => { const i = document.querySelector(`+"`"+idBox+"`"+`);
		  return i.dataset.completions === undefined ? null : Array.from(i.list.options, (o) => o.value); })()`, &offered)
		if slices.Equal(offered, []string{"FH-1041"}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the id box offers %q, want [FH-1041] (completion/complete)\n%s", offered, tab.ConsoleText())
		}
	}

	// Placing an order registers state://order/FH-1042: list_changed, the
	// client lists again and subscribes, and every status push arrives.
	v.run("fill in the form",
		chromedp.SendKeys(`#f-email`, "ada@example.com", chromedp.ByQuery),  // 15 changes
		chromedp.SendKeys(`#f-street`, "Keizersgracht 1", chromedp.ByQuery), // 14, and the space suppressed
		chromedp.SendKeys(`#f-postcode`, "1017", chromedp.ByQuery),          // 4
		chromedp.SendKeys(`#f-city`, "Amsterdam", chromedp.ByQuery),         // 9
		chromedp.Click(`#place-order`, chromedp.ByQuery))
	orderURI := "state://order/FH-1042"
	waitSubscribed := time.Now().Add(patience)
	for {
		var state string
		tab.Eval(`(document.querySelector('#mcp-resource-list li[data-uri="`+orderURI+`"]') || {dataset: {}}).dataset.subscribed || ''`, &state)
		if state == "yes" {
			break
		}
		if time.Now().After(waitSubscribed) {
			t.Fatalf("the MCP tab never subscribed to %s (state %q)\n%s", orderURI, state, tab.ConsoleText())
		}
		time.Sleep(25 * time.Millisecond)
	}
	for i := 0; i < 7; i++ { // the status feed: placed, packed, packed, shipped, shipped, out_for_delivery, delivered
		tab.Eval(`window.__demoPoll(), true`, nil)
	}
	want[draftURI] += 15 + 14 + 4 + 9 + 1 // and the reset after the order
	want[cartURI]++                       // emptied
	want[pageURI]++                       // the order page
	want[orderURI] = 5                    // placed, packed, shipped, out_for_delivery, delivered
	m = expectMCP(v, "placing an order and waiting for its delivery", want, func(m mcpView) string {
		if m.ListChanged < 1 {
			return "  no list_changed row in the MCP log\n"
		}
		return ""
	})
	if !slices.Contains(m.MCPURIs, orderURI) {
		t.Fatalf("MCP resources = %q, want %s among them", m.MCPURIs, orderURI)
	}

	// Centred first, as a visitor would scroll it: scrolled only as far as
	// needed, the button sits under the panel's sticky tabs.
	tab.Eval(`document.querySelector('#mcp-resource-list li[data-uri="state://order/FH-1042"] [data-action="read"]').scrollIntoView({block: "center"}), true`, nil)
	v.run("read the order over MCP", chromedp.Click(`#mcp-resource-list li[data-uri="state://order/FH-1042"] [data-action="read"]`, chromedp.ByQuery))
	tab.Eval(`new Promise((resolve) => { const t = setInterval(() => {
	  if (document.querySelector('#mcp-resource-list li[data-uri="state://order/FH-1042"] .res-contents[data-state="ok"]')) { clearInterval(t); resolve(true); }
	}, 20); })`, nil)
	v.screenshot("demo-mcp-1280.png")

	for _, line := range tab.Console() {
		if strings.HasPrefix(line, "uncaught:") || strings.HasPrefix(line, "console.error:") || strings.HasPrefix(line, "console.warning:") || blockedByCSP(line) {
			t.Errorf("page reported a problem: %s", line)
		}
	}
	raw, _ := json.Marshal(want)
	t.Logf("notifications/resources/updated per uri (the same as the Page tab's dispatched pushes): %s", raw)
}

// TestDemoWithoutMCPClient serves the demo without -vendor: the MCP tab must
// say that its client did not load and how to get it, and the Page tab must
// work as ever.
func TestDemoWithoutMCPClient(t *testing.T) {
	base := startDemo(t, filepath.Join(browsertest.RepoRoot(), "demo"), demoDist(t))
	tab := browsertest.NewTab(t)
	tab.Navigate(base)
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	var status struct{ Page, MCP, Text string }
	tab.Eval(`new Promise((resolve) => {
	  const el = document.querySelector('#mcp-status');
	  const done = () => el.dataset.state === 'error' && resolve({ page: document.querySelector('#agent-status').dataset.state, mcp: el.dataset.state, text: el.textContent });
	  done();
	  new MutationObserver(done).observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
	})`, &status)
	if status.Page != "ready" || !strings.Contains(status.Text, "make mcpclient") || !strings.Contains(status.Text, "-vendor testdata/out") {
		t.Fatalf("without -vendor: Page tab %q, MCP tab %q %q; want ready, and the MCP tab telling to run make mcpclient and serve with -vendor testdata/out", status.Page, status.MCP, status.Text)
	}
	ctx, cancel := context.WithTimeout(tab.Ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx,
		chromedp.Click(`#tab-mcp`, chromedp.ByQuery),
		chromedp.Click(`#tab-resources`, chromedp.ByQuery),
		chromedp.Click(`#product-MUG-STONE [data-action="add-to-cart"]`, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	var cart string
	tab.Eval(`new Promise((resolve) => { const t = setInterval(() => {
	  const li = document.querySelector('#resource-list li[data-uri="state://cart"]');
	  if (li && li.dataset.dispatched === '1') { clearInterval(t); resolve(li.dataset.dispatched); }
	}, 20); })`, &cart)
	for _, line := range tab.Console() {
		if strings.HasPrefix(line, "uncaught:") || strings.HasPrefix(line, "console.error:") || blockedByCSP(line) {
			t.Errorf("page reported a problem: %s", line)
		}
	}
}
