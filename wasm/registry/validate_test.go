package registry

import (
	"math"
	"strings"
	"testing"
)

// encode writes d in the loader's format (js/loader.js, encode).
func encode(d *Descriptor) []byte {
	b := []byte{byte(d.Kind)}
	for _, f := range d.fields() {
		b = appendField(b, *f)
	}
	return b
}

func appendField(b []byte, f Field) []byte {
	b = append(b, byte(f.Kind))
	switch f.Kind {
	case KindString:
		b = appendU32(b, uint32(len(f.Str)))
		b = append(b, f.Str...)
	case KindBoolean:
		if f.True {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case KindNumber:
		u := math.Float64bits(f.Num)
		b = appendU32(b, uint32(u))
		b = appendU32(b, uint32(u>>32))
	case KindArray:
		b = appendU32(b, uint32(len(f.Items)))
		for _, it := range f.Items {
			b = appendField(b, it)
		}
	}
	return b
}

func appendU32(b []byte, u uint32) []byte {
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

func str(s string) Field    { return Field{Kind: KindString, Str: s} }
func num(n float64) Field   { return Field{Kind: KindNumber, Num: n} }
func kind(k Kind) Field     { return Field{Kind: k} }
func arr(it ...Field) Field { return Field{Kind: KindArray, Items: it} }

// valid returns a descriptor that passes, changed by edit.
func valid(edit func(d *Descriptor)) Descriptor {
	d := Descriptor{Kind: KindObject, URI: str("state://cart"), Name: str("cart"), Get: kind(KindFunction)}
	if edit != nil {
		edit(&d)
	}
	return d
}

func TestValidateMessages(t *testing.T) {
	const p = "modelcontext: registerResource: "
	const u = ` (uri "state://cart")`
	for _, tc := range []struct {
		name string
		edit func(d *Descriptor)
		want string
	}{
		{"valid", nil, ""},
		{"valid with every optional field", func(d *Descriptor) {
			d.Title, d.Description, d.MIMEType, d.Subscribe = str("Cart"), str("d"), str("text/plain"), kind(KindFunction)
			d.Annotations, d.Audience, d.Priority, d.LastModified = kind(KindObject), arr(str("user"), str("assistant")), num(0.5), str("2025-01-12T15:00:58Z")
		}, ""},
		{"descriptor null", func(d *Descriptor) { *d = Descriptor{Kind: KindNull} }, p + "the descriptor must be an object, got null"},
		{"descriptor array", func(d *Descriptor) { *d = Descriptor{Kind: KindArray} }, p + "the descriptor must be an object, got array"},
		{"uri missing", func(d *Descriptor) { d.URI = Field{} }, p + `"uri" is required (a string like "state://cart")`},
		{"uri number", func(d *Descriptor) { d.URI = num(1) }, p + `"uri" must be a string, got number`},
		{"uri symbol", func(d *Descriptor) { d.URI = kind(KindSymbol) }, p + `"uri" must be a string, got symbol`},
		{"uri empty", func(d *Descriptor) { d.URI = str("") }, p + `"uri" must not be empty`},
		{"uri without scheme", func(d *Descriptor) { d.URI = str("cart") }, p + `"uri" "cart" has no scheme; write it like "state://cart"`},
		{"uri with nothing after the scheme", func(d *Descriptor) { d.URI = str("state:") }, p + `"uri" "state:" has no scheme; write it like "state://cart"`},
		{"uri starting with a digit", func(d *Descriptor) { d.URI = str("1a:b") }, p + `"uri" "1a:b" has no scheme; write it like "state://cart"`},
		{"name missing", func(d *Descriptor) { d.Name = Field{} }, p + `"name" is required` + u},
		{"name boolean", func(d *Descriptor) { d.Name = kind(KindBoolean) }, p + `"name" must be a string, got boolean` + u},
		{"name empty", func(d *Descriptor) { d.Name = str("") }, p + `"name" must not be empty` + u},
		{"get missing", func(d *Descriptor) { d.Get = Field{} }, p + `"get" is required, a function that returns the current value` + u},
		{"get string", func(d *Descriptor) { d.Get = str("x") }, p + `"get" must be a function, got string` + u},
		{"subscribe object", func(d *Descriptor) { d.Subscribe = kind(KindObject) }, p + `"subscribe" must be a function, got object` + u},
		{"title number", func(d *Descriptor) { d.Title = num(3) }, p + `"title" must be a string, got number` + u},
		{"description null", func(d *Descriptor) { d.Description = kind(KindNull) }, p + `"description" must be a string, got null` + u},
		{"mimeType bigint", func(d *Descriptor) { d.MIMEType = kind(KindBigInt) }, p + `"mimeType" must be a string, got bigint` + u},
		{"annotations array", func(d *Descriptor) { d.Annotations = arr() }, p + `"annotations" must be an object, got array` + u},
		{"audience string", func(d *Descriptor) { d.Annotations, d.Audience = kind(KindObject), str("user") }, p + `"annotations.audience" must be an array, got string` + u},
		{"audience entry", func(d *Descriptor) { d.Annotations, d.Audience = kind(KindObject), arr(str("user"), str("bot")) }, p + `"annotations.audience[1]" must be "user" or "assistant"` + u},
		{"priority above 1", func(d *Descriptor) { d.Annotations, d.Priority = kind(KindObject), num(2) }, p + `"annotations.priority" must be a number from 0 to 1` + u},
		{"priority NaN", func(d *Descriptor) { d.Annotations, d.Priority = kind(KindObject), num(math.NaN()) }, p + `"annotations.priority" must be a number from 0 to 1` + u},
		{"lastModified prose", func(d *Descriptor) { d.Annotations, d.LastModified = kind(KindObject), str("yesterday") }, p + `"annotations.lastModified" must be an ISO 8601 date string` + u},
		{"lastModified month 13", func(d *Descriptor) { d.Annotations, d.LastModified = kind(KindObject), str("2025-13-01") }, p + `"annotations.lastModified" must be an ISO 8601 date string` + u},
		{"uri wins over name", func(d *Descriptor) { d.URI, d.Name = str("x"), Field{} }, p + `"uri" "x" has no scheme; write it like "state://cart"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := valid(tc.edit)
			// Through the wire format, as the loader sends it.
			got, err := DecodeDescriptor(encode(&d))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			msg := ""
			if err := Validate(&got); err != nil {
				msg = err.Error()
			}
			if msg != tc.want {
				t.Errorf("message\n got %q\nwant %q", msg, tc.want)
			}
		})
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	good := valid(func(d *Descriptor) { d.Annotations, d.Audience = kind(KindObject), arr(str("user")) })
	b := encode(&good)
	for i := 0; i < len(b); i++ {
		if _, err := DecodeDescriptor(b[:i]); err == nil {
			t.Errorf("a descriptor cut to %d of %d bytes decoded without error", i, len(b))
		}
	}
	if _, err := DecodeDescriptor(append(b, 0)); err == nil {
		t.Error("trailing bytes decoded without error")
	}
	if _, err := DecodeDescriptor([]byte{byte(KindObject), 200}); err == nil {
		t.Error("an unknown kind decoded without error")
	}
}

func TestRegisterInvalidChangesNothing(t *testing.T) {
	h := newFake()
	id, _ := h.register("state://cart", func() (any, error) { return 1, nil }, nil)
	d := valid(func(d *Descriptor) { d.Name = str("") })
	if _, err := h.r.Register(&d); err == nil || !strings.Contains(err.Error(), `"name" must not be empty`) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := h.r.Lookup("state://cart"); got != id {
		t.Errorf("after an invalid replacement the uri maps to %d, want the old %d", got, id)
	}
	if h.r.Len() != 1 || len(h.events("listchanged")) != 1 {
		t.Errorf("an invalid registration changed the list: %q", h.log)
	}
}

func FuzzDecodeDescriptor(f *testing.F) {
	for _, d := range []Descriptor{
		valid(nil),
		valid(func(d *Descriptor) {
			d.Title, d.Subscribe, d.Annotations = str("Cart"), kind(KindFunction), kind(KindObject)
			d.Audience, d.Priority, d.LastModified = arr(str("user"), arr()), num(0.25), str("2025-01-12")
		}),
		{Kind: KindNull},
		valid(func(d *Descriptor) { d.URI, d.URITemplate = Field{}, str("app://orders/{id}") }),
	} {
		f.Add(encode(&d))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := DecodeDescriptor(b)
		if err != nil {
			return
		}
		verr := Validate(&d)
		// Whatever decodes re-encodes to the same bytes, and validation
		// either passes or names the registerResource call.
		if again := encode(&d); string(again) != string(b) {
			t.Fatalf("re-encoding differs:\n%x\n%x", b, again)
		}
		if verr != nil && !strings.HasPrefix(verr.Error(), "modelcontext: registerResource: ") {
			t.Fatalf("message %q lacks the prefix", verr)
		}
		if verr == nil {
			h := newFake()
			h.pending = func() (any, error) { return nil, nil }
			h.pendSub = func(func()) any { return teardown(func() {}) }
			if _, err := h.r.Register(&d); err != nil {
				t.Fatalf("valid descriptor failed to register: %v", err)
			}
		}
	})
}
