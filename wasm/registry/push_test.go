package registry_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

type teardown = registrytest.Teardown

// pushSeq registers a resource whose getter returns the given values in turn,
// pushes once per value, and returns the dispatched events.
func pushSeq(t *testing.T, values ...any) []string {
	t.Helper()
	h := registrytest.New()
	i := 0
	var onChange func()
	h.Register("state://x", func() (any, error) { v := values[i]; i++; return v, nil },
		func(f func()) any { onChange = f; return nil })
	for range values {
		onChange()
	}
	if h.Held() != 0 {
		t.Errorf("%d value handles leaked", h.Held())
	}
	return h.Lines("event")
}

func TestDedupSequences(t *testing.T) {
	cyc := map[string]any{}
	cyc["self"] = cyc
	for _, tc := range []struct {
		name   string
		values []any
		want   int
	}{
		{"A→A→A", []any{"A", "A", "A"}, 1},
		{"A→B→A", []any{"A", "B", "A"}, 3},
		{"A→B→B→C", []any{"A", "B", "B", "C"}, 3},
		{"objects equal by content", []any{map[string]int{"n": 1}, map[string]int{"n": 1}}, 1},
		{"nested change", []any{map[string]any{"a": []int{1}}, map[string]any{"a": []int{2}}}, 2},
		{"first push always dispatches", []any{nil}, 1},
		{"unencodable fails open twice", []any{cyc, cyc}, 2},
		{"fail-open drops the baseline", []any{"A", cyc, "A"}, 3},
		{"unencodable channel then equal", []any{make(chan int), "A", "A"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pushSeq(t, tc.values...); len(got) != tc.want {
				t.Errorf("dispatched %d pushes %q, want %d", len(got), got, tc.want)
			}
		})
	}
}

func TestGetErrorIsReportedAndSurvived(t *testing.T) {
	h := registrytest.New()
	fail := true
	var onChange func()
	h.Register("state://x", func() (any, error) {
		if fail {
			return nil, errors.New("boom")
		}
		return 1, nil
	}, func(f func()) any { onChange = f; return teardown(func() {}) })
	onChange()
	fail = false
	onChange()
	want := []string{
		"listchanged 1",
		"error modelcontext: get() of \"state://x\" failed; nothing was pushed: boom",
		"event 1 1",
	}
	if !slices.Equal(h.Log, want) {
		t.Errorf("log = %q\nwant %q", h.Log, want)
	}
}

func TestReplacementClearsBaselineAndKeepsSubscriptions(t *testing.T) {
	h := registrytest.New()
	var changes []func()
	sub := func(f func()) any { changes = append(changes, f); return teardown(func() {}) }
	get := func() (any, error) { return "same", nil }
	a := h.Register("state://a", get, sub)
	h.Register("state://b", get, sub)
	h.Follow("state://a", nil)
	changes[0]()
	changes[0]() // suppressed
	h.Register("state://a", get, sub)
	changes[0]()    // the replaced registration's onChange: nothing
	changes[2]()    // the new one: dispatches though the value is equal
	h.Unregister(a) // stale: nothing
	want := []string{"listchanged 1", "listchanged 2", `event 1 "same"`, "handler 1 same", "teardown 1", "listchanged 2", `event 3 "same"`, "handler 1 same"}
	if !slices.Equal(h.Log, want) {
		t.Errorf("log = %q\nwant %q", h.Log, want)
	}
}

func TestInconsistentRegistrationsAreRefused(t *testing.T) {
	h := registrytest.New()
	a := h.Register("state://a", func() (any, error) { return 1, nil }, nil)
	reg := registry.Registration{Key: "state://b", MIMEType: "application/json"}
	for _, tc := range []struct {
		name string
		id   registry.ID
		reg  registry.Registration
	}{
		{"an ID in use", a, reg},
		{"a zero ID", 0, reg},
		{"a negative ID", -3, reg},
		{"no key", 10, registry.Registration{MIMEType: "text/plain"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if replaced, err := h.R.Register(tc.id, tc.reg); !errors.Is(err, registry.ErrRegistration) || replaced != 0 {
				t.Errorf("Register = %d, %v, want 0, ErrRegistration", replaced, err)
			}
		})
	}
	if st := h.R.Stats(); st.Registrations != 1 {
		t.Errorf("stats after refused registrations = %+v", st)
	}
}

