package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The extension's tests: a headless Chromium of their own with the
// extension loaded (--load-extension dist/extension, make extension) and
// the native host installed in its profile (<user data dir>/NativeMessagingHosts,
// by the relay's --install-native-host). Pages come from browsertest's
// server; the visitor's click is a click on the popup's button, with the
// popup page open in a tab (and the tab the visitor looks at brought to the
// front, for the popup's "Let agents see this site"). Clients connect to the host Chrome started: the
// stdio client (relay --extension, run in this process) and Streamable HTTP
// at the URL the host wrote.

// extBrowser is that browser.
type extBrowser struct {
	*browsertest.Browser
	t       testing.TB
	cfg     string // the host's configuration directory
	profile string
}

var relayBinary struct {
	once sync.Once
	path string
	err  error
}

// buildRelay builds wasm/cmd/relay once per test binary (Chrome starts it).
func buildRelay(t testing.TB) string {
	t.Helper()
	relayBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "relay-ext-bin-")
		if err != nil {
			relayBinary.err = err
			return
		}
		relayBinary.path = filepath.Join(dir, "relay")
		cmd := exec.Command("go", "build", "-o", relayBinary.path, "./wasm/cmd/relay")
		cmd.Dir = browsertest.RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			relayBinary.err = fmt.Errorf("go build ./wasm/cmd/relay: %v\n%s", err, out)
		}
	})
	if relayBinary.err != nil {
		t.Fatal(relayBinary.err)
	}
	return relayBinary.path
}

// visitorGranted are the sites whose permission the profile holds as if the
// visitor had accepted Chrome's prompt for them once before (and the
// extension had given them back): chrome.permissions.request grants those
// again without a prompt. Headless Chromium shows its prompt to no one, so
// a request for any other site waits for ever.
var visitorGranted = []string{"http://127.0.0.1/*", "http://localhost/*"}

// grantAsVisitor writes visitorGranted into a new profile's preferences.
func grantAsVisitor(t testing.TB, profile string) {
	t.Helper()
	granted := map[string]any{"api": []string{}, "manifest_permissions": []string{}, "explicit_host": visitorGranted, "scriptable_host": visitorGranted}
	prefs, _ := json.Marshal(map[string]any{"extensions": map[string]any{"settings": map[string]any{ExtensionID: map[string]any{"runtime_granted_permissions": granted}}}})
	if err := os.MkdirAll(filepath.Join(profile, "Default"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(profile, "Default", "Preferences"), prefs, 0o600); err != nil {
		t.Fatal(err)
	}
}

// newExtBrowser starts Chromium with the extension loaded, and features
// (Chromium features, such as "WebMCP") turned on.
func newExtBrowser(t testing.TB, features ...string) *extBrowser {
	t.Helper()
	requireBuild(t)
	ext := filepath.Join(browsertest.RepoRoot(), "dist", "extension")
	if _, err := os.Stat(filepath.Join(ext, "manifest.json")); err != nil {
		t.Fatal("dist/extension missing: run make extension")
	}
	bin := buildRelay(t)
	profile, err := os.MkdirTemp("", "relay-ext-profile-")
	if err != nil {
		t.Fatal(err)
	}
	grantAsVisitor(t, profile)
	cfg, err := os.MkdirTemp("", "relay-ext-config-")
	if err != nil {
		t.Fatal(err)
	}
	install := exec.Command(bin, "--install-native-host", "--config-dir", cfg, "--user-data-dir", profile, "--http", "127.0.0.1:0")
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("relay --install-native-host: %v\n%s", err, out)
	}
	b, err := browsertest.NewBrowserWith(browsertest.Options{Features: features, Flags: map[string]any{
		"headless":                  "new",
		"user-data-dir":             profile,
		"disable-extensions":        false,
		"load-extension":            ext,
		"disable-extensions-except": ext,
		// Off the network as browsertest's browsers, but localhost is a
		// second site on the same server (TestExtensionOtherSite).
		"host-resolver-rules": "MAP localhost 127.0.0.1 , MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
	}})
	if err != nil {
		t.Fatal(err)
	}
	eb := &extBrowser{Browser: b, t: t, cfg: cfg, profile: profile}
	t.Cleanup(func() {
		b.Close()
		time.Sleep(200 * time.Millisecond) // the host exits when the browser does
		os.RemoveAll(profile)
		defer os.RemoveAll(cfg)
		if t.Failed() {
			if log, err := os.ReadFile(filepath.Join(cfg, hostLogFile)); err == nil {
				t.Logf("the native host's log:\n%s", log)
			}
		}
	})
	return eb
}

