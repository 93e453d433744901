// Package bridge connects the pure-Go registry to the JavaScript loader.
//
// JavaScript enters Go only through the functions exported with
// //go:wasmexport in exports.go: entering that way costs tens of nanoseconds,
// against tens of microseconds for a js.FuncOf. Only numbers cross an
// export's signature, so strings travel as UTF-8 bytes that the loader writes
// into a buffer of Go's memory, and page values never enter Go at all: they
// stay in the loader's tables and Go handles them by index.
//
// Go calls back into the loader through functions imported with
// //go:wasmimport from the module "modelcontext" that the loader adds to the
// import object (imports.go). They pass and return numbers, strings as a
// pointer and a length, so the module does not use syscall/js at all: no call
// creates a reference in wasm_exec.js's value table, and the .wasm is 23 KB
// (brotli) smaller than with syscall/js.
//
// # Lifetimes
//
// The module creates no js.Func and holds no js.Value. The page API members
// are the loader's own functions, which call the exports; the loader's tables
// forget a registration's functions when Retire runs and a value when
// Release runs.
//
// # Tests
//
// wasmbrowsertest instantiates test binaries with wasm_exec.js's own import
// object, which has no "modelcontext" module, so the tests are built with
// -tags bridgetest: imports_bridgetest.go then calls a JavaScript fake host
// through syscall/js under the same function names.
//
// # Panics
//
// Every export recovers. A panic becomes a console error naming the entry
// point and an error result that the loader turns into a thrown Error, and
// the Go runtime keeps running.
package bridge
