package main

import (
	"bytes"
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// The boundary between the loader and the bridge is checked here, on the
// host: the functions the loader gives Go (js/loader/host.js) against the
// bridge's //go:wasmimport declarations, and the exports the loader calls
// against the bridge's //go:wasmexport functions. The codes, kinds and field
// orders need no check: the loader receives them from Go (constantsJS).

const (
	bridgeDir  = "../../bridge"
	loaderDir  = "../../../js/loader"
	runtimeDir = "../../../js/loader/runtime"
	hooksDir   = "../../../js/testhooks"
	bindings   = "../../../js/bindings/core.js"
)

// bridgeFuncsOf is bridgeFuncs of the bridge's directory, failing t.
func bridgeFuncsOf(t *testing.T, directive string) map[string]goFunc {
	t.Helper()
	out, err := bridgeFuncs(bridgeDir, directive)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// loaderSource reads a file of the stub or, when the stub has none of that
// name, of the runtime.
func loaderSource(t *testing.T, name string) string {
	t.Helper()
	if slices.Contains(jsFiles(t, loaderDir), name) {
		return source(t, loaderDir, name)
	}
	return source(t, runtimeDir, name)
}

// jsFiles lists the names of the .js files in dir.
func jsFiles(t *testing.T, dir string) []string {
	t.Helper()
	found, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil || len(found) == 0 {
		t.Fatalf("no .js files in %s: %v", dir, err)
	}
	var names []string
	for _, f := range found {
		names = append(names, filepath.Base(f))
	}
	return names
}

func source(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostArity evaluates the loader's host object (the text of its literal) in
// Node.js and returns how many parameters each member declares: JavaScript
// reads the parameter lists (Function.length), not this test. The literal
// holds methods only, so that making it runs none of the loader's code.
func hostArity(t *testing.T, literal string) map[string]int {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("this test evaluates the loader's host object with Node.js, which make test's other checks need too: node is not on PATH")
	}
	script := "const host = " + literal + ";\n" +
		"process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(host).map(([k, f]) => [k, typeof f === 'function' ? f.length : -1]))));"
	out, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		t.Fatalf("node could not evaluate the host object: %v", err)
	}
	var arity map[string]int
	if err := json.Unmarshal(out, &arity); err != nil {
		t.Fatalf("node's answer %q: %v", out, err)
	}
	return arity
}

// TestHostFunctionsMatchTheImports: the loader's host object has a member
// for every //go:wasmimport function of the bridge and no other, each
// taking as many parameters as that function passes, and carrying its Go
// signature as a comment above it.
func TestHostFunctionsMatchTheImports(t *testing.T) {
	imports := bridgeFuncsOf(t, "//go:wasmimport modelcontext")
	src := loaderSource(t, "host.js")
	body := src[strings.Index(src, "const host = {"):]
	body = body[:strings.Index(body, "\n};")+3]
	arity := hostArity(t, strings.TrimSuffix(strings.TrimPrefix(body, "const host = "), ";"))
	for name, n := range arity {
		want, ok := imports[name]
		switch {
		case !ok:
			t.Errorf("host.%s has no //go:wasmimport modelcontext %s in wasm/bridge", name, name)
		case n != want.params:
			t.Errorf("host.%s takes %d parameters; %s passes %d", name, n, want.sig, want.params)
		}
	}
	for name, f := range imports {
		if _, ok := arity[name]; !ok {
			t.Errorf("%s (//go:wasmimport modelcontext %s) has no member in the loader's host object", f.sig, name)
		}
	}
	// The comments, which say what each member implements.
	member := regexp.MustCompile(`(?m)^  // (func .*)\n  (\w+)\(`)
	commented := 0
	for _, m := range member.FindAllStringSubmatch(body, -1) {
		sig, name := m[1], m[2]
		commented++
		if want, ok := imports[name]; ok && sig != want.sig {
			t.Errorf("host.%s says\n\t%s\nbut wasm/bridge declares\n\t%s", name, sig, want.sig)
		}
	}
	if commented != len(arity) {
		t.Errorf("%d of the host object's %d members carry their Go signature as a comment", commented, len(arity))
	}
}

// TestExportCallsMatchTheExports: every export the loader calls exists in
// the module pages load, and every export is called: those of the test
// build's files (testbuild*.go, mc_stats and mc_list) by the test build's
// hooks, through testEx(), and every other by the loader. An export only
// the hooks call belongs in the test build alone. The number of arguments
// of each call is tsc's to check (make check-loader): the loader's ex has
// the type exportsTypedef generates from the same declarations, which
// TestExportsTypedef holds to them.
func TestExportCallsMatchTheExports(t *testing.T) {
	exports := bridgeFuncsOf(t, "//go:wasmexport")
	call := regexp.MustCompile(`\b(ex|testEx\(\))\.(mc_\w+)\(`)
	byLoader, byHooks := map[string]bool{}, map[string]bool{}
	type file struct {
		dir, name string
		hooks     bool
	}
	var all []file
	for _, name := range jsFiles(t, loaderDir) {
		all = append(all, file{loaderDir, name, false})
	}
	for _, name := range jsFiles(t, runtimeDir) {
		all = append(all, file{runtimeDir, name, false})
	}
	for _, name := range jsFiles(t, hooksDir) {
		all = append(all, file{hooksDir, name, true})
	}
	for _, f := range all {
		src := source(t, f.dir, f.name)
		for _, m := range call.FindAllStringSubmatch(src, -1) {
			via, fn := m[1], m[2]
			e, ok := exports[fn]
			switch {
			case !ok:
				t.Errorf("%s calls %s.%s, which wasm/bridge does not export", f.name, via, fn)
			case !f.hooks && (e.testOnly || via != "ex"):
				t.Errorf("%s calls %s.%s, which only the test build exports (wasm/bridge/%s*.go): the module pages load lacks it", f.name, via, fn, testBuildPrefix)
			case f.hooks && e.testOnly != (via != "ex"):
				t.Errorf("%s calls %s.%s: the hooks call the test build's own exports through testEx(), the others through ex", f.name, via, fn)
			}
			if f.hooks {
				byHooks[fn] = true
			} else {
				byLoader[fn] = true
			}
		}
	}
	for name, f := range exports {
		switch {
		case f.testOnly && !byHooks[name]:
			t.Errorf("%s (//go:wasmexport %s, only in the test build) is never called by the test hooks", f.sig, name)
		case !f.testOnly && !byLoader[name] && byHooks[name]:
			t.Errorf("%s (//go:wasmexport %s) is called only by the test hooks: move it into wasm/bridge/%s*.go, built only with -tags %s, so that the module pages load lacks it", f.sig, name, testBuildPrefix, testBuildTag)
		case !f.testOnly && !byLoader[name]:
			t.Errorf("%s (//go:wasmexport %s) is never called by the loader", f.sig, name)
		}
	}
}

// TestTheTestBuildsFilesHaveItsTag: a file of the bridge is built into the
// test build alone (its //go:build line needs -tags modelcontext_test, with
// js and wasm) exactly when its name starts with testbuild, tests included;
// and there is such a file, holding an export.
func TestTheTestBuildsFilesHaveItsTag(t *testing.T) {
	found, err := filepath.Glob(filepath.Join(bridgeDir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, path := range found {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		only, err := testBuildOnly(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		named := strings.HasPrefix(filepath.Base(path), testBuildPrefix)
		switch {
		case named && !only:
			t.Errorf("%s is named for the test build but its //go:build line does not keep it to -tags %s (//go:build js && wasm && %s): the module pages load would have it", path, testBuildTag, testBuildTag)
		case !named && only:
			t.Errorf("%s is built only with -tags %s: name it %s*.go, which the tests and readers look for", path, testBuildTag, testBuildPrefix)
		}
		if named {
			n++
		}
	}
	testOnly := 0
	for _, f := range bridgeFuncsOf(t, "//go:wasmexport") {
		if f.testOnly {
			testOnly++
		}
	}
	if n == 0 || testOnly == 0 {
		t.Errorf("wasm/bridge has %d %s*.go files and %d exports in them; want the test build's own exports (mc_list, mc_stats) there", n, testBuildPrefix, testOnly)
	}
}

// TestExportsTypedef: the type tsc gives the loader's ex has one member per
// //go:wasmexport function but the test build's own, with its parameters,
// and the memory; the test build's own are in a type of their own, which
// only the hooks use.
func TestExportsTypedef(t *testing.T) {
	exports := bridgeFuncsOf(t, "//go:wasmexport")
	typedef := exportsTypedef(exports)
	module, test, ok := strings.Cut(typedef, "@typedef {object} TestModuleExports")
	if !ok {
		t.Fatalf("the exports' types have no TestModuleExports:\n%s", typedef)
	}
	shipped := 0
	for name, f := range exports {
		params := make([]string, len(f.names))
		for i, p := range f.names {
			params[i] = p + ": number"
		}
		want := "{(" + strings.Join(params, ", ") + ") => "
		in, other := module, test
		if f.testOnly {
			in, other = test, module
		} else {
			shipped++
		}
		if !strings.Contains(in, want) || !strings.Contains(in, "} "+name+" "+f.sig) || strings.Contains(other, "} "+name+" ") {
			t.Errorf("the exports' types have no %s%s for %s in the right type (test build only: %v)", want, name, f.sig, f.testOnly)
		}
	}
	if n := strings.Count(module, "@property"); n != shipped+1 {
		t.Errorf("ModuleExports has %d members; want the %d exports of the module and mem", n, shipped)
	}
	if n := strings.Count(test, "@property"); n != len(exports)-shipped {
		t.Errorf("TestModuleExports has %d members; want the test build's %d", n, len(exports)-shipped)
	}
	if !regexp.MustCompile(`@property \{\(id: number, n: number\) => number\} mc_register `).MatchString(typedef) {
		t.Errorf("mc_register is not typed (id: number, n: number) => number:\n%s", typedef)
	}
}

// TestTheLoaderDeclaresNoGoConstant: the constants come from Go only.
func TestTheLoaderDeclaresNoGoConstant(t *testing.T) {
	for _, name := range append(jsFiles(t, loaderDir), jsFiles(t, runtimeDir)...) {
		src := loaderSource(t, name)
		for _, c := range constants() {
			if regexp.MustCompile(`(?m)^\s*(const|let|var) ` + c.name + `\b`).MatchString(src) {
				t.Errorf("%s declares %s, which jsbuild generates from Go", name, c.name)
			}
		}
	}
}

// TestTheLoaderSpellsNoTransportWord: the MCP transport's words (the
// control messages, "mcp-…") and protocol revisions reach the loader as
// constants from Go only, so that a change in Go cannot leave a copy behind.
func TestTheLoaderSpellsNoTransportWord(t *testing.T) {
	word := regexp.MustCompile("[\"'`](mcp-[a-z-]+|20[0-9]{2}-[0-9]{2}-[0-9]{2})[\"'`]")
	for _, name := range append(jsFiles(t, loaderDir), jsFiles(t, runtimeDir)...) {
		for _, m := range word.FindAllStringSubmatch(loaderSource(t, name), -1) {
			t.Errorf("%s spells %q; take it from the constants jsbuild writes (constants.go)", name, m[1])
		}
	}
}

// TestTheLoaderSpellsNoMessage: the phrases of registerResource's TypeErrors
// reach the loader as constants from Go only (registry.Messages, which the
// Go test double modelcontexttest spells its messages with too), so that the
// two cannot drift apart: no string of a loader file, its comments aside,
// holds a phrase of two words or more (a single word, as MSG_READING's
// "reading ", is a word of other messages too), and each is named by a
// loader file. The built script holds every phrase, and no name of one
// (esbuild writes them in: inlined).
func TestTheLoaderSpellsNoMessage(t *testing.T) {
	var all strings.Builder
	for _, name := range append(jsFiles(t, loaderDir), jsFiles(t, runtimeDir)...) {
		src := loaderSource(t, name)
		all.WriteString(src)
		r := api.Transform(src, api.TransformOptions{MinifyWhitespace: true, Format: api.FormatESModule, LogLevel: api.LogLevelSilent})
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %s", name, r.Errors[0].Text)
		}
		for _, m := range registry.Messages() {
			if strings.Contains(strings.TrimSpace(m.Text), " ") && strings.Contains(string(r.Code), m.Text) {
				t.Errorf("%s spells %q; write %s, which jsbuild hands it from Go (registry.Messages)", name, m.Text, m.Name)
			}
		}
	}
	built := build(t, "dist")["modelcontext.js"]
	for _, m := range registry.Messages() {
		if !regexp.MustCompile(`\b` + m.Name + `\b`).MatchString(all.String()) {
			t.Errorf("no loader file names %s: a phrase of registry.Messages that no message uses?", m.Name)
		}
		if !bytes.Contains(built, []byte(m.Text)) || bytes.Contains(built, []byte(m.Name)) {
			t.Errorf("the built modelcontext.js does not hold %q in place of %s", m.Text, m.Name)
		}
	}
}
