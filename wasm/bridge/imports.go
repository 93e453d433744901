//go:build js && wasm

package bridge

import "unsafe"

// The loader's host functions, imported from the module "modelcontext" that
// the loader (js/loader, host.js and mcp.js) adds to the import object. Each
// is declared there under the same name with this Go signature above it;
// wasm/cmd/jsbuild's tests fail when the two lists drift. They take and
// return numbers (a string is passed as a pointer and a length into Go's
// memory), so no call creates a reference in wasm_exec.js's value table. The
// loader catches every JavaScript exception in them (one escaping into Go's
// frames would unwind them without running deferred calls) and reports it
// out of band, through fault: see checkFault.

//go:wasmimport modelcontext dispatch
func hostDispatch(id, v int32)

//go:wasmimport modelcontext deliver
func hostDeliver(sub, v int32) int32

//go:wasmimport modelcontext endSubscription
func hostEndSubscription(sub int32)

//go:wasmimport modelcontext release
func hostRelease(v int32)

//go:wasmimport modelcontext error
func hostError(msg string, v int32)

//go:wasmimport modelcontext debug
func hostDebug(msg string)

//go:wasmimport modelcontext ready
func hostReady()

// hostMCPOpen's parent is 1 for a server that answers the parent window.
//
//go:wasmimport modelcontext mcpOpen
func hostMCPOpen(server int32, channel, origins string, parent int32)

//go:wasmimport modelcontext mcpClose
func hostMCPClose(server int32)

//go:wasmimport modelcontext mcpPost
func hostMCPPost(server int32, session, msg string, attach, first, count, v int32)

//go:wasmimport modelcontext mcpRead
func hostMCPRead(server, req, id int32, params string)

//go:wasmimport modelcontext textBytes
func hostTextBytes(v int32) int32

//go:wasmimport modelcontext mcpComplete
func hostMCPComplete(server, req, id int32, name, value, args string)

//go:wasmimport modelcontext mcpForget
func hostMCPForget(server int32, session string)

//go:wasmimport modelcontext revision
func hostRevision() float64

// fault is set to 1 by the loader when one of its host functions threw: a
// bug in the loader, never an answer. Go learns of it right after the call.
var fault int32

// mc_fault returns where fault is, for the loader to write.
//
//go:wasmexport mc_fault
func mcFault() (p unsafe.Pointer) {
	var failed int32
	defer recoverEntry("the loader's fault flag", &failed)
	return unsafe.Pointer(&fault)
}

// checkFault turns a failed host call into a panic, which the export that
// entered Go recovers and reports as an internal error.
func checkFault(name string) {
	if fault != 0 {
		faulted(name)
	}
}

// faulted is checkFault's panic, apart, so that checkFault is inlined into
// every host call.
//
//go:noinline
func faulted(name string) {
	fault = 0
	panic("the loader's " + name + " failed")
}
