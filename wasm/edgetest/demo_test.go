package edgetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// waitFor evaluates cond (a JavaScript expression) in the page until it is
// true, and fails with what describe (another expression) says if it never is.
func waitFor(t *testing.T, tab *browsertest.Tab, step, cond, describe string) {
	t.Helper()
	var ok bool
	err := tab.TryEval(`new Promise((resolve) => {
	  const check = () => { try { if (`+cond+`) { resolve(true); return true; } } catch (e) {} return false; };
	  if (check()) return;
	  const timer = setInterval(() => check() && clearInterval(timer), 25);
	})`, &ok)
	if err != nil || !ok {
		var state any
		tab.TryEval(describe, &state)
		t.Fatalf("%s: %v; the page shows %v\n%s\n%s", step, err, state, tab.ConsoleText(), workerLog())
	}
}

func click(t *testing.T, tab *browsertest.Tab, step, selector string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab.Ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Click(selector, chromedp.ByQuery)); err != nil {
		t.Fatalf("%s: %v\n%s", step, err, tab.ConsoleText())
	}
}

// TestDemoThroughWorker loads the demo shop from the Worker in headless
// Chromium, under the Worker's Content-Security-Policy, and uses its
// resources the way the agent panel does: the list, a push (a click in the
// shop that the Page tab counts once), a read, and the same through the
// panel's MCP tab (the stock MCP client over postMessage): listed,
// subscribed, one notification for the push, and a resources/read.
func TestDemoThroughWorker(t *testing.T) {
	base := startWorker(t)
	tab := browsertest.NewTab(t)
	tab.Timeout = 90 * time.Second // each request starts a Go instance in workerd; the machine may be busy
	// ?tick=manual: the order status feed moves only when asked, so nothing
	// pushes on its own.
	tab.Navigate(base + "?tick=manual")
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)

	const panel = `({ page: document.querySelector('#agent-status').dataset.state,
	  uris: Array.from(document.querySelectorAll('#resource-list > li.res'), (li) => li.dataset.uri + ':' + li.dataset.dispatched),
	  mcp: document.querySelector('#mcp-status').dataset.state + ' ' + document.querySelector('#mcp-status').textContent,
	  listing: document.querySelector('#panel-mcp').dataset.listing,
	  mcpURIs: Array.from(document.querySelectorAll('#mcp-resource-list > li.res'), (li) => li.dataset.uri + ':' + li.dataset.subscribed + ':' + (li.dataset.updated || 0)) })`
	// courier://slot is the courier's slot picker's, an iframe the shop
	// lists after its own (connectFrame).
	want := []string{"state://store-notice", "state://page", "state://cart", "state://checkout-draft", "state://courier-note", "courier://slot"}
	var uris []string
	waitFor(t, tab, "the Page tab lists the shop's resources",
		`document.querySelector('#agent-status').dataset.state === 'ready' && document.querySelectorAll('#resource-list > li.res').length === 6`, panel)
	tab.Eval(`Array.from(document.querySelectorAll('#resource-list > li.res'), (li) => li.dataset.uri)`, &uris)
	if !slices.Equal(uris, want) {
		t.Fatalf("Page tab resources %q, want %q", uris, want)
	}
	waitFor(t, tab, "the MCP tab connects, lists and subscribes to every resource",
		`document.querySelector('#mcp-status').dataset.state === 'ready' && document.querySelector('#panel-mcp').dataset.listing === 'idle' &&
		 Array.from(document.querySelectorAll('#mcp-resource-list > li.res')).filter((li) => li.dataset.subscribed === 'yes').length === 6`, panel)

	// A push: one click in the shop, dispatched once on the Page tab and
	// notified once to the MCP client.
	click(t, tab, "add a mug to the cart", `#product-MUG-STONE [data-action="add-to-cart"]`)
	waitFor(t, tab, "the push reaches both tabs",
		`document.querySelector('#resource-list li[data-uri="state://cart"]').dataset.dispatched === '1' &&
		 document.querySelector('#mcp-resource-list li[data-uri="state://cart"]').dataset.updated === '1'`, panel)

	// A read on each tab: readResource, and resources/read over MCP.
	click(t, tab, "read the cart", `#resource-list li[data-uri="state://cart"] [data-action="read"]`)
	waitFor(t, tab, "the Page tab shows the cart it read",
		`document.querySelector('#resource-list li[data-uri="state://cart"] .res-value').textContent.includes('"count": 1')`, panel)
	click(t, tab, "open the MCP tab", `#tab-mcp`)
	click(t, tab, "read the cart over MCP", `#mcp-resource-list li[data-uri="state://cart"] [data-action="read"]`)
	waitFor(t, tab, "the MCP tab shows the cart it read",
		`document.querySelector('#mcp-resource-list li[data-uri="state://cart"] .res-contents[data-state="ok"] pre').textContent.includes('"count": 1')`, panel)

	for _, line := range tab.Console() {
		if strings.HasPrefix(line, "uncaught:") || strings.HasPrefix(line, "console.error:") || strings.HasPrefix(line, "console.warning:") ||
			strings.Contains(line, "Content Security Policy") || strings.HasPrefix(line, "log.error") {
			t.Errorf("page reported a problem: %s", line)
		}
	}
}
