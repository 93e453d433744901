package main

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fixture writes a loader of files (path: code) into a temporary folder,
// with the modules the classic script's loadRuntime imports, and bundles
// it.
func fixture(t *testing.T, files map[string]string) (bundled, error) {
	t.Helper()
	dir := t.TempDir()
	base := map[string]string{
		"page.js":      "export const mc = {};\nexport const runtimeURL = \"\";\n",
		"integrity.js": "export function verifyRuntime(u) { return Promise.resolve(u); }\n",
		"values.js":    "export function describe(e) { return String(e); }\n",
	}
	for name, code := range files {
		base[name] = code
	}
	for name, code := range base {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := readLoader(dir, "", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), false)
	if err != nil {
		t.Fatal(err)
	}
	return l.bundles()
}

// TestWhatCrosses: the runtime's imports of the stub and the stub's of the
// runtime cross; the classic script holds none of the runtime's code and
// the runtime none of the stub's, and the ES module holds both.
func TestWhatCrosses(t *testing.T) {
	b, err := fixture(t, map[string]string{
		"boot.js": "import { later } from \"./runtime/r.js\";\nexport const table = new Map([[\"STUB_TABLE\", 1]]);\n" +
			"export function install() { globalThis.go = () => loadRuntime().then(later); }\n",
		"runtime/r.js": "import { table } from \"../boot.js\";\nexport function later() { return \"RUNTIME_CODE\" + table.size; }\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.script, "RUNTIME_CODE") || !strings.Contains(b.runtime, "RUNTIME_CODE") || !strings.Contains(b.module, "RUNTIME_CODE") {
		t.Errorf("the runtime's code is in the script %v, the runtime %v, the module %v; want false, true, true",
			strings.Contains(b.script, "RUNTIME_CODE"), strings.Contains(b.runtime, "RUNTIME_CODE"), strings.Contains(b.module, "RUNTIME_CODE"))
	}
	if strings.Contains(b.runtime, "STUB_TABLE") || !strings.Contains(b.script, "STUB_TABLE") {
		t.Errorf("the stub's table is not the script's alone:\n%s", b.runtime)
	}
}

// TestWhatCrossesIsChecked: a runtime that imports what the stub does not
// export, or a let of the stub (which would cross once and go stale), and a
// stub that imports a runtime's value that is not a function, fail the
// build, naming what.
func TestWhatCrossesIsChecked(t *testing.T) {
	for _, tc := range []struct {
		boot, runtime, want string
	}{
		{"export let state = 0;\n", "import { state } from \"../boot.js\";\nexport function f() { return state; }\n", "state"},
		{"export const a = 1;\n", "import { missing } from \"../boot.js\";\nexport function f() { return missing; }\n", "missing"},
		{"import { cache } from \"./runtime/r.js\";\nexport function g() { return cache; }\n", "export const cache = new Map();\n", "cache"},
	} {
		boot := tc.boot + "export function install() {}\n"
		if strings.Contains(tc.boot, "runtime/r.js") {
			boot += "globalThis.g = g;\n"
		} else {
			boot += "import { f } from \"./runtime/r.js\";\nglobalThis.f = f;\n"
		}
		_, err := fixture(t, map[string]string{"boot.js": boot, "runtime/r.js": tc.runtime})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("boot.js %q, runtime/r.js %q: %v; want an error naming %s", tc.boot, tc.runtime, err, tc.want)
		}
	}
}

// TestEveryLoaderFileIsBundled: every file of the loader is a module the ES
// module bundles: none is left out because nothing imports it.
func TestEveryLoaderFileIsBundled(t *testing.T) {
	l, err := readLoader(loaderDir, hooksDir, filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.bundles()
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, in := range b.inputs {
		inputs = append(inputs, filepath.Base(filepath.Dir(in))+"/"+filepath.Base(in))
	}
	for dir, names := range map[string][]string{"loader": jsFiles(t, loaderDir), "runtime": jsFiles(t, runtimeDir), "testhooks": jsFiles(t, hooksDir)} {
		for _, name := range names {
			if !slices.Contains(inputs, dir+"/"+name) {
				t.Errorf("%s/%s is not bundled: nothing imports it (bundled: %v)", dir, name, inputs)
			}
		}
	}
}

// TestTheBuildIsTheSameAnywhere: the loader copied into another folder
// builds into the same files, build id included.
func TestTheBuildIsTheSameAnywhere(t *testing.T) {
	copyDir := filepath.Join(t.TempDir(), "elsewhere", "loader")
	err := filepath.WalkDir(loaderDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(loaderDir, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return write(filepath.Join(copyDir, rel), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	glue := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	var builds []map[string][]byte
	for _, dir := range []string{loaderDir, copyDir} {
		l, err := readLoader(dir, "", glue, false)
		if err != nil {
			t.Fatal(err)
		}
		built, err := l.build()
		if err != nil {
			t.Fatal(err)
		}
		builds = append(builds, built)
	}
	for name, b := range builds[0] {
		if string(b) != string(builds[1][name]) {
			t.Errorf("%s differs when the loader is in another folder", name)
		}
	}
}
