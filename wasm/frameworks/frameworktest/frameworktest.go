// Package frameworktest holds what the framework apps' browser tests share
// (wasm/frameworks and its angular, astro, nextjs, nuxt, recipes and
// sveltekit, and wasm/bundlers): the requests a tab makes, counted in
// Chromium; a production visit without an agent, proved to fetch no .wasm
// by a sentinel; the waits, console and .wasm checks of a page, and the
// agent panel of the apps that have one; a server process of an app's own
// (node build, the Astro server, next start) started and stopped by the
// test, behind a proxy that keeps every response out of the browser's
// cache, and the pages it renders.
//
// It is test code, imported only by tests.
package frameworktest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// Requests are the URLs a tab asked for, in the order Chromium sent them
// (Network.requestWillBeSent: preloads, module preloads and fetches alike,
// whether the server or a cache answers).
type Requests struct {
	mu   sync.Mutex
	urls []string
}

// Record starts recording the requests of tab; call it before Navigate.
func Record(t testing.TB, tab *browsertest.Tab) *Requests {
	t.Helper()
	r := &Requests{}
	chromedp.ListenTarget(tab.Ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request != nil {
			r.mu.Lock()
			r.urls = append(r.urls, e.Request.URL)
			r.mu.Unlock()
		}
	})
	if err := chromedp.Run(tab.Ctx, network.Enable()); err != nil {
		t.Fatalf("Network.enable: %v", err)
	}
	return r
}

// All returns the paths requested so far (the URL without its query).
func (r *Requests) All() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.urls))
	for i, u := range r.urls {
		if p, err := url.Parse(u); err == nil && (p.Scheme == "http" || p.Scheme == "https") {
			out[i] = p.Path
		} else {
			out[i] = u
		}
	}
	return out
}

// WaitFor waits until the path p has been requested (for up to 15 s) and
// returns its index in All.
func (r *Requests) WaitFor(t testing.TB, p string) int {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); ; {
		all := r.All()
		for i := len(all) - 1; i >= 0; i-- {
			if all[i] == p {
				return i
			}
		}
		if time.Now().After(end) {
			t.Fatalf("the tab never requested %s; it requested %q", p, all)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Wasm returns the .wasm paths among paths.
func Wasm(paths []string) []string {
	var out []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".wasm") {
			out = append(out, p)
		}
	}
	return out
}

var sentinels struct {
	mu sync.Mutex
	n  int
}

// Settle waits, in the page of tab, until the JavaScript expression mounted
// is true (the app says it registered what it registers, without consuming:
// a DOM mark, not a call of the module), then for an idle period after the
// load event (when data-boot="idle" would start the module), then has the
// page fetch a sentinel path that nothing serves. It returns the index of
// the sentinel among rec's paths: every request the page made by itself,
// hints and preloads included, comes before it.
func Settle(t testing.TB, tab *browsertest.Tab, rec *Requests, mounted string) int {
	t.Helper()
	if !Wait(t, tab, mounted, 30*time.Second) {
		t.Fatalf("the page never showed %s\n%s", mounted, tab.ConsoleText())
	}
	tab.Eval(`new Promise((resolve) => (globalThis.requestIdleCallback ?? setTimeout)(() => resolve(true)))`, nil)
	sentinels.mu.Lock()
	sentinels.n++
	path := fmt.Sprintf("/__sentinel__/%d", sentinels.n)
	sentinels.mu.Unlock()
	tab.Eval(fmt.Sprintf(`fetch(%q).then(() => true, () => true)`, path), nil)
	return rec.WaitFor(t, path)
}

// CheckLazyBoot checks a production visit without an agent: the page at url
// (loaded in tab, whose requests rec records) fetches no .wasm before the
// sentinel of Settle, then an agent reads document.modelContext.ready (as a
// harness does) and exactly one .wasm is fetched, which shows that the count
// sees it. It returns that path.
func CheckLazyBoot(t testing.TB, tab *browsertest.Tab, rec *Requests, url, mounted string) string {
	t.Helper()
	tab.Navigate(url)
	at := Settle(t, tab, rec, mounted)
	before := rec.All()[:at]
	if w := Wasm(before); len(w) > 0 {
		t.Errorf("a visit without an agent fetched %q (of %d requests before the sentinel: %q)", w, len(before), before)
	}
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	var after []string
	for end := time.Now().Add(15 * time.Second); ; {
		after = Wasm(rec.All()[at:])
		if len(after) > 0 || time.Now().After(end) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(after) != 1 {
		t.Fatalf("once an agent read ready the page fetched %q, want one .wasm", after)
	}
	t.Logf("%d requests before the sentinel, none a .wasm; the agent's visit fetched %s", len(before), after[0])
	return after[0]
}

// LazyBoot runs CheckLazyBoot in a tab of its own, whose Navigate and Eval
// each wait up to timeout, and fails t unless the .wasm fetched is want
// (its path on the site, when given). It returns the tab and that path.
func LazyBoot(t testing.TB, url, mounted, want string, timeout time.Duration) (*browsertest.Tab, string) {
	t.Helper()
	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	rec := Record(t, tab)
	got := CheckLazyBoot(t, tab, rec, url, mounted)
	if want != "" && got != want {
		t.Errorf("the agent's visit fetched %s, want the build's %s", got, want)
	}
	return tab, got
}

// LoaderWasm is where RedirectLoader points the loader's own fetch of the
// .wasm; the app's server must serve the module's .wasm there.
const LoaderWasm = "/__loader__/modelcontext.wasm"

// RedirectLoader has every page tab loads set
// globalThis.__MODELCONTEXT_WASM_URL__ to LoaderWasm before any script of
// its own runs, so that the loader fetches the .wasm from there: a request
// for the build's own .wasm then comes from something else (an asset hint,
// a preload, a bundler's runtime). For the apps whose page has an agent of
// its own (a panel that consumes at load), where a visit without an agent
// cannot be had without changing the app. Call it before Navigate.
func RedirectLoader(t testing.TB, tab *browsertest.Tab) {
	t.Helper()
	err := chromedp.Run(tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(fmt.Sprintf(`globalThis.__MODELCONTEXT_WASM_URL__ = %q;`, LoaderWasm)).Do(ctx)
		return err
	}))
	if err != nil {
		t.Fatalf("Page.addScriptToEvaluateOnNewDocument: %v", err)
	}
}