// page opens path (of browsertest's server) in a new tab of b.
func (b *extBrowser) page(path string) *page {
	t := b.t
	t.Helper()
	u := browsertest.URL(t, path)
	tab := b.Tab(t)
	tab.Timeout = timeout
	tab.Navigate(u)
	return &page{Tab: tab, t: t, url: u}
}

// pageOn opens path in a new tab of b on the server's other site:
// localhost, not 127.0.0.1.
func (b *extBrowser) pageOn(path string) *page {
	t := b.t
	t.Helper()
	u := strings.Replace(browsertest.URL(t, path), "://127.0.0.1:", "://localhost:", 1)
	tab := b.Tab(t)
	tab.Timeout = timeout
	tab.Navigate(u)
	return &page{Tab: tab, t: t, url: u}
}

// popup opens the extension's popup page in a tab.
func (b *extBrowser) popup() *browsertest.Tab {
	b.t.Helper()
	tab := b.Tab(b.t)
	tab.Timeout = timeout
	tab.Navigate("chrome-extension://" + ExtensionID + "/popup.html")
	return tab
}

// waitPopup waits until cond (JavaScript, on the popup's document) holds.
func waitPopup(pop *browsertest.Tab, cond string) {
	pop.TB().Helper()
	err := pop.TryEval(`(async () => { for (;;) { if (`+cond+`) return true; await new Promise((r) => setTimeout(r, 20)); } })()`, nil)
	if err != nil {
		var text string
		pop.TryEval(`document.body.innerText`, &text)
		pop.TB().Fatalf("%v\nthe popup shows:\n%s", err, text)
	}
}

func listed(u string) string {
	return fmt.Sprintf(`[...document.querySelectorAll("#tabs li")].some((li) => li.dataset.url === %q)`, u)
}

// allowSite brings p to the front, opens the extension's action on it
// (which grants the extension that tab: activeTab), clicks the popup's "Let
// agents see this site" for p's site, and waits until the popup lists the
// site.
func allowSite(pop *browsertest.Tab, p *page) string {
	pop.TB().Helper()
	origin := showPopupFor(pop, p)
	clickAsVisitor(pop, `document.getElementById("allow")`)
	waitPopup(pop, siteListed(origin))
	return origin
}

// showPopupFor brings p to the front and opens the extension's action there
// with its keyboard shortcut (Alt+Shift+M, as the toolbar icon would: the
// extension may then read that tab's URL), and waits until the popup offers
// p's site; it returns the site.
func showPopupFor(pop *browsertest.Tab, p *page) string {
	pop.TB().Helper()
	u, err := url.Parse(p.url)
	if err != nil {
		pop.TB().Fatal(err)
	}
	origin := u.Scheme + "://" + u.Host
	key := func(typ input.KeyType) *input.DispatchKeyEventParams {
		return input.DispatchKeyEvent(typ).WithModifiers(input.ModifierAlt | input.ModifierShift).WithKey("M").WithCode("KeyM").WithWindowsVirtualKeyCode(77).WithNativeVirtualKeyCode(77)
	}
	offered := fmt.Sprintf(`!document.getElementById("here").hidden && document.getElementById("here").dataset.origin === %q`, origin)
	// A shortcut pressed before p has the focus goes to another tab: press
	// it again while the popup does not offer p's site after a while.
	for try := 0; try < 5; try++ {
		if err := chromedp.Run(p.Ctx, cdppage.BringToFront(), key(input.KeyRawDown), key(input.KeyUp)); err != nil {
			pop.TB().Fatal(err)
		}
		var ok bool
		if err := pop.TryEval(`(async () => { for (let i = 0; i < 250; i++) { if (`+offered+`) return true; await new Promise((r) => setTimeout(r, 20)); } return false; })()`, &ok); err == nil && ok {
			return origin
		}
	}
	waitPopup(pop, offered)
	return origin
}

// clickAsVisitor clicks the popup's element (a JavaScript expression) as
// the visitor would: in a user gesture, which chrome.permissions.request
// needs.
func clickAsVisitor(pop *browsertest.Tab, element string) {
	pop.TB().Helper()
	ctx, cancel := context.WithTimeout(pop.Ctx, timeout)
	defer cancel()
	err := chromedp.Run(ctx, chromedp.Evaluate(element+".click()", nil, func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams {
		return p.WithUserGesture(true)
	}))
	if err != nil {
		pop.TB().Fatalf("clicking %s: %v", element, err)
	}
}

