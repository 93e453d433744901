// Package browsertest runs browser tests against the real script tag: it starts
// one headless Chromium per test binary, opens a fresh tab per test, and serves
// the repository over HTTP on 127.0.0.1 the way a page would load it.
//
// It is host-only, plain Go (no build tags), built on chromedp.
//
// # Usage
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }
//
//	func TestSomething(t *testing.T) {
//		tab := browsertest.NewTab(t) // fresh tab, closed by t.Cleanup
//		tab.Navigate(browsertest.URL(t, "/contract.html?impl=ref"))
//		var got struct{ Count int }
//		tab.Eval(`(async () => ({count: 1}))()`, &got)
//	}
//
// [Main] runs the tests and then closes the shared browser and server. Both are
// started lazily by the first test that asks for them ([NewTab], [URL],
// [SharedBrowser], [SharedServer]), so a binary whose tests all skip never
// launches Chromium. Pass a routes function to [Main] (or call
// [Server.Handle] from a test) to add routes such as a wasm served as
// text/plain or a page with a Content-Security-Policy header.
//
// The pieces can also be used on their own: [NewBrowser] / [Browser.Close] /
// [Browser.Tab], and [NewServer] / [Server.Close].
//
// # The server
//
//	/static/      <repo>/dist/                (make build output)
//	/teststatic/  the test build: modelcontext.js, its runtime, .mjs and
//	              .wasm from <repo>/.cache/testdist/ (make build-test),
//	              any other file from <repo>/dist/
//	/reference/   <repo>/testdata/reference/  (the JavaScript reference implementation)
//	/             <repo>/testdata/pages/      (test pages)
//
// Every response carries Cache-Control: no-store; .wasm is served as
// application/wasm and .js as text/javascript.
//
// Pages load the real build, dist/, at /static/. The test build is the same
// loader with js/testhooks/ bundled in, which gives a page
// document.modelContext[Symbol.for("modelcontext.internals")] (live counts,
// the raw exports, a way to break a host function), and its own .wasm,
// which adds the exports only those hooks call (built with -tags
// modelcontext_test; dist/'s .wasm lacks them); only the tests that need
// those hooks load it, by adding [TestBuildQuery] to a page's query: an HTML
// page of testdata/pages then has each "/static/modelcontext." in its text
// served as "/teststatic/modelcontext." (testdata/pages/load.js, which
// writes its tag from the query, reads the parameter itself).
//
// # The browser
//
// The Chromium binary is $CHROMIUM if set, else /usr/bin/chromium, else
// chromium (or chromium-browser, google-chrome) on PATH. It runs headless,
// without sandbox or GPU, with a fresh temporary profile, and cannot resolve
// any host except 127.0.0.1, so tests never reach the network.
//
// A test that needs a browser started differently, say with Chromium's own
// WebMCP turned on, asks for it by [Options]:
//
//	webmcp := browsertest.Options{Features: []string{"WebMCP"}}
//	tab := browsertest.NewTabWith(t, webmcp) // a tab in a second shared browser
//
// [SharedBrowserWith] starts one browser per distinct Options, lazily, beside
// the default one, and [Main] closes them all.
//
// # Failures
//
// A [Tab] records the page's console messages, uncaught exceptions and browser
// log entries (failed loads, CSP violations). [Tab.Navigate] and [Tab.Eval]
// fail the test with that record attached; [Tab.TryNavigate] and
// [Tab.TryEval] return the error instead. Every evaluation has a deadline
// ([Tab.Timeout], default [DefaultTimeout]), so a Promise that never settles
// fails the test instead of hanging it.
//
// A Tab belongs to the test that opened it ([Tab.TB]): Navigate and Eval
// fail that test, and its Cleanup closes the tab. Open one tab per subtest:
// a tab opened by a parent and used inside t.Run would call FailNow on the
// parent from the subtest's goroutine, and would carry one subtest's page
// state into the next.
package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// DefaultTimeout bounds each Navigate and Eval of a Tab unless Tab.Timeout is set.
const DefaultTimeout = 20 * time.Second

