package registry

import (
	"strconv"
	"testing"
)

// benchHost is the cheapest Host that lets the registry's hot paths run: every
// getter returns handle 1 at once, Compare answers what the benchmark asks
// for, and the effects are counted, not logged. What the benchmarks measure is
// therefore the registry's own cost per call, without JavaScript.
type benchHost struct {
	same       bool // Compare answers KeySame (a suppressed push)
	dispatched int
	delivered  int
	released   int
	lists      int
}

func (h *benchHost) Bind(ID) {}
func (h *benchHost) Subscribe(ID) (SubscribeStatus, Kind, Value) {
	return SubscribeTeardown, 0, 0
}
func (h *benchHost) Retire(ID) Value                   { return 0 }
func (h *benchHost) Get(ID, uint32) (GetStatus, Value) { return GetValue, 1 }
func (h *benchHost) Compare(ID, Value) KeyResult {
	if h.same {
		return KeySame
	}
	return KeyDifferent
}
func (h *benchHost) SetBaseline(ID, bool)           {}
func (h *benchHost) Dispatch(ID, Value)             { h.dispatched++ }
func (h *benchHost) Deliver(SubID, ID, Value) Value { h.delivered++; return 0 }
func (h *benchHost) EndSubscription(SubID)          {}
func (h *benchHost) Release(Value)                  { h.released++ }
func (h *benchHost) ListChanged()                   { h.lists++ }
func (h *benchHost) Warn(string)                    {}
func (h *benchHost) Error(string, Value)            {}
func (h *benchHost) Debugging() bool                { return false }
func (h *benchHost) Debug(string)                   {}

// benchDescriptor is what the loader decodes for
// {uri, name, get, subscribe}.
func benchDescriptor(uri string) Descriptor {
	return Descriptor{Kind: KindObject,
		URI:       Field{Kind: KindString, Str: uri},
		Name:      Field{Kind: KindString, Str: "bench"},
		Get:       Field{Kind: KindFunction},
		Subscribe: Field{Kind: KindFunction}}
}

// benchRegistry returns a registry holding n registrations
// (bench://fill/0 …) and the ID of the first one.
func benchRegistry(b *testing.B, n int) (*Registry, *benchHost, ID) {
	b.Helper()
	h := &benchHost{}
	r := New(h)
	var first ID
	for i := range n {
		d := benchDescriptor("bench://fill/" + strconv.Itoa(i))
		id, err := r.Register(&d)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			first = id
		}
	}
	return r, h, first
}

// BenchmarkPush is one onChange whose value changed: get, compare, set the
// baseline, dispatch resourceupdated, deliver to one subscribeResource handler.
func BenchmarkPush(b *testing.B) {
	r, h, id := benchRegistry(b, 1)
	r.Subscribe("bench://fill/0")
	b.ReportAllocs()
	for b.Loop() {
		r.Push(id)
	}
	if h.dispatched != b.N || h.delivered != b.N {
		b.Fatalf("dispatched %d, delivered %d, want %d", h.dispatched, h.delivered, b.N)
	}
}

// BenchmarkPushSuppressed is one onChange whose value equals the last
// dispatched one: get, compare, release.
func BenchmarkPushSuppressed(b *testing.B) {
	r, h, id := benchRegistry(b, 1)
	h.same = true
	b.ReportAllocs()
	for b.Loop() {
		r.Push(id)
	}
	if h.dispatched != 0 {
		b.Fatalf("dispatched %d, want 0", h.dispatched)
	}
}

// BenchmarkRegisterUnregister is one registerResource of
// {uri, name, get, subscribe} and its unregister, with `others`
// registrations already there (unregister finds the slot by a linear scan).
func BenchmarkRegisterUnregister(b *testing.B) {
	for _, others := range []int{0, 1000} {
		b.Run("others="+strconv.Itoa(others), func(b *testing.B) {
			r, _, _ := benchRegistry(b, others)
			d := benchDescriptor("bench://cycle")
			b.ReportAllocs()
			for b.Loop() {
				id, err := r.Register(&d)
				if err != nil {
					b.Fatal(err)
				}
				r.Unregister(id)
			}
			if r.Len() != others {
				b.Fatalf("%d registrations left, want %d", r.Len(), others)
			}
		})
	}
}

// BenchmarkLookup is the uri lookup of readResource and subscribeResource,
// among 1,000 registrations.
func BenchmarkLookup(b *testing.B) {
	r, _, _ := benchRegistry(b, 1000)
	uri := "bench://fill/500"
	b.ReportAllocs()
	for b.Loop() {
		if id, _ := r.Lookup(uri); id == 0 {
			b.Fatal("not found")
		}
	}
}

// BenchmarkOrder is getResources' list of IDs with 1,000 registrations, into
// a reused slice as the bridge does.
func BenchmarkOrder(b *testing.B) {
	r, _, _ := benchRegistry(b, 1000)
	var ids []ID
	b.ReportAllocs()
	for b.Loop() {
		ids = r.Order(ids[:0], false)
	}
	if len(ids) != 1000 {
		b.Fatalf("%d IDs, want 1000", len(ids))
	}
}