func siteListed(origin string) string {
	return fmt.Sprintf(`[...document.querySelectorAll("#sites li")].some((li) => li.dataset.origin === %q)`, origin)
}

// expose clicks the popup's button for the tab showing u, and waits until
// the host has the page.
func expose(pop *browsertest.Tab, u string) {
	waitPopup(pop, fmt.Sprintf(`[...document.querySelectorAll("#tabs li")].find((li) => li.dataset.url === %q)?.querySelector("button.expose")`, u))
	pop.Eval(fmt.Sprintf(`[...document.querySelectorAll("#tabs li")].find((li) => li.dataset.url === %q).querySelector("button.expose").click()`, u), nil)
	waitPopup(pop, fmt.Sprintf(`document.querySelector("#tabs li.exposed")?.dataset.url === %q && document.getElementById("status").dataset.sessions !== "-1"`, u))
}

// stdioClient starts relay --extension in this process and connects a Go
// SDK client to it.
func (b *extBrowser) stdioClient(version string) (*relayRun, *client) {
	r := startRelay(b.t, "--extension", "--config-dir", b.cfg)
	return r, connectStdio(b.t, r, version)
}

// hostURL is the Streamable HTTP URL the running host wrote.
func (b *extBrowser) hostURL() string {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		data, err := os.ReadFile(filepath.Join(b.cfg, runningFile))
		var run hostRunning
		if err == nil && json.Unmarshal(data, &run) == nil && run.URL != "" {
			return run.URL
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("the native host wrote no %s: %v", runningFile, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (b *extBrowser) httpClient(version string) *client {
	return connectHTTP(b.t, &relayRun{url: b.hostURL(), stderr: &syncBuffer{}}, version)
}

// TestExtension: the visitor allows the site, then exposes one tab in the
// popup; a stdio client and a Streamable HTTP client (each in a session of
// its own) list, read and subscribe, and see a push the page makes. A page
// of the site that did not opt in is never posted to and never listed,
// though the content script was there; on a site not allowed nothing of
// the extension runs: a serving page there is never listed, though it
// announced itself before the allowed site's page did.
func TestExtension(t *testing.T) {
	b := newExtBrowser(t)
	pop := b.popup()
	waitPopup(pop, `!document.getElementById("no-sites").hidden`)
	allowSite(pop, b.page("/blank.html?test="+url.QueryEscape(t.Name())))
	elsewhere := b.pageOn("/relay.html?test=" + url.QueryEscape(t.Name()) + "&site=other")
	optout := b.page("/extension-optout.html?test=" + url.QueryEscape(t.Name()))
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()))
	waitPopup(pop, listed(p.url))
	var listedElsewhere bool
	pop.Eval(listed(elsewhere.url), &listedElsewhere)
	if listedElsewhere {
		t.Errorf("the popup lists %s, on a site the visitor did not allow", elsewhere.url)
	}
	var sessions int
	p.Eval(`relayTest.sessions()`, &sessions)
	if n := p.mark(); sessions != 0 || n != 0 {
		t.Fatalf("before the click, the page has %d sessions, and saw %d envelopes on sub-channels", sessions, n)
	}
	expose(pop, p.url)

	_, c := b.stdioClient(legacy)
	uris := c.uris()
	if !strings.Contains(strings.Join(uris, " "), "test://static-text") {
		t.Fatalf("resources/list: %v", uris)
	}
	if got := c.read("test://static-text"); got != "This is the content of the static text resource." {
		t.Fatalf("read: %q", got)
	}
	if err := c.Subscribe(c.ctx(), &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	p.bump("watched-resource")
	if u := c.nextUpdate(); u != "test://watched-resource" {
		t.Fatalf("updated %s", u)
	}
	if got := c.read("test://watched-resource"); got != `{"watched-resource":1}` {
		t.Fatalf("read after the push: %s", got)
	}

	// A second client, over HTTP, in both revisions: sessions of their own.
	h := b.httpClient(legacy)
	if got := h.read("test://a"); got != `{"a":0}` {
		t.Fatalf("HTTP read: %s", got)
	}
	m := b.httpClient(modern)
	if got := m.read("test://b"); got != `{"b":0}` {
		t.Fatalf("HTTP %s read: %s", modern, got)
	}
	p.Eval(`relayTest.sessions()`, &sessions)
	if sessions < 3 {
		t.Errorf("the page serves %d sessions for 3 clients", sessions)
	}
	var channels int
	p.Eval(`new Set(relayTest.wire.filter((e) => e.direction === "client-to-server" && e.payload && e.payload.method === "resources/read").map((e) => e.channel)).size`, &channels)
	if channels != 3 {
		t.Errorf("3 clients read on %d sub-channels", channels)
	}
	waitPopup(pop, `Number(document.getElementById("status").dataset.sessions) >= 3`)

	// The page that did not opt in: nothing was posted to it, and the
	// extension does not list it. Then it opts in, and is listed: the
	// content script was there, listening, all along.
	var seen int
	optout.Eval(`seen.length`, &seen)
	if seen != 0 {
		var all any
		optout.Eval(`seen`, &all)
		t.Errorf("the page that did not opt in received %d messages: %v", seen, all)
	}
	var listedOut bool
	pop.Eval(listed(optout.url), &listedOut)
	if listedOut {
		t.Errorf("the popup lists the page that did not opt in")
	}
	optout.Eval(`document.modelContext.serveMCP({sessions: true}), true`, nil)
	waitPopup(pop, listed(optout.url))
	var firstSeen any
	optout.Eval(`seen.map((d) => d && d.direction)`, &firstSeen)
	t.Logf("once it opted in, the page saw: %v", firstSeen)
}

// TestExtensionReloadAndSwitch: tabs open before their site was allowed
// are found (asked once whether they serve); a reload of the exposed tab,
// and the visitor exposing another tab, each end in notifications to the
// client (its subscription may have changed), then reads reach the page
// now exposed; stopping ends the stdio client's connection with an error,
// and removing the site takes its tabs off the list.
func TestExtensionReloadAndSwitch(t *testing.T) {
	b := newExtBrowser(t)
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()) + "&tab=1")
	q := b.page("/relay.html?test=" + url.QueryEscape(t.Name()) + "&tab=2")
	pop := b.popup()
	origin := allowSite(pop, p)
	waitPopup(pop, listed(p.url)+" && "+listed(q.url))
	expose(pop, p.url)
	r, c := b.stdioClient(legacy)
	if err := c.Subscribe(c.ctx(), &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	p.bump("watched-resource")
	if got := c.nextUpdate(); got != "test://watched-resource" {
		t.Fatal(got)
	}

	p.Navigate(p.url) // a reload
	if got := c.nextUpdate(); got != "test://watched-resource" {
		t.Fatalf("after the reload: %s", got)
	}
	if got := c.read("test://watched-resource"); got != `{"watched-resource":0}` {
		t.Fatalf("read after the reload: %s", got)
	}
	p.bump("watched-resource")
	if got := c.nextUpdate(); got != "test://watched-resource" {
		t.Fatalf("a push after the reload: %s", got)
	}

	q.bump("watched-resource")
	q.bump("watched-resource")
	expose(pop, q.url)
	if got := c.nextUpdate(); got != "test://watched-resource" {
		t.Fatalf("after the switch: %s", got)
	}
	if got := c.read("test://watched-resource"); got != `{"watched-resource":2}` {
		t.Fatalf("read after the switch (the other tab's count is 2): %s", got)
	}
	q.bump("watched-resource")
	if got := c.nextUpdate(); got != "test://watched-resource" {
		t.Fatalf("a push in the tab now exposed: %s", got)
	}

	pop.Eval(`document.getElementById("stop").click()`, nil)
	err := r.wait()
	if err == nil || !strings.Contains(err.Error(), "stopped exposing") {
		t.Errorf("after Stop, the stdio client ended with %v", err)
	}
	r.err = nil
	waitPopup(pop, `!document.querySelector("#tabs li.exposed")`)

	pop.Eval(fmt.Sprintf(`[...document.querySelectorAll("#sites li")].find((li) => li.dataset.origin === %q).querySelector("button.disallow").click()`, origin), nil)
	waitPopup(pop, `!(`+siteListed(origin)+`) && !(`+listed(p.url)+`) && !(`+listed(q.url)+`)`)
}

// TestExtensionConformance runs the official conformance suite's resources
// scenarios against the native host's Streamable HTTP endpoint.
func TestExtensionConformance(t *testing.T) {
	b := newExtBrowser(t)
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()))
	pop := b.popup()
	allowSite(pop, p)
	expose(pop, p.url)
	u := b.hostURL()
	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) { runConformance(t, u, sc) })
	}
}

