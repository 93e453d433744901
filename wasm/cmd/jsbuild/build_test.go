package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hooksMark is what only the test build holds: the symbol its hooks are
// installed under.
const hooksMark = "modelcontext.internals"

// build runs jsbuild into a fresh folder (named dir, under a temporary one)
// with args added, and returns the two files it wrote.
func build(t *testing.T, dir string, args ...string) (script, module []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), dir)
	args = append([]string{"-o", out, "-loader", loaderDir, "-testhooks", hooksDir,
		"-wasm-exec", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")}, args...)
	if err := run(args); err != nil {
		t.Fatalf("jsbuild %s: %v", strings.Join(args, " "), err)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return read("modelcontext.js"), read("modelcontext.mjs")
}

// TestTheShippedBuildHasNoTestHooks: what `make build` writes, the files
// pages load, holds none of the test hooks; the test build holds them in
// both entry points, and says what it is in its first line.
func TestTheShippedBuildHasNoTestHooks(t *testing.T) {
	script, module := build(t, "dist")
	for name, b := range map[string][]byte{"modelcontext.js": script, "modelcontext.mjs": module} {
		if bytes.Contains(b, []byte(hooksMark)) {
			t.Errorf("the normal build's %s contains %q: the test hooks leaked into the shipped files", name, hooksMark)
		}
	}
	script, module = build(t, "testdist", "-test")
	for name, b := range map[string][]byte{"modelcontext.js": script, "modelcontext.mjs": module} {
		if !bytes.Contains(b, []byte(hooksMark)) {
			t.Errorf("the test build's %s lacks %q", name, hooksMark)
		}
		if !bytes.HasPrefix(b, []byte("// The TEST BUILD of modelcontext")) {
			t.Errorf("the test build's %s does not say what it is in its first line: %.80q", name, b)
		}
	}
}

// TestTheTestBuildNeverGoesIntoDist: -test refuses a folder named dist.
func TestTheTestBuildNeverGoesIntoDist(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	err := run([]string{"-o", out, "-test", "-loader", loaderDir, "-testhooks", hooksDir})
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
	for _, pattern := range []string{loaderDir + "/*.js", "*.go"} {
		found, _ := filepath.Glob(pattern)
		for _, f := range found {
			if st, err := os.Stat(f); err == nil && st.ModTime().After(newest) {
				newest = st.ModTime()
			}
		}
	}
	for _, name := range []string{"modelcontext.js", "modelcontext.mjs"} {
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
		if bytes.Contains(b, []byte(hooksMark)) {
			t.Errorf("dist/%s contains %q: the files pages load must not hold the test hooks (was the test build written into dist/?)", name, hooksMark)
		}
	}
}
