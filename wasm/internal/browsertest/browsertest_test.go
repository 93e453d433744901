package browsertest

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	os.Exit(Main(m, func(mux *http.ServeMux) {
		mux.HandleFunc("/browsertest-selftest.html", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `<!doctype html><script>console.warn("hello", 42); window.answer = 42;</script>`)
		})
	}))
}

func TestRepoRoot(t *testing.T) {
	if _, err := os.Stat(RepoRoot() + "/go.mod"); err != nil {
		t.Fatal(err)
	}
}

func TestServerHeaders(t *testing.T) {
	s := SharedServer(t)
	resp, err := http.Get(s.URL("/static/does-not-exist.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("missing file: got %d", resp.StatusCode)
	}
	s.Handle("/selftest/x.wasm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "\x00asm") }))
	resp, err = http.Get(s.URL("/selftest/x.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct, cc := resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"); ct != "application/wasm" || cc != "no-store" {
		t.Errorf("got Content-Type %q, Cache-Control %q", ct, cc)
	}
}

func TestTab(t *testing.T) {
	tab := NewTab(t)
	if tab.TB() != t {
		t.Errorf("tab.TB() = %v, want the test that opened the tab", tab.TB())
	}
	tab.Navigate(URL(t, "/browsertest-selftest.html"))
	var got struct{ Answer int }
	tab.Eval(`new Promise(r => setTimeout(() => r({answer: window.answer}), 10))`, &got)
	if got.Answer != 42 {
		t.Errorf("answer = %d", got.Answer)
	}
	if err := tab.TryEval(`Promise.reject(new Error("nope"))`, nil); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("rejection: %v", err)
	}
	var undef any
	tab.Eval(`undefined`, &undef)
	if c := tab.ConsoleText(); !strings.Contains(c, "console.warning: hello 42") {
		t.Errorf("console not recorded:\n%s", c)
	}
}

func TestDevToolsURL(t *testing.T) {
	u, err := SharedBrowser(t).DevToolsURL()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(u + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "webSocketDebuggerUrl") {
		t.Errorf("%s/json/version: %s", u, body)
	}
}

// TestOptions: a browser started with a feature has it, the default browser
// does not, and asking again returns the same browser.
func TestOptions(t *testing.T) {
	webmcp := Options{Features: []string{"WebMCP"}}
	if SharedBrowserWith(t, webmcp) != SharedBrowserWith(t, Options{Features: []string{"WebMCP"}}) {
		t.Error("SharedBrowserWith started a second browser for the same Options")
	}
	if SharedBrowserWith(t, Options{}) != SharedBrowser(t) {
		t.Error("SharedBrowserWith(Options{}) is not SharedBrowser")
	}
	for _, c := range []struct {
		tab  *Tab
		want string
	}{{NewTabWith(t, webmcp), "function"}, {NewTab(t), "undefined"}} {
		c.tab.Navigate(URL(t, "/browsertest-selftest.html"))
		var got string
		c.tab.Eval(`typeof ModelContext`, &got)
		if got != c.want {
			t.Errorf("typeof ModelContext = %q, want %q", got, c.want)
		}
	}
}

// get fetches path from the shared server and returns its status and body.
func get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(SharedServer(t).URL(path))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestTestBuild: /teststatic/ serves the test build, its .wasm included
// (or says how to make it), and TestBuildQuery points a page's module URLs
// at it; without it the page is the file as written, loading dist/.
func TestTestBuild(t *testing.T) {
	code, body := get(t, "/teststatic/modelcontext.js")
	if _, err := os.Stat(RepoRoot() + "/" + TestBuildDir + "/modelcontext.js"); err == nil {
		if code != http.StatusOK || !strings.Contains(body, "modelcontext.internals") {
			t.Errorf("/teststatic/modelcontext.js: %d, hooks %v; want the test build", code, strings.Contains(body, "modelcontext.internals"))
		}
	} else if code != http.StatusNotFound || !strings.Contains(body, "make build-test") {
		t.Errorf("/teststatic/modelcontext.js without a test build: %d %q; want 404 saying to run make build-test", code, body)
	}
	code, body = get(t, "/teststatic/modelcontext.wasm")
	if b, err := os.ReadFile(RepoRoot() + "/" + TestBuildDir + "/modelcontext.wasm"); err == nil {
		if code != http.StatusOK || body != string(b) {
			t.Errorf("/teststatic/modelcontext.wasm: %d, %d bytes; want the test build's .wasm, %d bytes", code, len(body), len(b))
		}
	} else if code != http.StatusNotFound || !strings.Contains(body, "make build-test") {
		t.Errorf("/teststatic/modelcontext.wasm without a test build: %d %q; want 404 saying to run make build-test", code, body)
	}
	if code, _ := get(t, "/teststatic/nope.wasm"); code != http.StatusNotFound {
		t.Errorf("/teststatic/nope.wasm: %d, want 404 (from dist/)", code)
	}

	_, plain := get(t, "/mcp.html")
	_, test := get(t, "/mcp.html?"+TestBuildQuery)
	if !strings.Contains(plain, `src="/static/modelcontext.js"`) || strings.Contains(plain, "/teststatic/") {
		t.Errorf("/mcp.html does not load /static/modelcontext.js as written:\n%s", plain)
	}
	if !strings.Contains(test, `src="/teststatic/modelcontext.js"`) || strings.Contains(test, "/static/modelcontext.") {
		t.Errorf("/mcp.html?%s does not load the test build:\n%s", TestBuildQuery, test)
	}
}