// TestBuildDir is where make build-test writes the test build, relative to
// the repository root; the server serves it at /teststatic/.
const TestBuildDir = ".cache/testdist"

// TestBuildQuery, in a page's query, makes the page load the test build
// (see the package doc).
const TestBuildQuery = "build=test"

// testBuildFiles are the files of the test build; /teststatic/ serves every
// other name from dist/.
var testBuildFiles = []string{"modelcontext.js", "modelcontext-runtime.js", "modelcontext.mjs", "modelcontext.wasm"}

// RepoRoot returns the directory holding go.mod, found by walking up from the
// working directory. It panics if there is none.
func RepoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		panic("browsertest: " + err.Error())
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			panic("browsertest: no go.mod above " + dir)
		}
		d = parent
	}
}

// ChromiumPath returns the Chromium binary to run: $CHROMIUM if set, else
// /usr/bin/chromium, else chromium (or a close relative) found on PATH.
func ChromiumPath() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("browsertest: $CHROMIUM=%q: %w", p, err)
		}
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("browsertest: Chromium not found (looked at $CHROMIUM, /usr/bin/chromium and chromium on PATH); run `make test`, which installs it, or set $CHROMIUM")
}

// Browser is one running headless Chromium.
type Browser struct {
	ctx         context.Context // the browser's first tab; new tabs derive from it
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	userDataDir string
}

// Options are what a browser is started with beyond the defaults of
// [NewBrowser]. The zero value adds nothing.
type Options struct {
	// Features are Chromium features to turn on, e.g. "WebMCP" (Chromium's
	// own document.modelContext). They are added to the ones chromedp turns
	// on by default.
	Features []string
	// Flags are more command-line switches, by name without the leading
	// "--": a string value is passed as --name=value, true as --name.
	Flags map[string]any
}

// chromedpFeatures are the features chromedp's DefaultExecAllocatorOptions
// turn on: a Flag of the same name replaces them, so NewBrowserWith repeats
// them before the Options' own.
const chromedpFeatures = "NetworkService,NetworkServiceInProcess"

// key is o in one canonical form: features and flags sorted.
func (o Options) key() string {
	features := append([]string(nil), o.Features...)
	sort.Strings(features)
	flags := make([]string, 0, len(o.Flags))
	for name, v := range o.Flags {
		flags = append(flags, fmt.Sprintf("%s=%v", name, v))
	}
	sort.Strings(flags)
	return strings.Join(features, ",") + " " + strings.Join(flags, " ")
}

// NewBrowser starts a headless Chromium with a fresh temporary profile.
// Call Close when done (typically after m.Run in TestMain).
func NewBrowser() (*Browser, error) { return NewBrowserWith(Options{}) }

// NewBrowserWith is NewBrowser with the features and flags of o.
func NewBrowserWith(o Options) (*Browser, error) {
	exe, err := ChromiumPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "browsertest-profile-")
	if err != nil {
		return nil, fmt.Errorf("browsertest: %w", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(dir),
	)
	if len(o.Features) > 0 {
		opts = append(opts, chromedp.Flag("enable-features", chromedpFeatures+","+strings.Join(o.Features, ",")))
	}
	for name, v := range o.Flags {
		opts = append(opts, chromedp.Flag(name, v))
	}
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	b := &Browser{ctx: ctx, cancel: cancel, allocCancel: allocCancel, userDataDir: dir}
	// The first Run starts the browser and binds its life to the context it
	// is given, so it must get ctx itself, not a child with a deadline.
	if err := runWithin(ctx, cancel, 30*time.Second); err != nil {
		b.Close()
		return nil, fmt.Errorf("browsertest: starting %s: %w", exe, err)
	}
	return b, nil
}

