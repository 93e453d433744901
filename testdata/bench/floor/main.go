//go:build js && wasm

// Command floor measures, for wasm/cmd/bench, what the module's Go/JavaScript
// seam costs at the least: entering Go through a //go:wasmexport function
// and calling JavaScript from Go through a //go:wasmimport function, the two
// kinds of crossing the module's operations are made of. It does nothing
// else: whatever an operation of the module costs beyond the reference's
// JavaScript, at least these crossings of it are owed to the seam.
//
// The bench builds it the way make build builds the module and starts it
// with Go's own wasm_exec.js (testdata/bench/floor.js):
//
//	GOOS=js GOARCH=wasm go build -trimpath -gcflags=all=-l -ldflags='-s -w' -o floor.wasm ./testdata/bench/floor
package main

// ready tells floor.js that the exports can be called.
//
//go:wasmimport floor ready
func ready()

// echo is a JavaScript function that returns its argument.
//
//go:wasmimport floor echo
func echo(x int32) int32

// echoWrapped is the same function wrapped the way js/loader.js wraps its
// host functions (a try/catch around f.apply(undefined, arguments)).
//
//go:wasmimport floor echoWrapped
func echoWrapped(x int32) int32

// floor_enter does nothing: one call is one entry into Go.
//
//go:wasmexport floor_enter
func enter(x int32) int32 { return x }

// floor_calls calls echo (or, when wrapped is not 0, echoWrapped) n times.
//
//go:wasmexport floor_calls
func calls(n, wrapped int32) int32 {
	var s int32
	if wrapped != 0 {
		for i := int32(0); i < n; i++ {
			s += echoWrapped(i)
		}
		return s
	}
	for i := int32(0); i < n; i++ {
		s += echo(i)
	}
	return s
}

func main() {
	ready()
	select {}
}
