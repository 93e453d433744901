// Package bridge connects the pure-Go registry to the JavaScript loader.
//
// JavaScript enters Go only through the functions exported with
// //go:wasmexport in exports.go: entering that way costs tens of nanoseconds,
// against tens of microseconds for a js.FuncOf. Only numbers cross an
// export's signature, so strings travel as UTF-8 bytes that the loader writes
// into a buffer of Go's memory, and page values never enter Go at all: they
// stay in the loader's tables and Go handles them by index.
//
// Go calls back into the loader through the functions of the host object the
// loader hands over at start-up (see host.go); those calls pass and return
// numbers, so they create no references in the runtime's value table.
//
// # Lifetimes
//
// The js.Value of each host function is held for the life of the program.
// The bridge creates no js.Func at all: the page API members are the
// loader's own functions, which call the exports.
//
// # Panics
//
// Every export recovers. A panic becomes a console error naming the entry
// point and an error result that the loader turns into a thrown Error, and
// the Go runtime keeps running.
package bridge
