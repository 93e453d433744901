//go:build js && wasm

package bridge

import (
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/abi"
	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

var (
	host = new(jsHost)
	reg  = registry.New(host)
	in   = make([]byte, 256) // strings and encoded fields written by the loader
)

// Ready tells the loader that the exports can be called.
func Ready() { hostReady() }

// recoverEntry is the one panic guard of the exports: deferred first thing
// by every export (but mc_push of an unchanged value, see mcPush), it turns
// a panic into a console error naming the entry point (name) and makes the
// export return the failure in *code, so that a bug or a hostile input
// never stops the Go runtime. An export that answers something else than a
// code (mc_buffer, mc_fault: an address) passes a code of its own, which it
// drops: its named result is then still nil.
func recoverEntry(name string, code *int32) {
	if p := recover(); p != nil {
		*code = internalError(name, p)
	}
}

// internalError reports the panic p of the export name and returns the
// failure the export returns (see failure).
func internalError(name string, p any) int32 {
	msg := "modelcontext: internal error in " + name + ": " + panicText(p)
	// The raw host call, without checkFault: a second panic here would
	// escape the export.
	hostError(msg, 0)
	fault = 0
	return failure(abi.FailError, msg)
}

func panicText(p any) string {
	switch v := p.(type) {
	case string:
		return v
	case error:
		return v.Error()
	}
	return "panic"
}

// maxBuffer is the most mc_buffer gives: an argument larger than this is
// refused rather than grow Go's memory, which never shrinks. The loader's
// largest arguments (an MCP message, at most mcp.MaxMessageText of text, a
// registration's strings) stay far below it.
const maxBuffer = 64 << 20

// mc_buffer returns a buffer of at least n bytes (and never fewer than 256)
// for the loader to write the argument of the next export into, or 0 for
// more than maxBuffer bytes (or a failure). What the buffer held is kept
// when it grows, and it moves only then: the loader asks again only for more
// room (or when Go's memory grew).
//
//go:wasmexport mc_buffer
func mcBuffer(n int32) (p unsafe.Pointer) {
	var failed int32
	defer recoverEntry("the loader's buffer", &failed)
	if n > maxBuffer {
		return nil
	}
	if int(n) > len(in) {
		in = append(in, make([]byte, min(max(int(n), 2*len(in)), maxBuffer)-len(in))...)
	}
	return unsafe.Pointer(&in[0])
}

// mc_register adds registration id, whose fields the buffer holds
// (registry.RegistrationFields, n bytes), as the current registration of
// its key: it returns the ID of the registration it replaced, or 0, or a
// failure. It calls nothing of the page's: the loader runs the lifecycle
// around it.
//
//go:wasmexport mc_register
func mcRegister(id, n int32) (code int32) {
	defer recoverEntry("registerResource", &code)
	r, err := registry.DecodeRegistration(in[:n])
	if err != nil {
		panic(err)
	}
	replaced, err := reg.Register(registry.ID(id), r)
	if err != nil {
		panic(err)
	}
	return int32(replaced)
}

// mc_unregister removes registration id and ends the consumer subscriptions
// of its uri. It returns 1 when id was a current registration, else 0.
//
//go:wasmexport mc_unregister
func mcUnregister(id int32) (code int32) {
	defer recoverEntry("unregister", &code)
	if reg.Unregister(registry.ID(id)) {
		return 1
	}
	return 0
}

// mc_list_changed tells the MCP servers that the list of resources changed;
// the loader calls it after resourcelistchanged, while a server runs.
//
//go:wasmexport mc_list_changed
func mcListChanged() (code int32) {
	defer recoverEntry("resourcelistchanged", &code)
	reg.ListChanged()
	return 0
}

// mc_push hands Go the result of push number push of registration id
// (registry.Result, for the value v) and returns what Go did with it
// (registry.Outcome). The loader numbered the onChange call, called the
// getter and compared the value's key with the baseline; Go decides.
//
// An unchanged value in normal mode, the commonest push, is decided without
// the panic guard, which would be a noticeable part of its cost: Push then
// calls nothing out of Go and cannot panic, whatever the arguments
// (registry.Push documents it and a test holds it to that).
//
//go:wasmexport mc_push
func mcPush(id, push, result, v, debug int32) int32 {
	if result == int32(registry.ResultSame) && debug == 0 {
		reg.SetDebug(false)
		return int32(reg.Push(registry.ID(id), uint32(push), registry.ResultSame, 0))
	}
	return mcPushGuarded(id, push, result, v, debug)
}

// mcPushGuarded is mc_push behind the panic guard.
//
//go:noinline
func mcPushGuarded(id, push, result, v, debug int32) (outcome int32) {
	defer recoverEntry("onChange", &outcome)
	reg.SetDebug(debug != 0)
	return int32(reg.Push(registry.ID(id), uint32(push), registry.Result(result), registry.Value(v)))
}

// mc_match returns the address of a match record (the ID and parameters of
// the first template that serves the uri in the first n bytes of the
// buffer), or 0.
//
//go:wasmexport mc_match
func mcMatch(n int32) (code int32) {
	defer recoverEntry("readResource", &code)
	// No copy: nothing keeps uri (the parameters copy what they keep).
	// Slicing first keeps the bounds check: a bad n panics and is recovered.
	b := in[:n]
	rid, params := reg.Match(unsafe.String(unsafe.SliceData(b), len(b)))
	if rid == 0 {
		return 0
	}
	return matched(int32(rid), mcp.ParamsJSON(params))
}

// mc_subscribe starts a consumer subscription to the resource id, or
// returns 0 when id is not a current resource.
//
//go:wasmexport mc_subscribe
func mcSubscribe(id int32) (sub int32) {
	defer recoverEntry("subscribeResource", &sub)
	return int32(reg.Subscribe(registry.ID(id)))
}

//go:wasmexport mc_unsubscribe
func mcUnsubscribe(sub int32) (code int32) {
	defer recoverEntry("unsubscribe", &code)
	reg.Unsubscribe(registry.SubID(sub))
	return 0
}
