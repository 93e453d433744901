package registry_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// An unregistered entry is reused by the next registration. A push whose
// getter unregisters its resource and registers another (into the same
// entry) must not reach the new registration.
func TestAnEntryReusedFromInsideGetServesOnlyItsNewRegistration(t *testing.T) {
	h := registrytest.New()
	var a, b registry.ID
	var onChangeA, onChangeB func()
	a = h.Register("state://a", func() (any, error) {
		if b == 0 {
			h.Unregister(a)
			b = h.Register("state://b", func() (any, error) { return "b", nil }, func(f func()) any { onChangeB = f; return nil })
			h.Follow("state://b", nil)
		}
		return "a", nil
	}, func(f func()) any { onChangeA = f; return nil })
	onChangeA()
	if got := h.Lines("event"); len(got) != 0 {
		t.Fatalf("the push of the unregistered resource dispatched %q", got)
	}
	onChangeB()
	want := []string{"event " + strconv.Itoa(int(b)) + ` "b"`}
	if got := h.Lines("event"); !slices.Equal(got, want) {
		t.Errorf("events = %q, want %q", got, want)
	}
	if got := h.Lines("handler"); !slices.Equal(got, []string{"handler 1 b"}) {
		t.Errorf("handlers = %q", got)
	}
	if h.Held() != 0 {
		t.Errorf("%d value handles leaked", h.Held())
	}
}

// The same when a resourceupdated listener does it during a delivery: the
// handlers of the new registration never get the old value.
func TestAnEntryReusedDuringADeliveryServesOnlyItsNewRegistration(t *testing.T) {
	h := registrytest.New()
	var a registry.ID
	var onChangeA func()
	a = h.Register("state://a", func() (any, error) { return "a", nil }, func(f func()) any { onChangeA = f; return nil })
	var got []any
	h.Listener = func(id registry.ID, _ any) {
		if id != a {
			return
		}
		h.Unregister(a)
		h.Register("state://b", func() (any, error) { return "b", nil }, nil)
		h.Follow("state://b", func(v any) { got = append(got, v) })
	}
	onChangeA()
	if len(got) != 0 {
		t.Errorf("the new registration's handler got %v", got)
	}
	if h.Held() != 0 {
		t.Errorf("%d value handles leaked", h.Held())
	}
}

// A registration replaced from inside its own subscribe is retired before
// its teardown exists; the teardown runs once subscribe returns it. The
// lifecycle here is the fake's (as the loader runs it; wasm/e2e's
// TestReentrancy tests the loader's); what this holds Go to is a nested
// replacement leaving exactly one registration.
func TestTeardownOfARegistrationReplacedInsideItsSubscribeRuns(t *testing.T) {
	h := registrytest.New()
	torn := 0
	replaced := false
	h.Register("state://a", func() (any, error) { return 1, nil }, func(func()) any {
		if !replaced {
			replaced = true
			h.Register("state://a", func() (any, error) { return 2, nil }, nil)
		}
		return teardown(func() { torn++ })
	})
	if torn != 1 {
		t.Errorf("the teardown ran %d times, want 1", torn)
	}
	if s := h.R.Stats(); s.Registrations != 1 {
		t.Errorf("%d registrations, want 1", s.Registrations)
	}
}

// Registering a uri again after unregistering it allocates nothing: the
// entry and its uri's string are reused.
func TestRegisterAndUnregisterAllocateNothingOnceWarm(t *testing.T) {
	r := registry.New(nopHost{})
	id := registry.ID(0)
	reg := registry.Registration{Key: "state://cycle", MIMEType: registry.DefaultMIMEType}
	cycle := func() {
		id++
		if _, err := r.Register(id, reg); err != nil {
			t.Fatal(err)
		}
		r.Unregister(id)
	}
	cycle()
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("a register + unregister cycle allocates %v times, want 0", n)
	}
	if s := r.Stats(); s.Registrations != 0 {
		t.Errorf("%d registrations left", s.Registrations)
	}
}

// nopHost is a host that does nothing and allocates nothing.
type nopHost struct{}

func (nopHost) Release(registry.Value)                                {}
func (nopHost) Dispatch(registry.ID, registry.Value)                  {}
func (nopHost) Deliver(registry.SubID, registry.Value) registry.Value { return 0 }
func (nopHost) EndSubscription(registry.SubID)                        {}
func (nopHost) Error(string, registry.Value)                          {}
func (nopHost) Debug(string)                                          {}

// A replacement whose old teardown registers the uri once more: the newer
// registration replaces the one being made, which is then not subscribed
// (it is gone, and the page never sees its subscribe called). As above, the
// lifecycle is the fake's and wasm/e2e tests the loader's; Go must accept
// the replacement of a registration it has just been told of, before the
// call that told it returned, and keep one.
func TestARegistrationReplacedWhileItsPredecessorTearsDownIsNotSubscribed(t *testing.T) {
	h := registrytest.New()
	var subscribed []string
	sub := func(name string, onTeardown func()) func(func()) any {
		return func(func()) any {
			subscribed = append(subscribed, name)
			return teardown(onTeardown)
		}
	}
	get := func() (any, error) { return 1, nil }
	again := false
	h.Register("state://x", get, sub("a", func() {
		if !again {
			again = true
			h.Register("state://x", get, sub("c", func() {}))
		}
	}))
	h.Register("state://x", get, sub("b", func() {}))
	if !slices.Equal(subscribed, []string{"a", "c"}) {
		t.Errorf("subscribed %q, want [a c]", subscribed)
	}
	if s := h.R.Stats(); s.Registrations != 1 {
		t.Errorf("%d registrations, want 1", s.Registrations)
	}
}