// CheckNoHintedWasm loads url in tab with the loader's fetch redirected
// (RedirectLoader), waits for mounted and the sentinel (Settle), and checks
// that the build's own .wasm, built (its path on the site), was never
// requested, while the loader's redirected fetch was, once.
func CheckNoHintedWasm(t testing.TB, tab *browsertest.Tab, rec *Requests, url, mounted, built string) {
	t.Helper()
	tab.Navigate(url)
	at := Settle(t, tab, rec, mounted)
	tab.Eval(`document.modelContext.ready.then(() => true)`, nil)
	loader := rec.WaitFor(t, LoaderWasm)
	all := rec.All()
	var hinted []string
	for _, p := range all {
		if p == built {
			hinted = append(hinted, p)
		}
	}
	if len(hinted) > 0 {
		t.Errorf("the page requested the build's own %s %d times, though the loader fetches %s: a hint or preload fetched it (requests: %q)", built, len(hinted), LoaderWasm, all)
	}
	if w := Wasm(all); len(w) != 1 {
		t.Errorf("the page requested the .wasm files %q, want only the loader's %s", w, LoaderWasm)
	}
	t.Logf("%d requests up to the sentinel; the build's %s never requested; the loader fetched %s (request %d)", at, built, LoaderWasm, loader+1)
}

