package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hooksMark is what only the test build holds: the symbol its hooks are
// installed under.
const hooksMark = "modelcontext.internals"

// runtimeHooksMark is what only the test build's runtime holds: a field of
// the counts its hooks give.
const runtimeHooksMark = "goJSImports"

// build runs jsbuild into a fresh folder (named dir, under a temporary one)
// with args added, and returns the files it wrote, by name.
func build(t *testing.T, dir string, args ...string) map[string][]byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), dir)
	args = append([]string{"-o", out, "-loader", loaderDir, "-bindings", bindings, "-testhooks", hooksDir, "-bridge", bridgeDir,
		"-wasm-exec", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")}, args...)
	if err := run(args); err != nil {
		t.Fatalf("jsbuild %s: %v", strings.Join(args, " "), err)
	}
	built := map[string][]byte{}
	for _, name := range []string{"modelcontext.js", RuntimeFile, "modelcontext.mjs"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		built[name] = b
	}
	return built
}

// TestTheShippedBuildHasNoTestHooks: what `make build` writes, the files
// pages load, holds none of the test hooks; the test build holds them in
// every file, and says what it is in its first line.
func TestTheShippedBuildHasNoTestHooks(t *testing.T) {
	marks := map[string]string{"modelcontext.js": hooksMark, RuntimeFile: runtimeHooksMark, "modelcontext.mjs": hooksMark}
	for name, b := range build(t, "dist") {
		if bytes.Contains(b, []byte(hooksMark)) || bytes.Contains(b, []byte(runtimeHooksMark)) {
			t.Errorf("the normal build's %s contains test hooks: they leaked into the shipped files", name)
		}
	}
	for name, b := range build(t, "testdist", "-test") {
		if !bytes.Contains(b, []byte(marks[name])) {
			t.Errorf("the test build's %s lacks %q", name, marks[name])
		}
		if !bytes.HasPrefix(b, []byte("// The TEST BUILD of modelcontext")) {
			t.Errorf("the test build's %s does not say what it is in its first line: %.80q", name, b)
		}
	}
}

// TestTheStubLeavesTheRuntimeOut: the classic script every page downloads
// holds neither Go's wasm_exec.js nor a call into the module; its runtime
// and the ES module hold both, and the stub imports the runtime of its own
// build.
func TestTheStubLeavesTheRuntimeOut(t *testing.T) {
	built := build(t, "dist")
	for name, b := range built {
		hasGo := bytes.Contains(b, []byte(`"syscall/js.valueGet"`))
		calls := bytes.Contains(b, []byte(".mc_push("))
		if want := name != "modelcontext.js"; hasGo != want || calls != want {
			t.Errorf("%s: wasm_exec.js %v, calls into the module %v; want %v", name, hasGo, calls, want)
		}
	}
	id := regexp.MustCompile(`"([0-9a-f]{12})"`).FindSubmatch(built[RuntimeFile])
	if id == nil || !bytes.Contains(built[RuntimeFile], []byte(" as build")) {
		t.Fatalf("%s exports no build id", RuntimeFile)
	}
	if !bytes.Contains(built["modelcontext.js"], []byte(`"`+string(id[1])+`"`)) || !bytes.Contains(built["modelcontext.js"], []byte(RuntimeFile)) {
		t.Errorf("modelcontext.js does not import %s by name, checking the build id %s", RuntimeFile, id[1])
	}
}

// TestTheTestBuildNeverGoesIntoDist: -test refuses a folder named dist.
func TestTheTestBuildNeverGoesIntoDist(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	err := run([]string{"-o", out, "-test", "-loader", loaderDir, "-bindings", bindings, "-testhooks", hooksDir})
	if err == nil || !strings.Contains(err.Error(), "must not go into") {
		t.Fatalf("jsbuild -test -o .../dist: %v, want a refusal", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("jsbuild -test -o .../dist wrote %s", out)
	}
}

// TestDistHasNoTestHooks checks the repository's dist/ itself, when make
// build has written it and it is not older than what it is built from (a
// dist/ from before the hooks moved out of the loader holds them; make
// build rewrites it).
func TestDistHasNoTestHooks(t *testing.T) {
	dist := filepath.Join("..", "..", "..", "dist")
	var newest time.Time
	for _, pattern := range []string{loaderDir + "/*.js", runtimeDir + "/*.js", "*.go"} {
		found, _ := filepath.Glob(pattern)
		for _, f := range found {
			if st, err := os.Stat(f); err == nil && st.ModTime().After(newest) {
				newest = st.ModTime()
			}
		}
	}
	for _, name := range []string{"modelcontext.js", RuntimeFile, "modelcontext.mjs"} {
		path := filepath.Join(dist, name)
		st, err := os.Stat(path)
		if err != nil {
			t.Logf("dist/%s: not built (make build), not checked", name)
			continue
		}
		if st.ModTime().Before(newest) {
			t.Logf("dist/%s is older than its sources (make build rewrites it), not checked", name)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(hooksMark)) || bytes.Contains(b, []byte(runtimeHooksMark)) {
			t.Errorf("dist/%s contains test hooks: the files pages load must not hold them (was the test build written into dist/?)", name)
		}
	}
}
