//go:build js && wasm

// Command modelcontext is the WebAssembly module behind document.modelContext's
// resources. The loader (js/loader.js) instantiates it; main connects the
// registry to the loader's host object, tells the loader it is ready, and
// blocks so that the exports stay callable.
package main

import (
	"syscall/js"

	"modelcontext/wasm/bridge"
)

func main() {
	boot := js.Global().Get("__modelcontextBoot")
	bridge.Install(boot.Get("host"))
	boot.Call("ready")
	select {}
}
