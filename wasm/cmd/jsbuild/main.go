// Command jsbuild writes the module's two JavaScript entry points from the
// loader's source and Go's wasm_exec.js:
//
//	dist/modelcontext.js   the classic script (<script src>)
//	dist/modelcontext.mjs  the ES module (import { registerResource } from "modelcontext")
//
// Both hold the same loader. The script finds the .wasm beside its own src;
// the module finds it with new URL("modelcontext.wasm", import.meta.url), the
// form bundlers recognise, rewrite and emit. The module's named exports are the
// members the loader installs on document.modelContext, taken from it after it
// is installed, so that a page that has both the tag and the import gets one
// registry and one fetch of the .wasm.
//
//	go run ./wasm/cmd/jsbuild -o dist
//
// `make build` runs it.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "jsbuild:", err)
		os.Exit(1)
	}
}

// exports are the named exports of the ES module, in the order of the
// loader's API: members of document.modelContext.
var exports = []string{
	"registerResource", "getResources", "getResourceTemplates", "readResource",
	"subscribeResource", "serveMCP", "registerResourceTools", "ready",
}

func run(args []string) error {
	fl := flag.NewFlagSet("jsbuild", flag.ContinueOnError)
	out := fl.String("o", "dist", "output `folder`")
	src := fl.String("loader", "js/loader.js", "the loader's `source`")
	glue := fl.String("wasm-exec", filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), "Go's `wasm_exec.js`")
	if err := fl.Parse(args); err != nil {
		return err
	}
	loader, err := os.ReadFile(*src)
	if err != nil {
		return err
	}
	wasmExec, err := os.ReadFile(*glue)
	if err != nil {
		return err
	}
	body, err := fold(loader, wasmExec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	script := bytes.Replace(body, []byte(moduleURLMarker), []byte(`""`), 1)
	module := moduleEntry(body)
	if err := write(filepath.Join(*out, "modelcontext.js"), script); err != nil {
		return err
	}
	return write(filepath.Join(*out, "modelcontext.mjs"), module)
}

// moduleURLMarker stands in the loader where the ES module's own .wasm URL
// goes: "" in the classic script.
const moduleURLMarker = "/* @module-wasm-url */ undefined"

// fold replaces the loader's `// @include wasm_exec.js` line with Go's glue.
func fold(loader, wasmExec []byte) ([]byte, error) {
	var b bytes.Buffer
	found := false
	for _, line := range strings.SplitAfter(string(loader), "\n") {
		if strings.TrimSpace(line) == "// @include wasm_exec.js" {
			b.Write(wasmExec)
			found = true
			continue
		}
		b.WriteString(line)
	}
	if !found {
		return nil, errors.New("the loader has no `// @include wasm_exec.js` line")
	}
	if !bytes.Contains(b.Bytes(), []byte("globalThis.Go = class")) {
		return nil, errors.New("wasm_exec.js does not define globalThis.Go: not Go's glue?")
	}
	if !bytes.Contains(b.Bytes(), []byte(moduleURLMarker)) {
		return nil, fmt.Errorf("the loader has no %q where the module's .wasm URL goes", moduleURLMarker)
	}
	return b.Bytes(), nil
}

// moduleEntry wraps the loader as an ES module.
func moduleEntry(body []byte) []byte {
	var b bytes.Buffer
	b.WriteString("// The ES module form of modelcontext.js: importing it installs document.modelContext.\n")
	b.WriteString("const moduleWasmURL = new URL(\"modelcontext.wasm\", import.meta.url).href;\n")
	b.Write(bytes.Replace(body, []byte(moduleURLMarker), []byte("moduleWasmURL"), 1))
	b.WriteString("const modelContext = document.modelContext;\n")
	for _, name := range exports {
		fmt.Fprintf(&b, "export const %s = modelContext.%s;\n", name, name)
	}
	return b.Bytes()
}

func write(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
