package frameworks

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

func appDir(name string) string {
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", name)
}

// serve serves the folder dir on 127.0.0.1 until the test ends.
func serve(t *testing.T, dir string) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Fatalf("%v: run `make test-frameworks`, which builds each app", err)
	}
	srv := httptest.NewServer(browsertest.NoCache(http.FileServer(http.Dir(dir))))
	t.Cleanup(srv.Close)
	return srv.URL
}

// page is a tab of an app.
type page struct {
	t   *testing.T
	tab *browsertest.Tab
}

func open(t *testing.T, url string) *page {
	t.Helper()
	tab := browsertest.NewTab(t)
	tab.Timeout = 60 * time.Second
	tab.Navigate(url)
	p := &page{t: t, tab: tab}
	p.eval(`document.modelContext.ready.then(() => true)`, nil)
	return p
}

func (p *page) eval(expr string, out any) {
	p.t.Helper()
	p.tab.Eval(expr, out)
}

// text returns the text of the element with this id ("" when there is none).
func (p *page) text(id string) string {
	p.t.Helper()
	var s string
	p.eval(fmt.Sprintf(`document.getElementById(%q)?.textContent ?? ""`, id), &s)
	return s
}

func (p *page) click(id string) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`document.getElementById(%q).click()`, id), nil)
}

// waitFor waits until the page expression cond is true (for up to 15 s) and
// fails the test with what, evaluated, when it never is.
func (p *page) waitFor(cond, what string) {
	p.t.Helper()
	if !frameworktest.Wait(p.t, p.tab, cond, 15*time.Second) {
		var got any
		p.eval(what, &got)
		p.t.Fatalf("waited for %s; %s is %v\n%s", cond, what, jsonText(got), p.tab.ConsoleText())
	}
}

// listed returns getResources() as "uri title" lines.
func (p *page) listed() []string {
	p.t.Helper()
	var got []string
	p.eval(`document.modelContext.getResources().map((r) => r.uri + " " + (r.title ?? ""))`, &got)
	return got
}

// debugLines returns the module's debug lines that name uri, "[modelcontext] " cut.
func (p *page) debugLines(uri string) []string {
	var lines []string
	for _, l := range p.tab.Console() {
		if m, ok := strings.CutPrefix(l, "console.debug: [modelcontext] "); ok && strings.Contains(m, `"`+uri+`"`) {
			lines = append(lines, m)
		}
	}
	return lines
}

// pushes returns the pushes of uri the module decided on (dispatched or
// suppressed): one per onChange call.
func (p *page) pushes(uri string) []string {
	var out []string
	for _, l := range p.debugLines(uri) {
		if strings.HasSuffix(l, " changed") || strings.HasSuffix(l, "push suppressed (value unchanged)") {
			out = append(out, l)
		}
	}
	return out
}

// noErrors fails the test for each error or warning the page logged.
func (p *page) noErrors() {
	p.t.Helper()
	frameworktest.NoErrors(p.t, p.tab)
}

// moduleError returns the message registerResource throws for descriptor
// (page JavaScript, get supplied).
func (p *page) moduleError(descriptor string) string {
	p.t.Helper()
	var msg string
	p.eval(fmt.Sprintf(`(() => {
		try {
			document.modelContext.registerResource({ ...%s, get: () => 0 });
			return "registered";
		} catch (e) {
			return e.name + ": " + e.message;
		}
	})()`, descriptor), &msg)
	if !strings.HasPrefix(msg, "TypeError: modelcontext: ") {
		p.t.Fatalf("registerResource(%s) gave %q, want a TypeError", descriptor, msg)
	}
	return msg
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func equal(a, b []string) bool { return jsonText(a) == jsonText(b) }

// checkCart drives a page that holds only js/FRAMEWORKS.md's cart example: one
// button that adds an item, and one paragraph that shows what an agent in
// the page sees (shown(n) is its text with n items).
func checkCart(t *testing.T, url string, shown func(n int) string) *page {
	t.Helper()
	p := open(t, url)
	const cart = "state://cart"
	if got, want := p.listed(), []string{cart + " "}; !equal(got, want) {
		t.Fatalf("getResources lists %q, want %q", got, want)
	}
	if got := p.debugLines(cart); !equal(got, []string{`registered "state://cart"`}) && !equal(got, []string{`registered "state://cart"`, `teardown of "state://cart"`, `unregistered "state://cart"`, `registered "state://cart"`}) {
		t.Errorf("at mount the module logged %q, want one registration left", got)
	}
	p.waitFor(fmt.Sprintf(`document.querySelector("p").textContent === %q`, shown(0)), `document.querySelector("p").textContent`)
	p.eval(`window.updates = []; document.modelContext.addEventListener("resourceupdated", (e) => updates.push(e.detail.uri + " " + JSON.stringify(e.detail.value)))`, nil)
	for n := 1; n <= 2; n++ {
		p.eval(`document.querySelector("button").click()`, nil)
		p.waitFor(fmt.Sprintf(`updates.length === %d`, n), `updates`)
		p.waitFor(fmt.Sprintf(`document.querySelector("p").textContent === %q`, shown(n)), `document.querySelector("p").textContent`)
	}
	var updates []string
	p.eval(`updates`, &updates)
	tea := `{"sku":"tea","qty":1}`
	if want := []string{cart + " [" + tea + "]", cart + " [" + tea + "," + tea + "]"}; !equal(updates, want) {
		t.Errorf("resourceupdated events %q, want %q", updates, want)
	}
	if got := p.pushes(cart); len(got) != 2 {
		t.Errorf("the module decided the pushes %q, want one per click", got)
	}
	p.noErrors()
	return p
}
