package registry_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// panickyHost fails the test on any call: the host of a push that must call
// nothing out of Go.
type panickyHost struct{ t *testing.T }

func (h panickyHost) fail(what string) { h.t.Helper(); h.t.Fatalf("Push called the host's %s", what) }

func (h panickyHost) Release(registry.Value)               { h.fail("Release") }
func (h panickyHost) Dispatch(registry.ID, registry.Value) { h.fail("Dispatch") }
func (h panickyHost) EndSubscription(registry.SubID)       { h.fail("EndSubscription") }
func (h panickyHost) Error(string, registry.Value)         { h.fail("Error") }
func (h panickyHost) Debug(string)                         { h.fail("Debug") }
func (h panickyHost) Deliver(registry.SubID, registry.Value) registry.Value {
	h.fail("Deliver")
	return 0
}

// TestAnUnchangedPushCallsNothingAndCannotPanic: mc_push decides an
// unchanged value in normal mode without a panic guard, so Push must neither
// call the host nor panic then, for any ID (current, gone, never seen,
// negative) and any push number (new, late, extreme), and with consumers.
func TestAnUnchangedPushCallsNothingAndCannotPanic(t *testing.T) {
	r := registry.New(panickyHost{t})
	for id := registry.ID(1); id <= 20; id++ {
		if _, err := r.Register(id, registry.Registration{Key: fmt.Sprintf("state://r%d", id), MIMEType: registry.DefaultMIMEType}); err != nil {
			t.Fatal(err)
		}
	}
	r.Subscribe(3)
	r.Unregister(7)
	ids := []registry.ID{1, 3, 7, 20, 21, 0, -1, math.MinInt32, math.MaxInt32}
	pushes := []uint32{0, 1, 2, 1, 1 << 31, math.MaxUint32, 5}
	for _, id := range ids {
		for _, n := range pushes {
			got := r.Push(id, n, registry.ResultSame, 0)
			if got != registry.Suppressed && got != registry.Dropped {
				t.Errorf("Push(%d, %d, same) = %d, want suppressed or dropped", id, n, got)
			}
		}
	}
	if got := r.Push(1, math.MaxUint32, registry.ResultSame, 0); got != registry.Dropped {
		t.Errorf("a late unchanged push = %d, want dropped", got)
	}
}