// InstalledPackage checks that the app in dir installed the tarball `make
// pack` wrote last, each of its files, so that the tests run what a user
// installs; it returns the tarball's .wasm.
func InstalledPackage(t testing.TB, dir string) []byte {
	t.Helper()
	root := browsertest.RepoRoot()
	var m struct{ Version string }
	b, err := os.ReadFile(filepath.Join(root, "js", "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	tarball := filepath.Join(root, "dist", "modelcontext-"+m.Version+".tgz")
	if env := os.Getenv("MODELCONTEXT_TARBALL"); env != "" {
		tarball = env // a copy, where others repack dist/ while the app builds
	}
	f, err := os.Open(tarball)
	if err != nil {
		t.Fatalf("%v: run `make pack` first", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", tarball, err)
	}
	var wasm []byte
	r := tar.NewReader(z)
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", tarball, err)
		}
		name := strings.TrimPrefix(h.Name, "package/")
		want, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", tarball, err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "node_modules", "modelcontext", name))
		if err != nil {
			t.Fatalf("%v: the app's make target installs the packed tarball", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: node_modules/modelcontext/%s is not the one in %s: run the app's make target to install the fresh tarball", dir, name, tarball)
		}
		if name == "modelcontext.wasm" {
			wasm = want
		}
	}
	if wasm == nil {
		t.Fatalf("%s holds no modelcontext.wasm", tarball)
	}
	return wasm
}

// Open loads url in a tab of its own, whose Navigate and Eval each wait up
// to timeout, and waits for mounted as long, less 5 s to answer in time.
func Open(t testing.TB, url, mounted string, timeout time.Duration) *browsertest.Tab {
	t.Helper()
	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	tab.Navigate(url)
	WaitFor(t, tab, mounted, timeout-5*time.Second)
	return tab
}

// Wait waits, in the page of tab, until the JavaScript expression cond is
// true, for up to within, and says whether it became true.
func Wait(t testing.TB, tab *browsertest.Tab, cond string, within time.Duration) bool {
	t.Helper()
	var ok bool
	tab.Eval(fmt.Sprintf(`(async () => {
		for (const end = Date.now() + %d; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
			if (%s) return true;
		}
		return false;
	})()`, within.Milliseconds(), cond), &ok)
	return ok
}

// WaitFor is Wait that fails t, with the page's console, when cond never
// became true.
func WaitFor(t testing.TB, tab *browsertest.Tab, cond string, within time.Duration) {
	t.Helper()
	if !Wait(t, tab, cond, within) {
		t.Fatalf("waited for %s\n%s", cond, tab.ConsoleText())
	}
}

// PageErrors are the console lines NoErrors fails on unless told others:
// errors, warnings and uncaught exceptions.
var PageErrors = []string{"console.error", "console.warning", "uncaught"}

// NoErrors fails t for each line the page in tab logged that starts with
// one of kinds (PageErrors when none are given).
func NoErrors(t testing.TB, tab *browsertest.Tab, kinds ...string) {
	t.Helper()
	if len(kinds) == 0 {
		kinds = PageErrors
	}
	for _, line := range tab.Console() {
		for _, k := range kinds {
			if strings.HasPrefix(line, k) {
				t.Errorf("the page logged %s", line)
				break
			}
		}
	}
}

// Read returns what document.modelContext.readResource(uri) gives in the
// page of tab, as JSON.
func Read(t testing.TB, tab *browsertest.Tab, uri string) string {
	t.Helper()
	var s string
	tab.Eval(fmt.Sprintf(`document.modelContext.readResource(%q).then(JSON.stringify)`, uri), &s)
	return s
}

// Listed returns the URIs getResources lists in the page of tab, sorted.
func Listed(t testing.TB, tab *browsertest.Tab) []string {
	t.Helper()
	var got []string
	tab.Eval(`document.modelContext.getResources().map((r) => r.uri).sort()`, &got)
	return got
}

// ListenUpdates has the page of tab record every resourceupdated event, as
// "<uri> <value as JSON>", in window.updates; Updates returns them.
func ListenUpdates(t testing.TB, tab *browsertest.Tab) {
	t.Helper()
	tab.Eval(`window.updates = []; document.modelContext.addEventListener("resourceupdated", (e) => updates.push(e.detail.uri + " " + JSON.stringify(e.detail.value))); true`, nil)
}

// Updates returns the events ListenUpdates recorded so far.
func Updates(t testing.TB, tab *browsertest.Tab) []string {
	t.Helper()
	var updates []string
	tab.Eval(`updates`, &updates)
	return updates
}

// CheckWasmFetched checks that the page in tab fetched one .wasm (want, its
// path, if given), served as application/wasm with WebAssembly's magic
// number, fetching it again as the page did. It returns the path.
func CheckWasmFetched(t testing.TB, tab *browsertest.Tab, want string) string {
	t.Helper()
	var got struct {
		Fetched []string
		Type    string
		Magic   []int
	}
	tab.Eval(`(async () => {
		const fetched = performance.getEntriesByType("resource").map((e) => e.name).filter((n) => new URL(n).pathname.endsWith(".wasm"));
		if (fetched.length !== 1) return { fetched };
		const response = await fetch(fetched[0]);
		const magic = [...new Uint8Array(await response.arrayBuffer()).slice(0, 4)];
		return { fetched: fetched.map((n) => new URL(n).pathname), type: response.headers.get("content-type"), magic };
	})()`, &got)
	if len(got.Fetched) != 1 {
		t.Fatalf("the page fetched %d .wasm files %q, want 1", len(got.Fetched), got.Fetched)
	}
	t.Logf("the page fetched %s", got.Fetched[0])
	if want != "" && got.Fetched[0] != want {
		t.Errorf("the page fetched %s, want the build's %s", got.Fetched[0], want)
	}
	if got.Type != "application/wasm" || fmt.Sprint(got.Magic) != "[0 97 115 109]" {
		t.Errorf("%s: Content-Type %q, first bytes %v; want application/wasm and [0 97 115 109]", got.Fetched[0], got.Type, got.Magic)
	}
	return got.Fetched[0]
}

// WasmFiles returns the .wasm files under dir, relative to it, with
// slashes; when dir cannot be read it fails t with hint (what builds it).
func WasmFiles(t testing.TB, dir, hint string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".wasm") {
			rel, _ := filepath.Rel(dir, path)
			found = append(found, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v: %s", err, hint)
	}
	return found
}

// BuiltWasm checks that dir, a build's output, holds one .wasm, and that
// it is the module's (wasm, when given); it returns its path relative to
// dir, with slashes. hint says what builds dir, for when it cannot be read.
func BuiltWasm(t testing.TB, dir string, wasm []byte, hint string) string {
	t.Helper()
	found := WasmFiles(t, dir, hint)
	if len(found) != 1 {
		t.Fatalf("%s holds the .wasm files %q, want one", dir, found)
	}
	if wasm != nil {
		b, err := os.ReadFile(filepath.Join(dir, found[0]))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, wasm) {
			t.Errorf("%s/%s is not the module's .wasm", dir, found[0])
		}
	}
	return found[0]
}

// Node returns the Node.js the lock file of the app in dir pins (the npm
// package "node", for the apps whose tools want a newer one than the
// machine's); it fails t when the app's packages are not installed.
func Node(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "node_modules", ".bin", "node")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%v: the app's make target installs its locked packages", err)
	}
	return p
}
