package registry

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// pushSeq registers a resource whose getter returns the given values in turn,
// pushes once per value, and returns the dispatched events.
func pushSeq(t *testing.T, values ...any) []string {
	t.Helper()
	h := newFake()
	i := 0
	var onChange func()
	_, err := h.register("state://x", func() (any, error) { v := values[i]; i++; return v, nil },
		func(f func()) any { onChange = f; return nil })
	if err != nil {
		t.Fatal(err)
	}
	for range values {
		onChange()
	}
	if len(h.vals) != 0 {
		t.Errorf("%d value handles leaked", len(h.vals))
	}
	return h.events("event")
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
	h := newFake()
	fail := true
	var onChange func()
	h.register("state://x", func() (any, error) {
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
	if !slices.Equal(h.log, want) {
		t.Errorf("log = %q\nwant %q", h.log, want)
	}
}

func TestReplacementClearsBaselineAndKeepsSlot(t *testing.T) {
	h := newFake()
	var changes []func()
	sub := func(f func()) any { changes = append(changes, f); return teardown(func() {}) }
	get := func() (any, error) { return "same", nil }
	a, _ := h.register("state://a", get, sub)
	h.register("state://b", get, sub)
	changes[0]()
	changes[0]() // suppressed
	a2, err := h.register("state://a", get, sub)
	if err != nil {
		t.Fatal(err)
	}
	changes[0]()      // the replaced registration's onChange: nothing
	changes[2]()      // the new one: dispatches though the value is equal
	h.r.Unregister(a) // stale: nothing
	if got := h.r.Order(nil, false); !slices.Equal(got, []ID{a2, 2}) {
		t.Errorf("order = %v, want [%d 2]", got, a2)
	}
	want := []string{"listchanged 1", "listchanged 2", "event 1 \"same\"", "teardown 1", "listchanged 2", "event 3 \"same\""}
	if !slices.Equal(h.log, want) {
		t.Errorf("log = %q\nwant %q", h.log, want)
	}
}

func TestUnregisterIsIdempotentAndEndsSubscriptions(t *testing.T) {
	h := newFake()
	var onChange func()
	id, _ := h.register("state://a", func() (any, error) { return 1, nil }, func(f func()) any { onChange = f; return teardown(func() {}) })
	s := h.r.Subscribe("state://a")
	h.r.Unregister(id)
	h.r.Unregister(id)
	onChange()
	h.r.Unsubscribe(s)
	want := []string{"listchanged 1", "end 1", "teardown 1", "listchanged 0"}
	if !slices.Equal(h.log, want) {
		t.Errorf("log = %q\nwant %q", h.log, want)
	}
	if st := h.r.Stats(); st != (Stats{}) {
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
			h := newFake()
			n := 0
			var onChange func()
			id, _ := h.register("state://a", func() (any, error) { n++; return n, nil }, func(f func()) any { onChange = f; return nil })
			h.async[id] = true
			onChange()
			onChange()
			for _, i := range tc.order {
				h.resolve(i)
			}
			if got := h.events("event"); !slices.Equal(got, tc.want) {
				t.Errorf("events = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAsyncEqualNewerSuppressesOlder(t *testing.T) {
	h := newFake()
	vals := []any{"A", "B", "A"}
	n := 0
	var onChange func()
	id, _ := h.register("state://a", func() (any, error) { v := vals[n]; n++; return v, nil }, func(f func()) any { onChange = f; return nil })
	onChange() // A, dispatched synchronously
	h.async[id] = true
	onChange() // B, slow
	onChange() // A, fast: suppressed
	h.resolve(1)
	h.resolve(0)
	if got := h.events("event"); !slices.Equal(got, []string{`event 1 "A"`}) {
		t.Errorf("events = %q: the late B must not be delivered after the newer A", got)
	}
}

func TestNestedPushesAreDeliveredInOrder(t *testing.T) {
	h := newFake()
	n := 0
	var onChange func()
	h.register("state://a", func() (any, error) { n++; return n, nil }, func(f func()) any { onChange = f; return nil })
	s1 := h.r.Subscribe("state://a")
	s2 := h.r.Subscribe("state://a")
	// The first handler pushes again while the first value is being delivered.
	h.handlers[s1] = func(v any) {
		if v == 1 {
			onChange()
		}
	}
	onChange()
	want := []string{"event 1 1", "handler 1 1", "handler 2 1", "event 1 2", "handler 1 2", "handler 2 2"}
	var seq []string
	for _, l := range h.log {
		if strings.HasPrefix(l, "event") || strings.HasPrefix(l, "handler") {
			seq = append(seq, l)
		}
	}
	if !slices.Equal(seq, want) {
		t.Errorf("deliveries = %q\nwant %q", seq, want)
	}
	if s2 != s1+1 {
		t.Errorf("subscription ids %d, %d are not in order", s1, s2)
	}
}

func TestHandlerRemovedDuringDeliveryIsSkipped(t *testing.T) {
	h := newFake()
	var onChange func()
	h.register("state://a", func() (any, error) { return 1, nil }, func(f func()) any { onChange = f; return nil })
	s1 := h.r.Subscribe("state://a")
	s2 := h.r.Subscribe("state://a")
	h.handlers[s1] = func(any) { h.r.Unsubscribe(s2) }
	onChange()
	if got := h.events("handler"); !slices.Equal(got, []string{"handler 1 1"}) {
		t.Errorf("handlers = %q", got)
	}
}

func TestSubscribeOutcomes(t *testing.T) {
	h := newFake()
	h.register("state://none", func() (any, error) { return 1, nil }, func(func()) any { return 42 })
	h.register("state://boom", func() (any, error) { return 1, nil }, func(func()) any { panic("nope") })
	want := []string{
		"warn modelcontext: subscribe() of \"state://none\" returned number, not a teardown function; this subscription can never be torn down and leaks",
		"listchanged 1",
		"error modelcontext: subscribe() of \"state://boom\" threw; the resource stays registered as pull-only: nope",
		"listchanged 2",
	}
	if !slices.Equal(h.log, want) {
		t.Errorf("log = %q\nwant %q", h.log, want)
	}
}

func TestDebugLines(t *testing.T) {
	h := newFake()
	h.debug = true
	vals := []any{"A", "A"}
	n := 0
	var onChange func()
	id, _ := h.register("state://a", func() (any, error) { v := vals[n]; n++; return v, nil }, func(f func()) any { onChange = f; return teardown(func() {}) })
	onChange()
	onChange()
	h.register("state://a", func() (any, error) { return 1, nil }, nil)
	h.r.Unregister(id + 1)
	want := []string{
		`debug [modelcontext] registered "state://a"`,
		`debug [modelcontext] resource "state://a" changed`,
		`debug [modelcontext] resource "state://a": push suppressed (value unchanged)`,
		`debug [modelcontext] teardown of "state://a"`,
		`debug [modelcontext] replaced "state://a"`,
		`debug [modelcontext] unregistered "state://a"`,
	}
	if got := h.events("debug"); !slices.Equal(got, want) {
		t.Errorf("debug = %q\nwant %q", got, want)
	}
}

// panickyHost panics in Dispatch while armed, like a JavaScript host whose
// dispatch threw into Go.
type panickyHost struct {
	*fakeHost
	armed bool
}

func (h *panickyHost) Dispatch(id ID, v Value) {
	if h.armed {
		h.armed = false
		panic("host broke")
	}
	h.fakeHost.Dispatch(id, v)
}

func TestAPanicInADeliveryLeavesTheRegistryWorking(t *testing.T) {
	f := newFake()
	h := &panickyHost{fakeHost: f, armed: true}
	f.r = New(h)
	n := 0
	var onChange func()
	f.register("state://a", func() (any, error) { n++; return n, nil }, func(cb func()) any { onChange = cb; return teardown(func() {}) })
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the host's panic did not reach the caller")
			}
		}()
		onChange()
	}()
	onChange()
	if got := f.events("event"); !slices.Equal(got, []string{"event 1 2"}) {
		t.Errorf("after a recovered panic, events = %q, want the next push delivered", got)
	}
}
