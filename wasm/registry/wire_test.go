package registry_test

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

type enc = registrytest.Fields

func TestDecodeRegistration(t *testing.T) {
	r, err := registry.DecodeRegistration(enc{}.Str("state://cart").Str("application/json").Kind(registry.KindUndefined))
	if err != nil || r.Key != "state://cart" || r.MIMEType != "application/json" || r.Template != nil {
		t.Errorf("concrete: %+v, %v", r, err)
	}
	r, err = registry.DecodeRegistration(enc{}.Str("state://cart").Kind(registry.KindUndefined).Kind(registry.KindUndefined))
	if err != nil || r.Key != "state://cart" || r.MIMEType != registry.DefaultMIMEType || r.Template != nil {
		t.Errorf("the default mimeType, undefined: %+v, %v", r, err)
	}
	r, err = registry.DecodeRegistration(enc{}.Str("app://o/{id}").Str("text/plain").Array(3).Str("app://o/").Str("id").Str(""))
	if err != nil || r.Template == nil {
		t.Fatalf("template: %+v, %v", r, err)
	}
	if p, ok := r.Template.Match("app://o/7"); !ok || p[0].Value != "7" {
		t.Errorf("decoded template does not match: %v %v", p, ok)
	}
	for name, b := range map[string]enc{
		"empty":              {},
		"truncated string":   enc{}.Str("state://cart")[:8],
		"a field missing":    enc{}.Str("state://cart").Str("application/json"),
		"a field too many":   enc{}.Str("state://cart").Str("application/json").Kind(registry.KindUndefined).Kind(registry.KindNull),
		"key not a string":   enc{}.Num(1).Str("application/json").Kind(registry.KindUndefined),
		"mimeType a number":  enc{}.Str("state://cart").Num(1).Kind(registry.KindUndefined),
		"mimeType null":      enc{}.Str("state://cart").Kind(registry.KindNull).Kind(registry.KindUndefined),
		"mimeType missing":   enc{}.Str("state://cart"),
		"template a boolean": enc{}.Str("state://cart").Str("application/json").Bool(true),
		"unknown kind":       enc{}.Str("state://cart").Str("application/json").Kind(200),
		"bad template parts": enc{}.Str("app://o/{id}").Str("text/plain").Array(2).Str("app://o/").Str("id"),
		"count past the end": enc{}.Str("app://o/{id}").Str("text/plain").Array(1000),
	} {
		if _, err := registry.DecodeRegistration(b); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
}

// DecodeRegistration reads its fields one by one; this holds it to the order
// the loader is given (RegistrationFields): encoded by name in that order, a
// registration decodes to what each field said.
func TestDecodeRegistrationFollowsRegistrationFields(t *testing.T) {
	fields := map[string]func(enc) enc{
		"key":      func(e enc) enc { return e.Str("app://o/{id}") },
		"mimeType": func(e enc) enc { return e.Str("text/plain") },
		"template": func(e enc) enc { return e.Array(3).Str("app://o/").Str("id").Str("") },
	}
	if len(registry.RegistrationFields) != len(fields) {
		t.Fatalf("RegistrationFields is %q; this test knows %d fields", registry.RegistrationFields, len(fields))
	}
	var b enc
	for _, name := range registry.RegistrationFields {
		f, ok := fields[name]
		if !ok {
			t.Fatalf("RegistrationFields has %q, which this test does not know", name)
		}
		b = f(b)
	}
	r, err := registry.DecodeRegistration(b)
	if err != nil || r.Key != "app://o/{id}" || r.MIMEType != "text/plain" || r.Template == nil {
		t.Fatalf("decoded %+v, %v", r, err)
	}
	if p, ok := r.Template.Match("app://o/7"); !ok || p[0].Value != "7" {
		t.Errorf("decoded template does not match: %v %v", p, ok)
	}
}

// The default mimeType, which nearly every registration carries, is decoded
// as the constant itself, not a copy; any other is a string of its own.
func TestDecodeDefaultMIMETypeWithoutCopy(t *testing.T) {
	decode := func(mime string) registry.Registration {
		t.Helper()
		r, err := registry.DecodeRegistration(enc{}.Str("state://cart").Str(mime).Kind(registry.KindUndefined))
		if err != nil || r.MIMEType != mime {
			t.Fatalf("%q: %+v, %v", mime, r, err)
		}
		return r
	}
	if r := decode(registry.DefaultMIMEType); unsafe.StringData(r.MIMEType) != unsafe.StringData(registry.DefaultMIMEType) {
		t.Errorf("the default mimeType was decoded as a copy")
	}
	if r := decode("text/plain"); r.MIMEType != "text/plain" {
		t.Errorf("text/plain decoded as %q", r.MIMEType)
	}
}

func FuzzDecodeRegistration(f *testing.F) {
	f.Add([]byte(enc{}.Str("state://cart").Str("application/json").Kind(registry.KindUndefined)))
	f.Add([]byte(enc{}.Str("app://o/{id}").Str("text/plain").Array(3).Str("app://o/").Str("id").Str("")))
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

// An array's items are read into a slice that grows as they come: a count
// the bytes left could hold, followed by a malformed item, costs an error,
// not 64 bytes of memory per byte of the buffer.
func TestDecodeFieldsArrays(t *testing.T) {
	var f registry.Field
	if err := registry.DecodeFields(enc{}.Array(3).Str("a").Num(2).Kind(registry.KindNull), []*registry.Field{&f}); err != nil ||
		len(f.Items) != 3 || f.Items[0].Str != "a" || f.Items[1].Num != 2 || f.Items[2].Kind != registry.KindNull {
		t.Fatalf("array: %+v, %v", f, err)
	}
	const n = 1 << 20
	b := append(enc{}.Array(n).Kind(200), make([]byte, n)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := registry.DecodeFields(b, []*registry.Field{&f})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a malformed item decoded without an error")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > n {
		t.Errorf("decoding a malformed %d-item array allocated %d bytes", n, grew)
	}
}

// Decoding into fields that already hold strings keeps those the new
// message repeats (no copy) and copies the others; no string is a view of
// the buffer, which the loader overwrites with its next message.
func TestDecodeFieldsKeepsRepeatedStrings(t *testing.T) {
	var a, b registry.Field
	dst := []*registry.Field{&a, &b}
	buf := enc{}.Str("https://example.test").Str("id-1")
	if err := registry.DecodeFields(buf, dst); err != nil {
		t.Fatal(err)
	}
	kept := unsafe.StringData(a.Str)
	for i, next := range []string{"id-2", "id-22", "id-1"} {
		buf := enc{}.Str("https://example.test").Str(next)
		if err := registry.DecodeFields(buf, dst); err != nil {
			t.Fatal(err)
		}
		if a.Str != "https://example.test" || b.Str != next {
			t.Fatalf("message %d: %q, %q", i, a.Str, b.Str)
		}
		if unsafe.StringData(a.Str) != kept {
			t.Errorf("message %d: the repeated string was copied again", i)
		}
		clear(buf)
		if a.Str != "https://example.test" || b.Str != next {
			t.Fatalf("message %d: the strings changed with the buffer: %q, %q", i, a.Str, b.Str)
		}
	}
	// A field that now holds another kind holds no string.
	buf = enc{}.Num(1).Str("x")
	if err := registry.DecodeFields(buf, dst); err != nil || a.Kind != registry.KindNumber || a.Str != "" || b.Str != "x" {
		t.Fatalf("%+v %+v %v", a, b, err)
	}
}