// BenchmarkExtensionRead: BenchmarkRead's round trip (resources/read by the
// Go SDK's client, 2025-11-25), through the extension and its native host
// instead of the DevTools protocol: client → relay --extension → host →
// Chrome's native messaging → the background → the content script → the
// page, and back.
func BenchmarkExtensionRead(b *testing.B) {
	for _, tr := range []string{"stdio", "http"} {
		b.Run(tr, func(b *testing.B) {
			eb := newExtBrowser(b)
			p := eb.page("/relay.html?bench=extension-read")
			pop := eb.popup()
			allowSite(pop, p)
			expose(pop, p.url)
			var c *client
			if tr == "stdio" {
				_, c = eb.stdioClient(legacy)
			} else {
				c = eb.httpClient(legacy)
			}
			params := &mcp.ReadResourceParams{URI: "test://static-text"}
			for range 20 { // warm up
				c.read(params.URI)
			}
			samples := make([]time.Duration, 0, b.N)
			for range b.N {
				start := time.Now()
				if _, err := c.ReadResource(c.ctx(), params); err != nil {
					b.Fatal(err)
				}
				samples = append(samples, time.Since(start))
			}
			report(b, samples, "µs", time.Microsecond)
		})
	}
}

// TestExtensionOtherSite: the exposure is for the tab and its site: when
// the exposed tab navigates to another origin, the exposure ends (and with
// it the host and its clients' connections), even if that page serves too
// on a site the visitor allowed as well.
func TestExtensionOtherSite(t *testing.T) {
	b := newExtBrowser(t)
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()))
	pop := b.popup()
	other := strings.Replace(p.url, "://127.0.0.1:", "://localhost:", 1)
	allowSite(pop, b.pageOn("/blank.html"))
	allowSite(pop, p)
	expose(pop, p.url)
	r, c := b.stdioClient(legacy)
	if got := c.read("test://a"); got != `{"a":0}` {
		t.Fatal(got)
	}
	if other == p.url {
		t.Fatalf("no 127.0.0.1 in %s", p.url)
	}
	p.Navigate(other)
	err := r.wait()
	if err == nil || !strings.Contains(err.Error(), "stopped exposing") {
		t.Errorf("after a navigation to another site, the stdio client ended with %v", err)
	}
	r.err = nil
	waitPopup(pop, listed(other)+` && !document.querySelector("#tabs li.exposed")`)
	var text string
	pop.Eval(`document.getElementById("error").textContent`, &text)
	if !strings.Contains(text, "another site") {
		t.Errorf("the popup says %q", text)
	}
}