func TestUnregisterIsIdempotentAndEndsSubscriptions(t *testing.T) {
	h := registrytest.New()
	var onChange func()
	id := h.Register("state://a", func() (any, error) { return 1, nil }, func(f func()) any { onChange = f; return teardown(func() {}) })
	s := h.Follow("state://a", nil)
	h.R.Unregister(id)
	h.R.Unregister(id)
	h.R.Push(id, 1, registry.ResultDifferent, 0) // a push that reached Go after the unregistration
	onChange()
	h.R.Unsubscribe(s)
	// Registering fired the event (the fake's loader); Go's Unregister ends
	// the subscription (the teardown and the event are the loader's).
	want := []string{"listchanged 1", "end 1"}
	if !slices.Equal(h.Log, want) {
		t.Errorf("log = %q\nwant %q", h.Log, want)
	}
	if st := h.R.Stats(); st != (registry.Stats{}) {
		t.Errorf("stats after unregister = %+v", st)
	}
}

func TestAsyncGettersNeverDeliverLate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order []int // which waiting get resolves when
		want  []string
	}{
		{"in order", []int{0, 1}, []string{"event 1 1", "event 1 2"}},
		{"newer first: the older is dropped", []int{1, 0}, []string{"event 1 2"}},
		{"never settling older holds nothing back", []int{1}, []string{"event 1 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := registrytest.New()
			n := 0
			var onChange func()
			id := h.Register("state://a", func() (any, error) { n++; return n, nil }, func(f func()) any { onChange = f; return nil })
			h.SetAsync(id)
			onChange()
			onChange()
			for _, i := range tc.order {
				h.Settle(i)
			}
			if got := h.Lines("event"); !slices.Equal(got, tc.want) {
				t.Errorf("events = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAsyncEqualNewerSuppressesOlder(t *testing.T) {
	h := registrytest.New()
	vals := []any{"A", "B", "A"}
	n := 0
	var onChange func()
	id := h.Register("state://a", func() (any, error) { v := vals[n]; n++; return v, nil }, func(f func()) any { onChange = f; return nil })
	onChange() // A, dispatched synchronously
	h.SetAsync(id)
	onChange() // B, slow
	onChange() // A, fast: suppressed
	h.Settle(1)
	h.Settle(0)
	if got := h.Lines("event"); !slices.Equal(got, []string{`event 1 "A"`}) {
		t.Errorf("events = %q: the late B must not be delivered after the newer A", got)
	}
}

func TestNestedPushesAreDeliveredInOrder(t *testing.T) {
	h := registrytest.New()
	n := 0
	var onChange func()
	h.Register("state://a", func() (any, error) { n++; return n, nil }, func(f func()) any { onChange = f; return nil })
	// The first handler pushes again while the first value is being delivered.
	s1 := h.Follow("state://a", func(v any) {
		if v == 1 {
			onChange()
		}
	})
	s2 := h.Follow("state://a", nil)
	onChange()
	want := []string{"event 1 1", "handler 1 1", "handler 2 1", "event 1 2", "handler 1 2", "handler 2 2"}
	if seq := h.Lines("event", "handler"); !slices.Equal(seq, want) {
		t.Errorf("deliveries = %q\nwant %q", seq, want)
	}
	if s2 != s1+1 {
		t.Errorf("subscription ids %d, %d are not in order", s1, s2)
	}
}

func TestHandlerRemovedDuringDeliveryIsSkipped(t *testing.T) {
	h := registrytest.New()
	var onChange func()
	h.Register("state://a", func() (any, error) { return 1, nil }, func(f func()) any { onChange = f; return nil })
	var s2 registry.SubID
	h.Follow("state://a", func(any) { h.R.Unsubscribe(s2) })
	s2 = h.Follow("state://a", nil)
	onChange()
	if got := h.Lines("handler"); !slices.Equal(got, []string{"handler 1 1"}) {
		t.Errorf("handlers = %q", got)
	}
}

func TestAThrowingHandlerIsReportedAndStopsNothing(t *testing.T) {
	h := registrytest.New()
	var onChange func()
	h.Register("state://a", func() (any, error) { return 1, nil }, func(f func()) any { onChange = f; return nil })
	h.Follow("state://a", func(any) { panic("handler broke") })
	h.Follow("state://a", nil)
	onChange()
	want := []string{"handler 1 1", `error modelcontext: a subscribeResource handler of "state://a" threw: handler broke`, "handler 2 1"}
	var got []string
	for _, l := range h.Log {
		if strings.HasPrefix(l, "handler") || strings.HasPrefix(l, "error") {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) || h.Held() != 0 {
		t.Errorf("log = %q (%d held)\nwant %q", got, h.Held(), want)
	}
}

func TestDebugLines(t *testing.T) {
	h := registrytest.New()
	h.R.SetDebug(true)
	vals := []any{"A", "A"}
	n := 0
	var onChange func()
	id := h.Register("state://a", func() (any, error) { v := vals[n]; n++; return v, nil }, func(f func()) any { onChange = f; return teardown(func() {}) })
	onChange()
	onChange()
	h.Register("state://a", func() (any, error) { return 1, nil }, nil)
	h.Unregister(id + 1)
	// The lines of the lifecycle (registered, replaced, teardown of,
	// unregistered) are the loader's.
	want := []string{
		`debug [modelcontext] resource "state://a" changed`,
		`debug [modelcontext] resource "state://a": push suppressed (value unchanged)`,
	}
	if got := h.Lines("debug"); !slices.Equal(got, want) {
		t.Errorf("debug = %q\nwant %q", got, want)
	}
}

func TestAPanicInADeliveryLeavesTheRegistryWorking(t *testing.T) {
	// The host panics while Go dispatches the event, or while it delivers to
	// a handler: the panic reaches Push's caller, the delivery's value is
	// released, and the next push is delivered.
	for _, tc := range []struct {
		method string
		events []string
	}{
		{"Dispatch", []string{"event 1 2"}},
		{"Deliver", []string{"event 1 1", "event 1 2"}},
	} {
		t.Run(tc.method, func(t *testing.T) {
			h := registrytest.New()
			n := 0
			var onChange func()
			h.Register("state://a", func() (any, error) { n++; return n, nil }, func(cb func()) any { onChange = cb; return teardown(func() {}) })
			h.Follow("state://a", func(any) {})
			h.PanicIn = tc.method
			func() {
				defer func() {
					if recover() == nil {
						t.Fatal("the host's panic did not reach the caller")
					}
				}()
				onChange()
			}()
			onChange()
			if got := h.Lines("event"); !slices.Equal(got, tc.events) {
				t.Errorf("after a recovered panic, events = %q, want %q", got, tc.events)
			}
			if h.Held() != 0 {
				t.Errorf("%d value handles held: the delivery that panicked kept its value", h.Held())
			}
		})
	}
}

func TestTemplatesMatchInRegistrationOrderAndKeepTheirPlace(t *testing.T) {
	h := registrytest.New()
	get := func([]registry.Param) (any, error) { return nil, nil }
	a := h.RegisterTemplate("app://orders/{id}", "application/json", get)
	b := h.RegisterTemplate("app://{kind}/{id}", "application/json", get)
	if id, p := h.R.Match("app://orders/42"); id != a || len(p) != 1 || p[0] != (registry.Param{Name: "id", Value: "42"}) {
		t.Errorf("Match = %d %v, want %d [id 42]", id, p, a)
	}
	a2 := h.RegisterTemplate("app://orders/{id}", "text/plain", get) // replaces a in place
	if id, _ := h.R.Match("app://orders/42"); id != a2 {
		t.Errorf("after the replacement Match = %d, want %d", id, a2)
	}
	if _, mime, tmpl, ok := h.R.Info(a2); !ok || !tmpl || mime != "text/plain" {
		t.Errorf("Info = %q %v %v", mime, tmpl, ok)
	}
	h.Unregister(a2)
	if id, _ := h.R.Match("app://orders/42"); id != b {
		t.Errorf("after the unregistration Match = %d, want %d", id, b)
	}
	if n := h.R.Len(true); n != 1 {
		t.Errorf("Len(templates) = %d", n)
	}
	if s := h.R.Subscribe(b); s != 0 {
		t.Errorf("a consumer subscription to a template = %d, want 0", s)
	}
}

// TestPushSaysWhatItDid: Push's outcome is what the loader acts on (it
// undoes a new baseline unless the push was dispatched, and releases the
// value unless it waits behind a delivery), so each case is checked
// directly, with the debug lines that explain it.
func TestPushSaysWhatItDid(t *testing.T) {
	h := registrytest.New()
	id := h.Register("state://a", func() (any, error) { return 1, nil }, nil)
	h.R.SetDebug(true)
	steps := []struct {
		name string
		push uint32
		res  registry.Result
		want registry.Outcome
		log  string
	}{
		{"a new value", 2, registry.ResultDifferent, registry.Delivered, `debug [modelcontext] resource "state://a" changed`},
		{"an older push", 1, registry.ResultDifferent, registry.Dropped, `debug [modelcontext] resource "state://a": late result dropped (a newer push was already handled)`},
		{"the same value", 3, registry.ResultSame, registry.Suppressed, `debug [modelcontext] resource "state://a": push suppressed (value unchanged)`},
		{"no key", 4, registry.ResultNoKey, registry.Delivered, `debug [modelcontext] resource "state://a": value has no comparison key; pushed anyway (fail-open)`},
		{"a failed getter", 9, registry.ResultThrew, registry.Dropped, `error modelcontext: get() of "state://a" failed; nothing was pushed: <nil>`},
		{"a push after the failure", 5, registry.ResultSame, registry.Suppressed, `debug [modelcontext] resource "state://a": push suppressed (value unchanged)`},
	}
	for _, s := range steps {
		h.Log = nil
		if got := h.R.Push(id, s.push, s.res, 0); got != s.want {
			t.Errorf("%s: outcome %d, want %d", s.name, got, s.want)
		}
		if len(h.Log) == 0 || h.Log[0] != s.log {
			t.Errorf("%s: log %q, want first %q", s.name, h.Log, s.log)
		}
	}
	h.Unregister(id)
	if got := h.R.Push(id, 10, registry.ResultDifferent, 0); got != registry.Dropped {
		t.Errorf("a push of an unregistered resource: outcome %d, want Dropped", got)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("an unknown result did not panic")
			}
		}()
		h.R.Push(id, 11, registry.ResultThrew+1, 0)
	}()
}

// releasing records the values the registry releases; a Dispatch may push
// once more, as a listener calling onChange would.
type releasing struct {
	nopHost
	released []registry.Value
	nested   func()
}

func (h *releasing) Release(v registry.Value) { h.released = append(h.released, v) }

func (h *releasing) Dispatch(registry.ID, registry.Value) {
	if f := h.nested; f != nil {
		h.nested = nil
		f()
	}
}

// TestAPushDeliveredAtOnceIsTheCallersToRelease: a value delivered before
// Push returns comes back to its caller (Delivered), which releases it; the
// registry releases only a value that waited behind the delivery in
// progress (Dispatched), once it is delivered. Each value is released once.
func TestAPushDeliveredAtOnceIsTheCallersToRelease(t *testing.T) {
	h := &releasing{}
	r := registry.New(h)
	if _, err := r.Register(1, registry.Registration{Key: "state://a", MIMEType: registry.DefaultMIMEType}); err != nil {
		t.Fatal(err)
	}
	if got := r.Push(1, 1, registry.ResultDifferent, 10); got != registry.Delivered {
		t.Errorf("a push delivered at once: outcome %d, want Delivered", got)
	}
	nested := registry.Outcome(99)
	h.nested = func() { nested = r.Push(1, 3, registry.ResultDifferent, 12) }
	if got := r.Push(1, 2, registry.ResultDifferent, 11); got != registry.Delivered {
		t.Errorf("a push whose listener pushed again: outcome %d, want Delivered", got)
	}
	if nested != registry.Dispatched {
		t.Errorf("the push made by the listener: outcome %d, want Dispatched", nested)
	}
	if !slices.Equal(h.released, []registry.Value{12}) {
		t.Errorf("the registry released %v; want only the listener's push's value, 12 (10 and 11 are their callers')", h.released)
	}
}