// runWithin runs chromedp.Run(ctx) (which binds the browser or tab it creates
// to ctx) and cancels ctx if that takes longer than d.
func runWithin(ctx context.Context, cancel context.CancelFunc, d time.Duration) error {
	timer := time.AfterFunc(d, cancel)
	defer timer.Stop()
	err := chromedp.Run(ctx)
	if err != nil && !timer.Stop() {
		err = fmt.Errorf("no answer within %v: %w", d, err)
	}
	return err
}

// DevToolsURL returns the address of the browser's DevTools endpoint,
// http://127.0.0.1:PORT, for tools that attach to a running browser (it was
// started with --remote-debugging-port=0; Chromium writes the port it chose
// into its profile).
func (b *Browser) DevToolsURL() (string, error) {
	data, err := os.ReadFile(filepath.Join(b.userDataDir, "DevToolsActivePort"))
	if err != nil {
		return "", fmt.Errorf("browsertest: the browser's DevTools port: %w", err)
	}
	port, _, _ := strings.Cut(string(data), "\n")
	return "http://127.0.0.1:" + strings.TrimSpace(port), nil
}

// Close stops the browser and removes its profile directory.
func (b *Browser) Close() {
	b.cancel()
	b.allocCancel()
	os.RemoveAll(b.userDataDir)
}

// Tab opens a fresh tab (about:blank) that records its console, and closes it
// when tb's test ends. It fails tb if the tab cannot be opened.
func (b *Browser) Tab(tb testing.TB) *Tab {
	tb.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	tab := &Tab{Ctx: ctx, tb: tb}
	chromedp.ListenTarget(ctx, tab.record)
	if err := runWithin(ctx, cancel, DefaultTimeout); err != nil {
		cancel()
		tb.Fatalf("browsertest: opening a tab: %v", err)
	}
	tb.Cleanup(cancel)
	return tab
}

// ProgramTab opens a fresh tab for a program rather than a test (make
// bench, make bench-visit): where the tab's helpers would fail a test, they
// panic with a *Failure, which Try turns back into an error. close closes
// the tab.
func (b *Browser) ProgramTab() (tab *Tab, close func(), err error) {
	t := &programTB{}
	err = Try(func() { tab = b.Tab(t) })
	if err != nil {
		t.close()
		return nil, nil, err
	}
	return tab, t.close, nil
}

// Failure is what a helper of a ProgramTab panics with.
type Failure struct{ Err error }

func (f *Failure) Error() string { return f.Err.Error() }

// Try runs f and returns the Failure a ProgramTab's helper panicked with,
// or nil. Other panics pass through.
func Try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fail, ok := r.(*Failure)
			if !ok {
				panic(r)
			}
			err = fail
		}
	}()
	f()
	return nil
}

// programTB is the testing.TB of a ProgramTab: it keeps the cleanups (closing
// the tab) and turns a fatal error into a *Failure panic.
type programTB struct {
	testing.TB // nil: Tab calls only the methods below
	cleanups   []func()
}

func (t *programTB) Helper()                   {}
func (t *programTB) Cleanup(f func())          { t.cleanups = append(t.cleanups, f) }
func (t *programTB) Fatalf(f string, a ...any) { panic(&Failure{fmt.Errorf(f, a...)}) }
func (t *programTB) Fatal(a ...any)            { panic(&Failure{errors.New(fmt.Sprint(a...))}) }
func (t *programTB) Errorf(f string, a ...any) { panic(&Failure{fmt.Errorf(f, a...)}) }
func (t *programTB) close() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	t.cleanups = nil
}

// Tab is one browser tab belonging to one test.
type Tab struct {
	// Ctx is the chromedp context of the tab, for chromedp actions the
	// helpers below do not cover.
	Ctx context.Context
	// Timeout bounds each Navigate and Eval; zero means DefaultTimeout.
	Timeout time.Duration

	tb  testing.TB
	mu  sync.Mutex
	log []string
}

// TB returns the test the tab belongs to: the one Navigate and Eval fail.
func (t *Tab) TB() testing.TB { return t.tb }

