//go:build js && wasm && bridgetest

package bridge

import (
	"syscall/js"
	"unsafe"
)

// Under wasmbrowsertest the page's import object is wasm_exec.js's own, so the
// tests (built with -tags bridgetest) call a JavaScript host object through
// syscall/js instead of the module "modelcontext". The functions have the
// same names and signatures as the imports in imports.go.

var testHost js.Value

func call(name string, args ...any) js.Value { return testHost.Call(name, args...) }

func hostBind(id int32)                  { call("bind", id) }
func hostSubscribe(id int32) int32       { return int32(call("subscribe", id).Int()) }
func hostRetire(id int32) int32          { return int32(call("retire", id).Int()) }
func hostGet(id, push int32) int32       { return int32(call("get", id, push).Int()) }
func hostCompare(id, v int32) int32      { return int32(call("compare", id, v).Int()) }
func hostSetBaseline(id, keep int32)     { call("setBaseline", id, keep) }
func hostDispatch(id, v int32)           { call("dispatch", id, v) }
func hostDeliver(sub, id, v int32) int32 { return int32(call("deliver", sub, id, v).Int()) }
func hostEndSubscription(sub int32)      { call("endSubscription", sub) }
func hostRelease(v int32)                { call("release", v) }
func hostListChanged()                   { call("listChanged") }
func hostWarn(msg string)                { call("warn", msg) }
func hostError(msg string, v int32)      { call("error", msg, v) }
func hostDebugging() int32               { return int32(call("debugging").Int()) }
func hostDebug(msg string)               { call("debug", msg) }
func hostSetError(msg string)            { call("setError", msg) }
func hostReady()                         { call("ready") }

func hostSetParams(json string)                { call("setParams", json) }
func hostMCPOpen(server int32, channel string) { call("mcpOpen", server, channel) }
func hostMCPClose(server int32)                { call("mcpClose", server) }
func hostMCPPost(server int32, session, msg string, attach int32, ids unsafe.Pointer, n int32, v int32) {
	call("mcpPost", server, session, msg, attach, n, v)
}
func hostMCPRead(server, req, id int32, params string, class int32) {
	call("mcpRead", server, req, id, params, class)
}
