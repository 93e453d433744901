package browsertest

import (
	"net/http"
	"sync"
	"testing"
)

// The shared browsers and server of a test binary, started lazily.
var shared struct {
	mu      sync.Mutex
	routes  func(*http.ServeMux)
	browser *Browser
	err     error
	server  *Server
	// with holds the browsers started with Options (SharedBrowserWith), by
	// Options.key.
	with map[string]*sharedBrowser
}

// sharedBrowser is one browser of shared.with, or why it could not start.
type sharedBrowser struct {
	browser *Browser
	err     error
}

// Main runs the tests of m and then closes the shared browser and server; use
// it as os.Exit(browsertest.Main(m, routes)) in TestMain. routes may be nil.
func Main(m *testing.M, routes func(mux *http.ServeMux)) int {
	shared.mu.Lock()
	shared.routes = routes
	shared.mu.Unlock()
	code := m.Run()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser != nil {
		shared.browser.Close()
	}
	for _, b := range shared.with {
		if b.browser != nil {
			b.browser.Close()
		}
	}
	if shared.server != nil {
		shared.server.Close()
	}
	return code
}

// SharedBrowser returns the test binary's browser, starting it on first use.
// It fails tb if Chromium cannot be started.
func SharedBrowser(tb testing.TB) *Browser {
	tb.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser == nil && shared.err == nil {
		shared.browser, shared.err = NewBrowser()
	}
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.browser
}

// SharedBrowserWith returns the test binary's browser started with o (see
// [NewBrowserWith]), starting it on first use: one browser per distinct
// Options, beside the one SharedBrowser returns, all closed by [Main]. It
// fails tb if Chromium cannot be started.
func SharedBrowserWith(tb testing.TB, o Options) *Browser {
	tb.Helper()
	k := o.key()
	if k == (Options{}).key() {
		return SharedBrowser(tb)
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	b := shared.with[k]
	if b == nil {
		b = &sharedBrowser{}
		b.browser, b.err = NewBrowserWith(o)
		if shared.with == nil {
			shared.with = map[string]*sharedBrowser{}
		}
		shared.with[k] = b
	}
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.browser
}

// SharedServer returns the test binary's server, starting it on first use.
func SharedServer(tb testing.TB) *Server {
	tb.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.server == nil {
		shared.server = NewServer(shared.routes)
	}
	return shared.server
}

// NewTab opens a fresh tab in the shared browser, closed when tb ends.
func NewTab(tb testing.TB) *Tab {
	tb.Helper()
	return SharedBrowser(tb).Tab(tb)
}

// NewTabWith opens a fresh tab in the shared browser started with o
// ([SharedBrowserWith]), closed when tb ends.
func NewTabWith(tb testing.TB, o Options) *Tab {
	tb.Helper()
	return SharedBrowserWith(tb, o).Tab(tb)
}

// URL returns the absolute URL of path on the shared server.
func URL(tb testing.TB, path string) string {
	tb.Helper()
	return SharedServer(tb).URL(path)
}
