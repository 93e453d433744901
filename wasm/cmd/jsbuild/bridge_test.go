package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
	if slices.Contains(files, name) {
		return source(t, loaderDir, name)
	}
	return source(t, runtimeDir, name)
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

// TestExportCallsMatchTheExports: every export the loader calls exists, and
// every export is called, by the loader or (mc_stats, mc_list) by the test
// build's hooks. The number of arguments of each call is tsc's to check
// (make check-loader): the loader's ex has the type exportsTypedef
// generates from the same declarations, which TestExportsTypedef holds to
// them.
func TestExportCallsMatchTheExports(t *testing.T) {
	exports := bridgeFuncsOf(t, "//go:wasmexport")
	call := regexp.MustCompile(`\bex\.(mc_\w+)\(`)
	used := map[string]bool{}
	var all [][2]string
	for _, name := range files {
		all = append(all, [2]string{loaderDir, name})
	}
	for _, name := range runtimeFiles {
		all = append(all, [2]string{runtimeDir, name})
	}
	for _, name := range append(slices.Clone(testFiles), testRuntimeFiles...) {
		all = append(all, [2]string{hooksDir, name})
	}
	for _, f := range all {
		name := f[1]
		src := source(t, f[0], name)
		for _, loc := range call.FindAllStringSubmatchIndex(src, -1) {
			fn := src[loc[2]:loc[3]]
			used[fn] = true
			if _, ok := exports[fn]; !ok {
				t.Errorf("%s calls ex.%s, which wasm/bridge does not export", name, fn)
			}
		}
	}
	for name, f := range exports {
		if !used[name] {
			t.Errorf("%s (//go:wasmexport %s) is never called by the loader", f.sig, name)
		}
	}
}

// TestExportsTypedef: the type tsc gives the loader's ex has one member per
// //go:wasmexport function, with its parameters, and the memory.
func TestExportsTypedef(t *testing.T) {
	exports := bridgeFuncsOf(t, "//go:wasmexport")
	typedef := exportsTypedef(exports)
	for name, f := range exports {
		params := make([]string, len(f.names))
		for i, p := range f.names {
			params[i] = p + ": number"
		}
		want := "{(" + strings.Join(params, ", ") + ") => "
		if !strings.Contains(typedef, want) || !strings.Contains(typedef, "} "+name+" "+f.sig) {
			t.Errorf("the exports' type has no %s%s for %s", want, name, f.sig)
		}
	}
	if n := strings.Count(typedef, "@property"); n != len(exports)+1 {
		t.Errorf("the exports' type has %d members; want the %d exports and mem", n, len(exports))
	}
	if !regexp.MustCompile(`@property \{\(id: number, n: number\) => number\} mc_register `).MatchString(typedef) {
		t.Errorf("mc_register is not typed (id: number, n: number) => number:\n%s", typedef)
	}
}

// TestTheLoaderDeclaresNoGoConstant: the constants come from Go only.
func TestTheLoaderDeclaresNoGoConstant(t *testing.T) {
	for _, name := range append(slices.Clone(files), runtimeFiles...) {
		src := loaderSource(t, name)
		for _, c := range constants() {
			if regexp.MustCompile(`(?m)^\s*(const|let|var) ` + c.name + `\b`).MatchString(src) {
				t.Errorf("%s declares %s, which jsbuild generates from Go", name, c.name)
			}
		}
	}
}

// TestEveryLoaderFileIsBuilt: the list of files is the folder, for the
// loader and for the test hooks.
func TestEveryLoaderFileIsBuilt(t *testing.T) {
	for dir, list := range map[string][]string{loaderDir: files, runtimeDir: runtimeFiles, hooksDir: append(slices.Clone(testFiles), testRuntimeFiles...)} {
		found, _ := filepath.Glob(filepath.Join(dir, "*.js"))
		var names []string
		for _, f := range found {
			names = append(names, filepath.Base(f))
		}
		slices.Sort(names)
		want := slices.Clone(list)
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("%s holds %v, jsbuild joins %v", dir, names, want)
		}
	}
}

// TestStripComments: lines of comment go, code stays, comments inside code
// included.
func TestStripComments(t *testing.T) {
	src := `// @ts-check
// a line comment

/**
 * a block
 * @param {number} a
 */
function f(/** @type {number} */ a,
  /** @type {number} */ b) {
  /** @type {any} */
  const c = /** @type {any} */ (a); // trailing
  /* one line */
  return "// not a comment" + c + b;
}
`
	want := `function f(/** @type {number} */ a,
  /** @type {number} */ b) {
  const c = /** @type {any} */ (a); // trailing
  return "// not a comment" + c + b;
}
`
	if got := string(stripComments([]byte(src))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
