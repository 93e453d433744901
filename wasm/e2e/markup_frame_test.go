package e2e

import (
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestMarkupOutranksAFrame: the page's markup outranks a connected frame's
// resources, as page code does (wasm/CONTRACT.md §6.1, §8.1). Issue 45,
// row 3: a frame that listed shop://product before the page's element for
// it was inserted had the element refused, its own value read as the
// page's, and the uri gone once it disconnected.
func TestMarkupOutranksAFrame(t *testing.T) {
	requireImpl(t, "wasm")
	child := browsertest.NewServer(nil)
	t.Cleanup(child.Close)
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(browsertest.URL(t, "/markup-frame.html"))
	evalJSON(t, tab, `const CHILD = `+jsString(child.Server.URL)+`;
const listed = () => mc.getResources().map((d) => d.uri);
const read = async (u) => { try { return await mc.readResource(u); } catch (e) { return e.name; } };
const until = (pred) => new Promise((resolve, reject) => {
  if (pred()) return resolve();
  const timer = setTimeout(() => reject(new Error('timed out: ' + JSON.stringify(listed()))), 20000);
  const check = () => { if (pred()) { clearTimeout(timer); mc.removeEventListener('resourcelistchanged', check); resolve(); } };
  mc.addEventListener('resourcelistchanged', check);
});
const iframe = document.createElement('iframe');
iframe.src = CHILD + '/markup-frame-child.html?parent=' + encodeURIComponent(location.origin);
const loaded = new Promise((r) => iframe.addEventListener('load', r, {once: true}));
document.body.append(iframe);
await loaded;
const disconnect = mc.connectFrame(iframe, {origin: CHILD});
await until(() => listed().includes('shop://product'));
const framed = {listed: listed(), value: await read('shop://product')};
const p = document.createElement('p');
p.dataset.resource = 'shop://product'; p.dataset.name = 'product'; p.textContent = 'from the page';
document.getElementById('main').append(p);
await H.settle();
const marked = {listed: listed(), value: await read('shop://product')};
disconnect();
await H.settle();
const disconnected = {listed: listed(), value: await read('shop://product')};
p.textContent = 'still the page';
await H.settle();
return {framed, marked, disconnected, later: await read('shop://product'),
  ignored: H.mine('warn').filter((w) => w.includes('is ignored'))};`,
		`{"framed": {"listed": ["shop://product"], "value": "from the frame"},
		"marked": {"listed": ["shop://product"], "value": "from the page"},
		"disconnected": {"listed": ["shop://product"], "value": "from the page"},
		"later": "still the page", "ignored": []}`)
}
