//go:build js && wasm

// Command bare is the floor for any Go WebAssembly module, for
// wasm/cmd/bench: it installs one syscall/js function, globalThis.bareNoop,
// that does nothing, and signals that it is ready by calling
// globalThis.bareReady. The bench times its start-up (navigation start until
// ready) and one JavaScript-to-Go call of bareNoop, the cost of a crossing.
//
// The bench builds it itself:
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o bare.wasm ./testdata/bench/bare
package main

import "syscall/js"

func main() {
	js.Global().Set("bareNoop", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	js.Global().Call("bareReady")
	select {}
}
