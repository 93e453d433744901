//go:build js && wasm

package bridge

import (
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

var (
	host jsHost
	reg  = registry.New(host)
	in   = make([]byte, 256) // strings and descriptors written by the loader
	out  []registry.ID       // IDs read by the loader after mc_list
)

// Ready tells the loader that the exports can be called.
func Ready() { hostReady() }

// recoverEntry turns a panic in an export into a console error and makes the
// export return *code, so that a bug or a hostile input never stops the Go
// runtime. Every export defers it.
func recoverEntry(name string, code *int32) {
	if p := recover(); p != nil {
		msg := "modelcontext: internal error in " + name + ": " + panicText(p)
		host.fail(msg)
		host.Error(msg, 0)
		*code = -1
	}
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

// mc_buffer returns a buffer of at least n bytes for the loader to write the
// argument of the next export into.
//
//go:wasmexport mc_buffer
func mcBuffer(n int32) unsafe.Pointer {
	if int(n) > len(in) {
		in = make([]byte, max(int(n), 2*len(in)))
	}
	return unsafe.Pointer(&in[0])
}

// mc_register registers the descriptor encoded in the first n bytes of the
// buffer. It returns the registration ID, or 0 after handing the loader the
// TypeError's message.
//
//go:wasmexport mc_register
func mcRegister(n int32) (id int32) {
	defer recoverEntry("registerResource", &id)
	d, err := registry.DecodeDescriptor(in[:n])
	if err == nil {
		var rid registry.ID
		rid, err = reg.Register(&d)
		id = int32(rid)
	}
	if err != nil {
		host.fail(err.Error())
	}
	return id
}

//go:wasmexport mc_unregister
func mcUnregister(id int32) (code int32) {
	defer recoverEntry("unregister", &code)
	reg.Unregister(registry.ID(id))
	return 0
}

// mc_push is onChange.
//
//go:wasmexport mc_push
func mcPush(id int32) (code int32) {
	defer recoverEntry("onChange", &code)
	reg.Push(registry.ID(id))
	return 0
}

// mc_settle delivers the outcome of an asynchronous getter.
//
//go:wasmexport mc_settle
func mcSettle(id int32, push int32, v int32, ok int32) (code int32) {
	defer recoverEntry("onChange", &code)
	reg.Settle(registry.ID(id), uint32(push), registry.Value(v), ok != 0)
	return 0
}

// mc_lookup returns the registration of the uri in the first n bytes of the
// buffer, or 0 after handing the loader the NotFoundError's message.
//
//go:wasmexport mc_lookup
func mcLookup(n int32) (id int32) {
	defer recoverEntry("readResource", &id)
	// No copy: nothing keeps uri (the message and the parameters copy it).
	// Slicing first keeps the bounds check: a bad n panics and is recovered.
	b := in[:n]
	uri := unsafe.String(unsafe.SliceData(b), len(b))
	rid, params := reg.Lookup(uri)
	if id = int32(rid); id == 0 {
		host.fail(registry.NotFoundMessage(uri))
	} else if params != nil {
		hostSetParams(mcp.ParamsJSON(params))
	}
	return id
}

// mc_subscribe starts a consumer subscription to the uri in the buffer, or
// returns 0 after handing the loader the NotFoundError's message.
//
//go:wasmexport mc_subscribe
func mcSubscribe(n int32) (sub int32) {
	defer recoverEntry("subscribeResource", &sub)
	uri := string(in[:n])
	if sub = int32(reg.Subscribe(uri)); sub == 0 {
		host.fail(registry.NotFoundMessage(uri))
	}
	return sub
}

//go:wasmexport mc_unsubscribe
func mcUnsubscribe(sub int32) (code int32) {
	defer recoverEntry("unsubscribe", &code)
	reg.Unsubscribe(registry.SubID(sub))
	return 0
}

// mc_list writes the IDs of the resources (or, when templates is not 0, of
// the templates) in list order and returns how many; mc_list_ptr says where
// they are.
//
//go:wasmexport mc_list
func mcList(templates int32) (n int32) {
	defer recoverEntry("getResources", &n)
	out = reg.Order(out[:0], templates != 0)
	return int32(len(out))
}

//go:wasmexport mc_list_ptr
func mcListPtr() unsafe.Pointer {
	if cap(out) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.SliceData(out))
}

// mc_stats reports live counts for leak checks: 0 for registrations, 1 for
// consumer subscriptions, 2 for the MCP servers' sub-channel sessions.
//
//go:wasmexport mc_stats
func mcStats(which int32) int32 {
	s := reg.Stats()
	switch which {
	case 0:
		return int32(s.Registrations)
	case 2:
		n := 0
		for _, srv := range servers {
			n += srv.Sessions()
		}
		return int32(n)
	}
	return int32(s.Subscriptions)
}
