package registry_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// enc writes fields in the loader's encoding, for tests.
type enc []byte

func (e enc) str(s string) enc {
	e = append(e, byte(registry.KindString))
	e = binary.LittleEndian.AppendUint32(e, uint32(len(s)))
	return append(e, s...)
}
func (e enc) boolean(b bool) enc {
	if b {
		return append(e, byte(registry.KindBoolean), 1)
	}
	return append(e, byte(registry.KindBoolean), 0)
}
func (e enc) num(f float64) enc {
	e = append(e, byte(registry.KindNumber))
	return binary.LittleEndian.AppendUint64(e, math.Float64bits(f))
}
func (e enc) array(n int) enc {
	e = append(e, byte(registry.KindArray))
	return binary.LittleEndian.AppendUint32(e, uint32(n))
}
func (e enc) kind(k registry.Kind) enc { return append(e, byte(k)) }

func TestDecodeRegistration(t *testing.T) {
	r, err := registry.DecodeRegistration(enc{}.str("state://cart").str("application/json").boolean(true).kind(registry.KindUndefined))
	if err != nil || r.Key != "state://cart" || r.MIMEType != "application/json" || !r.Subscribe || r.Template != nil {
		t.Errorf("concrete: %+v, %v", r, err)
	}
	r, err = registry.DecodeRegistration(enc{}.str("app://o/{id}").str("text/plain").boolean(false).array(3).str("app://o/").str("id").str(""))
	if err != nil || r.Template == nil {
		t.Fatalf("template: %+v, %v", r, err)
	}
	if p, ok := r.Template.Match("app://o/7"); !ok || p[0].Value != "7" {
		t.Errorf("decoded template does not match: %v %v", p, ok)
	}
	for name, b := range map[string]enc{
		"empty":              {},
		"truncated string":   enc{}.str("state://cart")[:8],
		"a field missing":    enc{}.str("state://cart").str("application/json").boolean(true),
		"a field too many":   enc{}.str("state://cart").str("application/json").boolean(true).kind(registry.KindUndefined).kind(registry.KindNull),
		"key not a string":   enc{}.num(1).str("application/json").boolean(true).kind(registry.KindUndefined),
		"subscribe a string": enc{}.str("state://cart").str("application/json").str("yes").kind(registry.KindUndefined),
		"bad boolean":        append(enc{}.str("state://cart").str("application/json"), byte(registry.KindBoolean), 2, byte(registry.KindUndefined)),
		"unknown kind":       enc{}.str("state://cart").str("application/json").boolean(true).kind(200),
		"bad template parts": enc{}.str("app://o/{id}").str("text/plain").boolean(false).array(2).str("app://o/").str("id"),
		"count past the end": enc{}.str("app://o/{id}").str("text/plain").boolean(false).array(1000),
	} {
		if _, err := registry.DecodeRegistration(b); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
}

func FuzzDecodeRegistration(f *testing.F) {
	f.Add([]byte(enc{}.str("state://cart").str("application/json").boolean(true).kind(registry.KindUndefined)))
	f.Add([]byte(enc{}.str("app://o/{id}").str("text/plain").boolean(false).array(3).str("app://o/").str("id").str("")))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := registry.DecodeRegistration(b)
		if err != nil {
			return
		}
		if r.Template != nil {
			r.Template.Match(r.Key)
		}
	})
}
