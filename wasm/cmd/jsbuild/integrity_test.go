package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTheScriptCarriesTheHashes: the classic script holds the SHA-384 of
// the runtime file as written and of the .wasm given with -wasm, and no
// placeholder; the modules hold neither.
func TestTheScriptCarriesTheHashes(t *testing.T) {
	wasm := filepath.Join(t.TempDir(), "modelcontext.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	built := build(t, "dist", "-wasm", wasm)
	runtimeHash, wasmHash := sri(built[RuntimeFile]), sri([]byte("\x00asm\x01\x00\x00\x00"))
	for name, b := range built {
		carries := bytes.Contains(b, []byte(`"`+runtimeHash+`"`)) && bytes.Contains(b, []byte(`"`+wasmHash+`"`))
		if want := name == "modelcontext.js"; carries != want {
			t.Errorf("%s carries the hashes: %v, want %v", name, carries, want)
		}
		if bytes.Contains(b, []byte("__MODELCONTEXT_WASM_SHA384__")) || bytes.Contains(b, []byte("__MODELCONTEXT_RUNTIME_SHA384__")) {
			t.Errorf("%s still holds a placeholder", name)
		}
	}
	if err := run([]string{"-o", t.TempDir(), "-loader", loaderDir, "-wasm", filepath.Join(t.TempDir(), "missing.wasm")}); err == nil {
		t.Error("jsbuild -wasm with no such file succeeded")
	}
}
