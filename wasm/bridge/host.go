//go:build js && wasm

package bridge

import (
	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// jsHost implements registry.Host and mcp.Host with the loader's host
// functions. Its methods have pointer receivers, so that the registry's
// interface calls reach them directly, not through a wrapper that copies the
// (empty) value.
type jsHost struct{}

func (*jsHost) Dispatch(id registry.ID, v registry.Value) {
	hostDispatch(int32(id), int32(v))
	checkFault("dispatch")
}

func (*jsHost) Deliver(s registry.SubID, v registry.Value) registry.Value {
	e := hostDeliver(int32(s), int32(v))
	checkFault("deliver")
	return registry.Value(e)
}

func (*jsHost) EndSubscription(s registry.SubID) {
	hostEndSubscription(int32(s))
	checkFault("endSubscription")
}

func (*jsHost) Release(v registry.Value) {
	if v != 0 {
		hostRelease(int32(v))
		checkFault("release")
	}
}

func (*jsHost) Error(msg string, v registry.Value) {
	hostError(msg, int32(v))
	checkFault("error")
}

func (*jsHost) Debug(msg string) {
	hostDebug(msg)
	checkFault("debug")
}

func (*jsHost) Post(server int32, session, msg string, attach mcp.Attachment, first, count int, v registry.Value) {
	hostMCPPost(server, session, msg, int32(attach), int32(first), int32(count), int32(v))
	checkFault("mcpPost")
}

func (*jsHost) Read(server, req int32, id registry.ID, params string) {
	hostMCPRead(server, req, int32(id), params)
	checkFault("mcpRead")
}

func (*jsHost) Complete(server, req int32, id registry.ID, name, value, args string) {
	hostMCPComplete(server, req, int32(id), name, value, args)
	checkFault("mcpComplete")
}

func (*jsHost) TextBytes(v registry.Value) int {
	n := hostTextBytes(int32(v))
	checkFault("textBytes")
	return int(n)
}

func (*jsHost) Forget(server int32, session string) {
	hostMCPForget(server, session)
	checkFault("mcpForget")
}

func (*jsHost) Revision() float64 {
	n := hostRevision()
	checkFault("revision")
	return n
}
