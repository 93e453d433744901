// Package seam holds what the Go module and its JavaScript loader must agree
// on besides the codes other packages already define: how host functions
// encode their results in one int32.
//
// Go is the source of every code that crosses the seam: the kinds of
// JavaScript values and the registration fields (package registry), the
// message and option fields and the attachment and content codes (package
// mcp), and these encodings. wasm/cmd/jsbuild writes them into the loader as
// constants when it builds dist/modelcontext.js, so the two sides cannot
// drift, and its tests check that the loader's host functions and the
// bridge's //go:wasmimport declarations (and the exports the loader calls
// and the bridge's //go:wasmexport functions) have the same names and
// signatures. This package imports nothing, so that the module's .wasm does
// not grow for it.
package seam

// How the host function get answers in one int32.
const (
	// GetPending: the getter returned a Promise; Settle follows. A value is
	// its handle (> 0); a throw is minus the handle of the error.
	GetPending = 0
)
