package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestREADMEConnectFrameExample runs the README's connectFrame example as
// written, with the example origin replaced by the test server's: the
// courier's page (another origin) serves its parent, and the parent's
// listener must print the courier's resource after the page's own.
func TestREADMEConnectFrameExample(t *testing.T) {
	requireImpl(t, "wasm")
	example := docBlock(t, "frame-connect", "js")
	srv := browsertest.SharedServer(t)
	parentOrigin := srv.URL("")
	child := browsertest.NewServer(func(mux *http.ServeMux) {
		mux.Handle("/readme-courier.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `<!doctype html>
<meta charset=utf-8>
<script src="/static/modelcontext.js"></script>
<script>
  document.modelContext.registerResource({ uri: "courier://slot", name: "slot", get: () => ({ slot: "9-11" }) });
  document.modelContext.serveMCP({ parent: ["`+parentOrigin+`"] });
</script>
`)
		}))
	})
	t.Cleanup(child.Close)
	srv.Handle("/readme-connect-frame.html", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html>\n<meta charset=utf-8>\n"+
			"<script>window.__logs = []; const log = console.log; console.log = (...a) => { window.__logs.push(a.join(' ')); log(...a); };</script>\n"+
			`<script src="/static/modelcontext.js"></script>`+"\n"+
			`<script>document.modelContext.registerResource({ uri: "shop://cart", name: "cart", get: () => ({ items: [] }) });</script>`+"\n"+
			`<iframe id="courier" src="`+child.URL("/readme-courier.html")+`"></iframe>`+"\n"+
			"<script>\n"+strings.ReplaceAll(example, "https://courier.example", child.URL(""))+"</script>\n")
	}))
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(srv.URL("/readme-connect-frame.html"))
	var got struct {
		Logs []string
		Slot any
	}
	tab.Eval(`(async () => {
  const mc = document.modelContext;
  const listed = () => mc.getResources().some((r) => r.uri === 'courier://slot');
  if (!listed()) await new Promise((resolve) => mc.addEventListener('resourcelistchanged', () => listed() && resolve()));
  return {logs: window.__logs, slot: await mc.readResource('courier://slot')};
})()`, &got)
	if len(got.Logs) == 0 || got.Logs[len(got.Logs)-1] != "listed: shop://cart courier://slot" {
		t.Errorf("the example printed %q, want its last line \"listed: shop://cart courier://slot\"\n%s", got.Logs, tab.ConsoleText())
	}
	if m, ok := got.Slot.(map[string]any); !ok || m["slot"] != "9-11" {
		t.Errorf("read courier://slot: %v, want {slot: 9-11}", got.Slot)
	}
}
