//go:build js && wasm && !bridgetest

package bridge

import "unsafe"

// The loader's host functions, imported from the module "modelcontext" that
// js/loader.js adds to the import object. They take and return numbers
// (a string is passed as a pointer and a length into Go's memory), so no call
// creates a reference in wasm_exec.js's value table. Each one catches every
// JavaScript exception: one escaping into Go's frames would unwind them
// without running deferred calls.

//go:wasmimport modelcontext bind
func hostBind(id int32)

//go:wasmimport modelcontext subscribe
func hostSubscribe(id int32) int32

//go:wasmimport modelcontext retire
func hostRetire(id int32) int32

//go:wasmimport modelcontext get
func hostGet(id, push int32) int32

//go:wasmimport modelcontext compare
func hostCompare(id, v int32) int32

//go:wasmimport modelcontext setBaseline
func hostSetBaseline(id, keep int32)

//go:wasmimport modelcontext dispatch
func hostDispatch(id, v int32)

//go:wasmimport modelcontext deliver
func hostDeliver(sub, id, v int32) int32

//go:wasmimport modelcontext endSubscription
func hostEndSubscription(sub int32)

//go:wasmimport modelcontext release
func hostRelease(v int32)

//go:wasmimport modelcontext listChanged
func hostListChanged()

//go:wasmimport modelcontext warn
func hostWarn(msg string)

//go:wasmimport modelcontext error
func hostError(msg string, v int32)

//go:wasmimport modelcontext debugging
func hostDebugging() int32

//go:wasmimport modelcontext debug
func hostDebug(msg string)

//go:wasmimport modelcontext setError
func hostSetError(msg string)

//go:wasmimport modelcontext ready
func hostReady()

//go:wasmimport modelcontext setParams
func hostSetParams(json string)

//go:wasmimport modelcontext mcpOpen
func hostMCPOpen(server int32, channel string)

//go:wasmimport modelcontext mcpClose
func hostMCPClose(server int32)

//go:wasmimport modelcontext mcpPost
func hostMCPPost(server int32, session, msg string, attach int32, ids unsafe.Pointer, n int32, v int32)

//go:wasmimport modelcontext mcpRead
func hostMCPRead(server, req, id int32, params string, class int32)
