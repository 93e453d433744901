// Package seam is where the rules of the seam between the Go module and its
// JavaScript loader are written down and held.
//
// Go is the source of every code that crosses the seam: the kinds of
// JavaScript values, the registration fields and the results and outcomes of
// a push (package registry), the message and option fields and the
// attachment and content codes (package mcp). wasm/cmd/jsbuild writes them
// into the loader as constants when it builds dist/modelcontext.js, so the
// two sides cannot drift, and its tests check that the loader's host
// functions and the bridge's //go:wasmimport declarations (and the exports
// the loader calls and the bridge's //go:wasmexport functions) have the same
// names and signatures. This package's test holds the module to what it may
// link. The package imports nothing; it declares the codes that belong to
// the seam itself rather than to a package behind it.
package seam

// The kinds of failure an export returns (wasm/bridge's failure records):
// the Error the loader throws.
const (
	FailError     = 0 // an internal error: a bug, or input the loader should never have sent
	FailTypeError = 1 // a refused argument, such as serveMCP's options
)

// FrameIDBase is where the registration IDs of a connected frame's
// resources start (connectFrame's proxies; the page's own count up from 1).
// The registry lists and matches IDs below it before those at or above it,
// each in its own order, and so does the loader's cache: a frame's
// resources come after the page's own.
const FrameIDBase = 1 << 30
