package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The test build's own exports stay out of the module pages load: built
// both ways here (with go build, as make build and make build-test build
// it), and in the repository's dist/ and .cache/testdist/ when they are
// built and not older than the bridge.

// buildModule builds wasm/cmd/modelcontext into dir, with tags, and returns
// the .wasm's path.
func buildModule(t *testing.T, dir string, tags ...string) string {
	t.Helper()
	out := filepath.Join(dir, "modelcontext.wasm")
	args := []string{"build", "-o", out}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append(args, "../modelcontext")...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return out
}

// exportsOf returns the names the .wasm at path exports.
func exportsOf(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	names, err := wasmExports(b)
	if err != nil || len(names) == 0 {
		t.Fatalf("%s: exports %v, %v", path, names, err)
	}
	return names
}

// TestTheModuleExportsNoTestOnlyName: the module exports every
// //go:wasmexport function of the bridge but the test build's own, and the
// test build all of them; checkWasmExports, which jsbuild runs on the .wasm
// it hashes, accepts each for its build and refuses each for the other.
func TestTheModuleExportsNoTestOnlyName(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module twice")
	}
	exports := bridgeFuncsOf(t, "//go:wasmexport")
	module := buildModule(t, t.TempDir())
	test := buildModule(t, t.TempDir(), testBuildTag)
	got, gotTest := exportsOf(t, module), exportsOf(t, test)
	for name, f := range exports {
		if slices.Contains(got, name) == f.testOnly {
			t.Errorf("the module exports %s: %v; want %v (test build only: %v)", name, !f.testOnly, f.testOnly, f.testOnly)
		}
		if !slices.Contains(gotTest, name) {
			t.Errorf("the test build does not export %s", name)
		}
	}
	for _, c := range []struct {
		path string
		test bool
		ok   bool
	}{{module, false, true}, {test, true, true}, {module, true, false}, {test, false, false}} {
		err := checkWasmExports(c.path, bridgeDir, c.test)
		if (err == nil) != c.ok {
			t.Errorf("checkWasmExports(%s, test %v) = %v; want ok %v", filepath.Base(filepath.Dir(c.path)), c.test, err, c.ok)
		}
	}
}

// TestTheBuiltModulesExports checks the repository's builds themselves
// (make build's dist/modelcontext.wasm, make build-test's
// .cache/testdist/modelcontext.wasm) when they are built and not older
// than the bridge.
func TestTheBuiltModulesExports(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	var newest time.Time
	found, _ := filepath.Glob(filepath.Join(bridgeDir, "*.go"))
	for _, f := range found {
		if st, err := os.Stat(f); err == nil && st.ModTime().After(newest) {
			newest = st.ModTime()
		}
	}
	for _, c := range []struct {
		path string
		test bool
	}{{"dist/modelcontext.wasm", false}, {".cache/testdist/modelcontext.wasm", true}} {
		path := filepath.Join(root, filepath.FromSlash(c.path))
		st, err := os.Stat(path)
		switch {
		case err != nil:
			t.Logf("%s: not built, not checked", c.path)
		case st.ModTime().Before(newest):
			t.Logf("%s is older than wasm/bridge, not checked", c.path)
		default:
			if err := checkWasmExports(path, bridgeDir, c.test); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestWasmExportsRefusesOtherBytes: wasmExports reads a module's export
// section, and refuses what is not a module or is cut short.
func TestWasmExportsRefusesOtherBytes(t *testing.T) {
	// A module with one export section: "f" (a function, index 0) and "mem".
	mod := []byte("\x00asm\x01\x00\x00\x00" + "\x07\x0b\x02" + "\x01f\x00\x00" + "\x03mem\x02\x00")
	if names, err := wasmExports(mod); err != nil || !slices.Equal(names, []string{"f", "mem"}) {
		t.Errorf("wasmExports = %v, %v; want [f mem]", names, err)
	}
	for _, b := range [][]byte{nil, []byte("<html>"), mod[:len(mod)-3], append(slices.Clone(mod[:8]), 7, 0x7f)} {
		if names, err := wasmExports(b); err == nil {
			t.Errorf("wasmExports(%q) = %v, want an error", b, names)
		}
	}
}
