//go:build js && wasm

// Command floor measures, for wasm/cmd/bench, what the module's crossings
// between Go and JavaScript cost at the least: entering Go through a
// //go:wasmexport function and calling JavaScript from Go through a
// //go:wasmimport function, the two kinds of crossing the module's
// operations are made of. It does nothing
// else: whatever an operation of the module costs beyond the reference's
// JavaScript, at least these crossings of it are owed to the boundary.
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

// event dispatches the same event as bench.js's floor-event workload (a
// CustomEvent to one listener) and returns its argument: the event made in
// a call out of Go, as the module makes its events.
//
//go:wasmimport floor event
func event(x int32) int32

// floor_enter does nothing: one call is one entry into Go.
//
//go:wasmexport floor_enter
func enter(x int32) int32 { return x }

// floor_calls calls echo (which 0), echoWrapped (1) or event (2) n times.
//
//go:wasmexport floor_calls
func calls(n, which int32) int32 {
	f := echo
	switch which {
	case 1:
		f = echoWrapped
	case 2:
		f = event
	}
	var s int32
	for i := int32(0); i < n; i++ {
		s += f(i)
	}
	return s
}

func main() {
	ready()
	select {}
}
