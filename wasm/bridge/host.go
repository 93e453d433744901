//go:build js && wasm

package bridge

import (
	"syscall/js"

	"modelcontext/wasm/registry"
)

// jsHost implements registry.Host with the functions of the loader's host
// object. Each is a js.Value held for the life of the program.
type jsHost struct {
	bind, subscribe, retire, get, compare, setBaseline, dispatch, deliver,
	endSubscription, release, listChanged, warn, error, debugging, debug,
	setError js.Value
}

func newJSHost(o js.Value) *jsHost {
	return &jsHost{
		bind: o.Get("bind"), subscribe: o.Get("subscribe"), retire: o.Get("retire"),
		get: o.Get("get"), compare: o.Get("compare"), setBaseline: o.Get("setBaseline"),
		dispatch: o.Get("dispatch"), deliver: o.Get("deliver"),
		endSubscription: o.Get("endSubscription"), release: o.Get("release"),
		listChanged: o.Get("listChanged"), warn: o.Get("warn"), error: o.Get("error"),
		debugging: o.Get("debugging"), debug: o.Get("debug"), setError: o.Get("setError"),
	}
}

func (h *jsHost) Bind(id registry.ID) { h.bind.Invoke(int(id)) }

// Subscribe's JavaScript side answers 0 for a teardown, 16+kind for a
// returned non-function, and minus an error handle for a throw.
func (h *jsHost) Subscribe(id registry.ID) (registry.SubscribeStatus, registry.Kind, registry.Value) {
	switch n := h.subscribe.Invoke(int(id)).Int(); {
	case n < 0:
		return registry.SubscribeThrew, 0, registry.Value(-n)
	case n >= 16:
		return registry.SubscribeNoTeardown, registry.Kind(n - 16), 0
	default:
		return registry.SubscribeTeardown, 0, 0
	}
}

func (h *jsHost) Retire(id registry.ID) registry.Value {
	return registry.Value(h.retire.Invoke(int(id)).Int())
}

// Get's JavaScript side answers a value handle, 0 for a pending Promise, or
// minus an error handle for a throw.
func (h *jsHost) Get(id registry.ID, push uint32) (registry.GetStatus, registry.Value) {
	switch n := h.get.Invoke(int(id), push).Int(); {
	case n < 0:
		return registry.GetThrew, registry.Value(-n)
	case n == 0:
		return registry.GetPending, 0
	default:
		return registry.GetValue, registry.Value(n)
	}
}

func (h *jsHost) Compare(id registry.ID, v registry.Value) registry.KeyResult {
	return registry.KeyResult(h.compare.Invoke(int(id), int(v)).Int())
}

func (h *jsHost) SetBaseline(id registry.ID, keep bool) { h.setBaseline.Invoke(int(id), keep) }

func (h *jsHost) Dispatch(id registry.ID, v registry.Value) { h.dispatch.Invoke(int(id), int(v)) }

func (h *jsHost) Deliver(s registry.SubID, id registry.ID, v registry.Value) registry.Value {
	return registry.Value(h.deliver.Invoke(int(s), int(id), int(v)).Int())
}

func (h *jsHost) EndSubscription(s registry.SubID) { h.endSubscription.Invoke(int(s)) }

func (h *jsHost) Release(v registry.Value) {
	if v != 0 {
		h.release.Invoke(int(v))
	}
}

func (h *jsHost) ListChanged()                       { h.listChanged.Invoke() }
func (h *jsHost) Warn(msg string)                    { h.warn.Invoke(msg) }
func (h *jsHost) Error(msg string, v registry.Value) { h.error.Invoke(msg, int(v)) }
func (h *jsHost) Debugging() bool                    { return h.debugging.Invoke().Bool() }
func (h *jsHost) Debug(msg string)                   { h.debug.Invoke(msg) }

// fail hands the loader the message of the error it is about to throw.
func (h *jsHost) fail(msg string) { h.setError.Invoke(msg) }
