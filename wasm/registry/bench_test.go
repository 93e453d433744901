package registry_test

import (
	"strconv"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// The benchmarks run the registry's hot paths against the shared fake host
// with its logging off: what they measure is the registry's own cost per call
// plus the fake's map work, without JavaScript.

// benchRegistry returns a host whose registry holds n resources
// (bench://fill/0 …) and the ID of the first, with its onChange.
func benchRegistry(b *testing.B, n int, value func() (any, error)) (*registrytest.Host, registry.ID, func()) {
	b.Helper()
	h := registrytest.New()
	h.Quiet = true
	var first registry.ID
	var onChange func()
	for i := range n {
		id := h.Register("bench://fill/"+strconv.Itoa(i), value, func(f func()) any {
			if onChange == nil {
				onChange = f
			}
			return registrytest.Teardown(func() {})
		})
		if i == 0 {
			first = id
		}
	}
	return h, first, onChange
}

// BenchmarkPush is one onChange whose value changed, through the fake's
// loader (get, the key, the baseline): Push dispatches resourceupdated and
// delivers to one subscribeResource handler.
func BenchmarkPush(b *testing.B) {
	n := 0
	h, _, onChange := benchRegistry(b, 1, func() (any, error) { n++; return n, nil })
	h.Follow("bench://fill/0", nil)
	b.ReportAllocs()
	for b.Loop() {
		onChange()
	}
	if h.Held() != 0 {
		b.Fatalf("%d handles held", h.Held())
	}
}

// BenchmarkPushSuppressed is one onChange whose value equals the last
// dispatched one, through the fake's loader: Push suppresses it.
func BenchmarkPushSuppressed(b *testing.B) {
	_, _, onChange := benchRegistry(b, 1, func() (any, error) { return 1, nil })
	b.ReportAllocs()
	for b.Loop() {
		onChange()
	}
}

// BenchmarkRegisterUnregister is one registration with a subscribe function
// and its unregistration, with `others` registrations already there.
func BenchmarkRegisterUnregister(b *testing.B) {
	for _, others := range []int{0, 1000} {
		b.Run("others="+strconv.Itoa(others), func(b *testing.B) {
			h, _, _ := benchRegistry(b, others, func() (any, error) { return 1, nil })
			get := func() (any, error) { return 1, nil }
			sub := func(func()) any { return registrytest.Teardown(func() {}) }
			b.ReportAllocs()
			for b.Loop() {
				h.Unregister(h.Register("bench://cycle", get, sub))
			}
			if h.R.Len(false) != others {
				b.Fatalf("%d registrations left, want %d", h.R.Len(false), others)
			}
		})
	}
}

// BenchmarkMatch is a template lookup past 10 templates that do not match.
func BenchmarkMatch(b *testing.B) {
	h := registrytest.New()
	get := func([]registry.Param) (any, error) { return nil, nil }
	for i := range 10 {
		h.RegisterTemplate("app://other"+strconv.Itoa(i)+"/{id}", "application/json", get)
	}
	h.RegisterTemplate("app://orders/{id}", "application/json", get)
	b.ReportAllocs()
	for b.Loop() {
		if id, _ := h.R.Match("app://orders/42"); id == 0 {
			b.Fatal("no match")
		}
	}
}

// BenchmarkRegisterUnregisterNop is BenchmarkRegisterUnregister's cycle
// against a host that does nothing, with `others` registrations staying
// (numbered first, as the loader numbers them): the registry's own cost,
// which is what it costs on WebAssembly (GOOS=js GOARCH=wasm go test -bench)
// that matters.
func BenchmarkRegisterUnregisterNop(b *testing.B) {
	for _, others := range []int{0, 1000} {
		b.Run("others="+strconv.Itoa(others), func(b *testing.B) {
			r := registry.New(nopHost{})
			id := registry.ID(0)
			for i := range others {
				id++
				if _, err := r.Register(id, registry.Registration{Key: "bench://other/" + strconv.Itoa(i), MIMEType: registry.DefaultMIMEType}); err != nil {
					b.Fatal(err)
				}
			}
			reg := registry.Registration{Key: "bench://cycle", MIMEType: registry.DefaultMIMEType}
			b.ReportAllocs()
			for b.Loop() {
				id++
				if _, err := r.Register(id, reg); err != nil {
					b.Fatal(err)
				}
				r.Unregister(id)
			}
		})
	}
}

// BenchmarkPushNop is Push alone, against a host that does nothing: a
// result equal to the baseline (suppressed) and a new one (dispatched to no
// consumer). On WebAssembly it is Go's side of a push.
func BenchmarkPushNop(b *testing.B) {
	for _, tc := range []struct {
		name string
		res  registry.Result
		want registry.Outcome
	}{{"suppressed", registry.ResultSame, registry.Suppressed}, {"dispatched", registry.ResultDifferent, registry.Delivered}} {
		b.Run(tc.name, func(b *testing.B) {
			r := registry.New(nopHost{})
			if _, err := r.Register(1, registry.Registration{Key: "bench://push", MIMEType: registry.DefaultMIMEType}); err != nil {
				b.Fatal(err)
			}
			n := uint32(0)
			b.ReportAllocs()
			for b.Loop() {
				n++
				if r.Push(1, n, tc.res, 1) != tc.want {
					b.Fatal("unexpected outcome")
				}
			}
		})
	}
}

// BenchmarkDecodeRegistration decodes a concrete resource's registration.
func BenchmarkDecodeRegistration(b *testing.B) {
	enc := registrytest.Fields{}.Str("bench://cycle").Str(registry.DefaultMIMEType).Kind(registry.KindUndefined)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := registry.DecodeRegistration(enc); err != nil {
			b.Fatal(err)
		}
	}
}
