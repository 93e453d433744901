//go:build js && wasm

// Command modelcontext is the WebAssembly module behind document.modelContext's
// resources. The loader (js/loader/, which wasm/cmd/jsbuild builds into
// dist/modelcontext.js) instantiates it; main tells the loader that the
// registry's exports are ready and blocks so that they stay callable.
package main

import "github.com/modelcontext-go/modelcontext/wasm/bridge"

func main() {
	bridge.Ready()
	select {}
}
