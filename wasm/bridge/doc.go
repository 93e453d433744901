// Package bridge connects the pure-Go registry and MCP server to the
// JavaScript loader.
//
// JavaScript enters Go only through the functions exported with
// //go:wasmexport in exports.go and mcp.go (and, in the test build alone,
// built with -tags modelcontext_test, testbuild.go's, which only the test
// hooks call): entering that way costs tens of nanoseconds, against tens of
// microseconds for a js.FuncOf. Only numbers
// cross an export's signature, so strings and other fields travel as bytes
// that the loader writes into a buffer of Go's memory (mc_buffer), in the
// encoding of registry.DecodeFields, and page values never enter Go at all:
// they stay in the loader's tables and Go handles them by index.
//
// Go calls back into the loader through functions imported with
// //go:wasmimport from the module "modelcontext" that the loader adds to the
// import object (imports.go). They pass and return numbers, strings as a
// pointer and a length, so the module does not use syscall/js at all: no call
// creates a reference in wasm_exec.js's value table. The codes, kinds and
// field orders come from packages registry and mcp, and wasm/cmd/jsbuild
// writes all of them into the loader.
//
// # Failures
//
// Every export recovers, through one helper deferred first thing
// (recoverEntry): a panic becomes a console error naming the entry point and
// an error result that the loader turns into a thrown Error, and the Go
// runtime keeps running. The one path without the guard is mc_push of an
// unchanged value in normal mode, one call with no defer (see mcPush). A
// host function that throws (a bug in the loader) never returns a value
// that could be mistaken for an answer: the loader sets the flag at
// mc_fault's address and returns, and the bridge panics with the
// function's name right after the call (checkFault).
//
// # Lifetimes
//
// The module creates no js.Func and holds no js.Value. The page API members
// are the loader's own functions, which call the exports; the loader forgets
// a value when Release runs (or, for a push Go did not dispatch or delivered
// before it returned, when mc_push returns).
//
// # Tests
//
// The tests run in Chromium under wasmbrowsertest against the real
// //go:wasmimport functions: make test-wasm hands wasmbrowsertest a copy of
// wasm_exec.js to which testdata/testhost.js adds a "modelcontext" import
// module, a recording fake of the loader's host functions that the tests
// drive through syscall/js.
package bridge
