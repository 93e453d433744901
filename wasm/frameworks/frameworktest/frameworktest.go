// Package frameworktest holds what the framework apps' browser tests share
// (wasm/frameworks/sveltekit, astro, recipes, and the lazy-boot checks of
// wasm/frameworks, wasm/frameworks/nextjs and wasm/bundlers): the requests
// a tab makes, counted in Chromium; a production visit without an agent,
// proved to fetch no .wasm by a sentinel; a server process of an app's own
// (node build, the Astro server) started and stopped by the test, behind a
// proxy that keeps every response out of the browser's cache.
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
	var ok bool
	tab.Eval(fmt.Sprintf(`(async () => {
		for (const end = Date.now() + 30000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
			if (%s) return true;
		}
		return false;
	})()`, mounted), &ok)
	if !ok {
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