// TestExtensionDemo is a new user's walk through the extension's path:
// serve the demo shop as make demo does, load the unpacked extension, open
// the shop, allow its site and expose its tab in the popup. The MCP
// Inspector's CLI, started with the README's client configuration (the
// relay, --extension), lists and reads the cart; a client subscribed to the
// cart is sent notifications/resources/updated when an item is added by
// hand, and reads it.
func TestExtensionDemo(t *testing.T) {
	b := newExtBrowser(t)
	demo := serveDemo(t)
	tab := b.Tab(t)
	tab.Timeout = timeout
	tab.Navigate(demo)
	p := &page{Tab: tab, t: t, url: demo}
	pop := b.popup()
	allowSite(pop, p)
	expose(pop, p.url)

	relay := buildRelay(t)
	inspect := func(args ...string) string {
		t.Helper()
		cmd := npmTool(t, "mcp-inspector", append(append([]string{"--cli"}, args...), "--", relay, "--extension", "--config-dir", b.cfg)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	var list struct {
		Resources []struct{ URI string }
	}
	if err := json.Unmarshal([]byte(inspect("--method", "resources/list")), &list); err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if !strings.Contains(strings.Join(uris, " "), "state://cart") {
		t.Fatalf("the Inspector lists %v", uris)
	}
	var read struct {
		Contents []struct{ URI, Text string }
	}
	if err := json.Unmarshal([]byte(inspect("--method", "resources/read", "--uri", "state://cart")), &read); err != nil ||
		len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, `"items":[]`) {
		t.Fatalf("the Inspector reads the cart: %+v, %v", read, err)
	}

	_, c := b.stdioClient(legacy)
	addToCartByHand(t, p, c)
}
