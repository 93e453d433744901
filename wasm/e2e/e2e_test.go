// Package e2e holds the browser contract tests: every test drives a real page
// that loads the implementation with a script tag, runs a scenario written in
// page JavaScript, and asserts on the JSON it returns.
//
// Every test runs once per implementation, as subtests named "ref" (the plain
// JavaScript reference in testdata/reference/) and "wasm" (the module built by
// `make build` into dist/). While dist/ is missing the wasm subtests fail;
// `go test ./wasm/e2e/ -run '/ref'` runs the reference only.
//
// The tests that need to see inside the module (its live counts, its raw
// exports, a host function that breaks: the fault, leak, deferred
// registration and MCP session tests) load the test build instead (make
// build-test; testBuild below), which is dist/'s loader with js/testhooks/
// bundled in, running dist/'s .wasm. Every other test loads dist/ as a page
// does.
//
// Pages live in testdata/pages/: contract.html loads harness.js (console
// recording and helpers, available to scenarios as H) and load.js (which
// writes the implementation's script tag, see its header for the query
// parameters).
package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

func TestMain(m *testing.M) {
	os.Exit(browsertest.Main(m, routes))
}

// routes adds the pages that need special headers.
func routes(mux *http.ServeMux) {
	root := browsertest.RepoRoot()
	contract := filepath.Join(root, "testdata", "pages", "contract.html")
	withCSP := func(policy string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", policy)
			http.ServeFile(w, r, contract)
		}
	}
	// A strict policy without 'wasm-unsafe-eval': the module cannot compile.
	mux.HandleFunc("/csp-strict.html", withCSP("script-src 'self'"))
	// The policy a page using the module needs.
	mux.HandleFunc("/csp-wasm.html", withCSP("script-src 'self' 'wasm-unsafe-eval'"))
	wasm := filepath.Join(root, "dist", "modelcontext.wasm")
	// The module's wasm under the wrong MIME type.
	mux.HandleFunc("/textplain/modelcontext.wasm", func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(wasm)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(b)
	})
	// HTML where the module should be, as a single-page-app server answers
	// for a file it does not have.
	mux.HandleFunc("/html-fallback/modelcontext.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><title>app</title>"))
	})
	// Bytes that are not WebAssembly.
	mux.HandleFunc("/octet/modelcontext.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte("not a module"))
	})
	// The module's wasm at another path, for data-wasm.
	mux.HandleFunc("/alt/mc.wasm", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, wasm)
	})
}

// impls are the implementations every contract test runs against.
var impls = []string{"ref", "wasm"}

// requireImpl fails t when the implementation's files are missing.
func requireImpl(t *testing.T, impl string) {
	t.Helper()
	root := browsertest.RepoRoot()
	switch impl {
	case "wasm":
		for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
			if _, err := os.Stat(filepath.Join(root, "dist", f)); err != nil {
				t.Fatalf("dist/%s missing: run make build", f)
			}
		}
	case "ref":
		if _, err := os.Stat(filepath.Join(root, "testdata", "reference", "modelcontext.js")); err != nil {
			t.Fatalf("testdata/reference/modelcontext.js missing: %v", err)
		}
	}
}

// testBuild, in a page's query, loads the module's test build (see
// browsertest.TestBuildQuery), which gives the page
// document.modelContext[Symbol.for("modelcontext.internals")].
const testBuild = browsertest.TestBuildQuery

// requireTestBuild fails t when the test build is missing.
func requireTestBuild(t *testing.T) {
	t.Helper()
	requireImpl(t, "wasm")
	for _, f := range []string{"modelcontext.js", "modelcontext.mjs"} {
		if _, err := os.Stat(filepath.Join(browsertest.RepoRoot(), filepath.FromSlash(browsertest.TestBuildDir), f)); err != nil {
			t.Fatalf("%s/%s missing: run make build-test", browsertest.TestBuildDir, f)
		}
	}
}

// eachImpl runs f as the subtests "ref" and "wasm".
func eachImpl(t *testing.T, f func(t *testing.T, impl string)) {
	for _, impl := range impls {
		t.Run(impl, func(t *testing.T) {
			requireImpl(t, impl)
			f(t, impl)
		})
	}
}

// page is a tab showing a contract page for one implementation. It belongs
// to the test that opened it (Tab.TB): open one per subtest.
type page struct {
	*browsertest.Tab
	impl string
}

// open loads path (default /contract.html) with impl=<impl> and the extra
// query parameters in query (e.g. "debug=1&twice=1") in a fresh tab.
func open(t *testing.T, impl, path, query string) *page {
	t.Helper()
	if path == "" {
		path = "/contract.html"
	}
	u := path + "?impl=" + impl
	if query != "" {
		u += "&" + query
	}
	tab := browsertest.NewTab(t)
	tab.Navigate(browsertest.URL(t, u))
	return &page{Tab: tab, impl: impl}
}

// prelude gives every scenario H (harness.js) and mc (document.modelContext,
// after ready).
const prelude = "const H = window.H;\nawait document.modelContext.ready;\nconst mc = document.modelContext;\n"

// run evaluates body as the body of an async function (with H and mc in
// scope) and decodes what it returns into out.
func (p *page) run(body string, out any) {
	p.TB().Helper()
	p.Eval("(async () => {\n"+prelude+body+"\n})()", out)
}

// runRaw is run without the prelude: for scenarios about ready itself.
func (p *page) runRaw(body string, out any) {
	p.TB().Helper()
	p.Eval("(async () => {\nconst H = window.H;\n"+body+"\n})()", out)
}

// expect runs body and fails the test unless its result equals the JSON want
// (compared as decoded JSON, so key order does not matter).
func (p *page) expect(body, want string) {
	p.TB().Helper()
	var got json.RawMessage
	p.run(body, &got)
	p.compare(got, want)
}

func (p *page) compare(got json.RawMessage, want string) {
	p.TB().Helper()
	if diff := jsonDiff(got, want); diff != "" {
		p.TB().Errorf("%s\n%s", diff, p.ConsoleText())
	}
}

// jsonDiff returns "" if got and want hold the same JSON value, else a
// description of both.
func jsonDiff(got json.RawMessage, want string) string {
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Sprintf("result is not JSON (%v): %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		return fmt.Sprintf("bad want in test (%v): %s", err, want)
	}
	if reflect.DeepEqual(g, w) {
		return ""
	}
	return fmt.Sprintf("got:\n%s\nwant:\n%s", indent(got), indent([]byte(want)))
}

func indent(b []byte) string {
	var buf bytes.Buffer
	if json.Indent(&buf, b, "    ", "  ") != nil {
		return "    " + string(b)
	}
	return "    " + buf.String()
}

// scenario is one contract check: page JavaScript and the JSON it must
// return.
type scenario struct {
	name  string
	query string // extra query parameters of the page
	js    string // body of an async function; H and mc in scope
	want  string // JSON the function must return
}

// runScenarios runs each scenario in a fresh page, for both implementations.
// Each scenario gets its own tab.
func runScenarios(t *testing.T, scenarios []scenario) {
	t.Helper()
	eachImpl(t, func(t *testing.T, impl string) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				open(t, impl, "", sc.query).expect(sc.js, sc.want)
			})
		}
	})
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// lines joins JavaScript lines, for readability of long scenarios.
func lines(l ...string) string { return strings.Join(l, "\n") }
