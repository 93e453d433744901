//go:build js && wasm

package bridge

import "github.com/modelcontext-go/modelcontext/wasm/registry"

// jsHost implements registry.Host with the loader's host functions.
type jsHost struct{}

func (jsHost) Bind(id registry.ID) { hostBind(int32(id)) }

// Subscribe's JavaScript side answers 0 for a teardown, 16+kind for a
// returned non-function, and minus an error handle for a throw.
func (jsHost) Subscribe(id registry.ID) (registry.SubscribeStatus, registry.Kind, registry.Value) {
	switch n := hostSubscribe(int32(id)); {
	case n < 0:
		return registry.SubscribeThrew, 0, registry.Value(-n)
	case n >= 16:
		return registry.SubscribeNoTeardown, registry.Kind(n - 16), 0
	default:
		return registry.SubscribeTeardown, 0, 0
	}
}

func (jsHost) Retire(id registry.ID) registry.Value { return registry.Value(hostRetire(int32(id))) }

// Get's JavaScript side answers a value handle, 0 for a pending Promise, or
// minus an error handle for a throw.
func (jsHost) Get(id registry.ID, push uint32) (registry.GetStatus, registry.Value) {
	switch n := hostGet(int32(id), int32(push)); {
	case n < 0:
		return registry.GetThrew, registry.Value(-n)
	case n == 0:
		return registry.GetPending, 0
	default:
		return registry.GetValue, registry.Value(n)
	}
}

func (jsHost) Compare(id registry.ID, v registry.Value) registry.KeyResult {
	return registry.KeyResult(hostCompare(int32(id), int32(v)))
}

func (jsHost) SetBaseline(id registry.ID, keep bool) { hostSetBaseline(int32(id), b2i(keep)) }

func (jsHost) Dispatch(id registry.ID, v registry.Value) { hostDispatch(int32(id), int32(v)) }

func (jsHost) Deliver(s registry.SubID, id registry.ID, v registry.Value) registry.Value {
	return registry.Value(hostDeliver(int32(s), int32(id), int32(v)))
}

func (jsHost) EndSubscription(s registry.SubID) { hostEndSubscription(int32(s)) }

func (jsHost) Release(v registry.Value) {
	if v != 0 {
		hostRelease(int32(v))
	}
}

func (jsHost) ListChanged()                       { hostListChanged() }
func (jsHost) Warn(msg string)                    { hostWarn(msg) }
func (jsHost) Error(msg string, v registry.Value) { hostError(msg, int32(v)) }
func (jsHost) Debugging() bool                    { return hostDebugging() != 0 }
func (jsHost) Debug(msg string)                   { hostDebug(msg) }

// fail hands the loader the message of the error it is about to throw.
func (jsHost) fail(msg string) { hostSetError(msg) }

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
