package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"os"
)

// The classic script carries the SHA-384 hashes of the two files it loads,
// so that an integrity attribute on its tag vouches for them too
// (js/loader/integrity.js checks them). The loader's source holds these
// placeholders; addIntegrity writes the hashes over them in the classic
// script, and "" in the modules, which carry none.
const (
	runtimeHashSlot = `"__MODELCONTEXT_RUNTIME_SHA384__"`
	wasmHashSlot    = `"__MODELCONTEXT_WASM_SHA384__"`
)

// addIntegrity writes the hashes into the built files: of the runtime as
// run writes it (its header and its code), and of the .wasm at wasmFile
// ("" when there is none to hash: an integrity attribute then fails to
// load the module, saying why). The .wasm must be built before the loader.
func addIntegrity(built map[string][]byte, test bool, wasmFile string) error {
	runtimeHash := sri(append(header(test, RuntimeFile), built[RuntimeFile]...))
	wasmHash := ""
	if wasmFile != "" {
		b, err := os.ReadFile(wasmFile)
		if err != nil {
			return fmt.Errorf("-wasm: %w (build the .wasm before the loader: make dist/modelcontext.wasm)", err)
		}
		wasmHash = sri(b)
	}
	for name, code := range built {
		r, w := `""`, `""`
		if name == "modelcontext.js" {
			r, w = `"`+runtimeHash+`"`, `"`+wasmHash+`"`
		}
		for _, s := range []struct{ slot, hash string }{{runtimeHashSlot, r}, {wasmHashSlot, w}} {
			if n := bytes.Count(code, []byte(s.slot)); n != 1 && name == "modelcontext.js" {
				return fmt.Errorf("%s: %d copies of %s where the hash goes, want 1 (js/loader/integrity.js)", name, n, s.slot)
			}
			code = bytes.ReplaceAll(code, []byte(s.slot), []byte(s.hash))
		}
		built[name] = code
	}
	return nil
}

// sri is b's SHA-384 as an integrity value: "sha384-" and its base64.
func sri(b []byte) string {
	sum := sha512.Sum384(b)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}