func (t *Tab) record(ev any) {
	var line string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		args := make([]string, len(ev.Args))
		for i, a := range ev.Args {
			args[i] = formatRemote(a)
		}
		line = fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " "))
	case *runtime.EventExceptionThrown:
		line = "uncaught: " + formatException(ev.ExceptionDetails)
	case *log.EventEntryAdded:
		e := ev.Entry
		line = fmt.Sprintf("log.%s (%s): %s", e.Level, e.Source, e.Text)
		if e.URL != "" {
			line += " [" + e.URL + "]"
		}
	default:
		return
	}
	t.mu.Lock()
	t.log = append(t.log, line)
	t.mu.Unlock()
}

func formatRemote(a *runtime.RemoteObject) string {
	if a == nil {
		return "<nil>"
	}
	if a.Type == runtime.TypeString {
		var s string
		if json.Unmarshal(a.Value, &s) == nil {
			return s
		}
	}
	if len(a.Value) > 0 {
		return string(a.Value)
	}
	if a.UnserializableValue != "" {
		return string(a.UnserializableValue)
	}
	if a.Description != "" {
		return a.Description
	}
	return string(a.Type)
}

func formatException(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "<nil>"
	}
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	}
	if d.URL != "" {
		msg += fmt.Sprintf(" (%s:%d:%d)", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	}
	return msg
}

// Console returns what the tab recorded so far, one line per console call,
// uncaught exception or browser log entry: "console.<type>: <args>" (the
// DevTools type: log, debug, info, error, warning), "uncaught: <exception>",
// or "log.<level> (<source>): <text> [<url>]".
func (t *Tab) Console() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.log...)
}

// ConsoleText returns Console as an indented block for failure messages.
func (t *Tab) ConsoleText() string {
	lines := t.Console()
	if len(lines) == 0 {
		return "  (page console: empty)"
	}
	return "  page console:\n    " + strings.Join(lines, "\n    ")
}

func (t *Tab) timeout() time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return DefaultTimeout
}

// TryNavigate loads url and waits for its load event.
func (t *Tab) TryNavigate(url string) error {
	ctx, cancel := context.WithTimeout(t.Ctx, t.timeout())
	defer cancel()
	if err := chromedp.Run(ctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("navigate %s: %w", url, err)
	}
	return nil
}

// Navigate loads url and waits for its load event; it fails the test (with
// the page console) on error.
func (t *Tab) Navigate(url string) {
	t.tb.Helper()
	if err := t.TryNavigate(url); err != nil {
		t.tb.Fatalf("browsertest: %v\n%s", err, t.ConsoleText())
	}
}

// TryEval evaluates the JavaScript expression expr in the page, awaits it if
// it is a Promise, and JSON-unmarshals the result into out (out may be nil to
// ignore it; a *json.RawMessage or *[]byte receives the raw JSON). A thrown
// exception or rejected Promise is returned as an error.
func (t *Tab) TryEval(expr string, out any) error {
	ctx, cancel := context.WithTimeout(t.Ctx, t.timeout())
	defer cancel()
	var raw []byte
	err := chromedp.Run(ctx, chromedp.Evaluate(expr, &raw, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
	if err != nil {
		var exc *runtime.ExceptionDetails
		if errors.As(err, &exc) {
			return fmt.Errorf("evaluation threw: %s", formatException(exc))
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("evaluation did not settle within %v: %w", t.timeout(), err)
		}
		return fmt.Errorf("evaluation failed: %w", err)
	}
	if out == nil {
		return nil
	}
	if len(raw) == 0 {
		raw = []byte("null")
	}
	if r, ok := out.(*[]byte); ok {
		*r = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("decoding result %s: %w", abbreviate(raw), err)
	}
	return nil
}

// Eval is TryEval that fails the test (with the expression and the page
// console) on error.
func (t *Tab) Eval(expr string, out any) {
	t.tb.Helper()
	if err := t.TryEval(expr, out); err != nil {
		t.tb.Fatalf("browsertest: %v\n  expression: %s\n%s", err, abbreviate([]byte(expr)), t.ConsoleText())
	}
}

func abbreviate(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
