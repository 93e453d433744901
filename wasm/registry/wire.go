package registry

import (
	"math"
	"unsafe"
)

// Kind is the JavaScript type of a value the loader encodes.
type Kind uint8

// The kinds a field can have. KindObject excludes null, arrays and
// functions, which have kinds of their own.
const (
	KindUndefined Kind = iota
	KindNull
	KindString
	KindNumber
	KindBoolean
	KindFunction
	KindObject
	KindArray
	KindSymbol
	KindBigInt
	kindCount
)

var kindNames = [kindCount]string{"undefined", "null", "string", "number", "boolean", "function", "object", "array", "symbol", "bigint"}

// Kinds returns every kind's name, indexed by kind: the loader's KIND_NAMES.
func Kinds() []string { return kindNames[:] }

// String returns the name a page author knows: typeof's answer, or "null"
// and "array".
func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return "unknown"
}

// Field is one value the loader encoded: its kind and, for strings, numbers,
// booleans and arrays, its content.
type Field struct {
	Kind  Kind
	Str   string
	Num   float64
	True  bool
	Items []Field
}

// Present reports whether the field was given: an optional field set to
// undefined counts as absent.
func (f Field) Present() bool { return f.Kind != KindUndefined }

// Registration is what the registry is told of a registration the loader
// made and validated.
type Registration struct {
	Key      string    // the uri, or the uriTemplate of a template
	MIMEType string    // the mimeType, the default already applied
	Template *Template // nil for a concrete resource
}

// RegistrationFields names the fields of a registration in the order the
// loader encodes them for mc_register: the key, the mimeType (undefined for
// DefaultMIMEType), and, for a template, its parts
// (an array of strings: literal, variable name, literal, ...; undefined for a
// concrete resource).
var RegistrationFields = []string{"key", "mimeType", "template"}

var errTruncated error = wireError("registry: encoding is truncated or malformed")

// wireError is an error of the registry's own: errors.New would link the
// errors package, for nothing.
type wireError string

func (e wireError) Error() string { return string(e) }

// DecodeRegistration reads the loader's encoding of a registration (see
// RegistrationFields and DecodeFields). The Key it returns points into b,
// without a copy: Register copies it when it keeps it.
//
// It reads the fields one by one rather than through DecodeFields: a
// registration is decoded at every registerResource, where the generic
// reader would cost as much as the rest of the registration
// (BenchmarkDecodeRegistration).
func DecodeRegistration(b []byte) (Registration, error) {
	r := reader{b: b, views: true}
	reg := Registration{Key: r.str()}
	if r.off < len(b) && Kind(b[r.off]) == KindUndefined {
		r.off++ // the default, which the loader does not spell out
		reg.MIMEType = DefaultMIMEType
	} else {
		reg.MIMEType = own(r.str())
	}
	switch Kind(r.byte()) {
	case KindUndefined:
	case KindArray:
		r.off--
		var parts Field
		if r.field(&parts, 0); !r.bad {
			var err error
			if reg.Template, err = NewTemplate(parts.Items); err != nil {
				return Registration{}, err
			}
		}
	default:
		r.bad = true
	}
	if r.bad || r.off != len(b) {
		return Registration{}, errTruncated
	}
	return reg, nil
}

// DecodeFields reads len(dst) fields into dst, and fails unless they fill b
// exactly. A field is its kind byte followed, for a string, by a
// little-endian uint32 length and UTF-8 bytes; for a number, by a
// little-endian float64; for an array, by a uint32 count and that many
// fields (an array inside an array is sent as its kind and a zero count); for
// a boolean, by a byte 0 or 1. Other kinds have no payload.
//
// A string is a copy, never a view of b; one equal to the string its field
// already held is that string (dst's strings must not be views of a buffer:
// DecodeRegistration's are, and never come here).
func DecodeFields(b []byte, dst []*Field) error {
	r := reader{b: b}
	for _, f := range dst {
		r.field(f, 0)
	}
	if r.bad || r.off != len(b) {
		return errTruncated
	}
	return nil
}

type reader struct {
	b     []byte
	off   int
	bad   bool
	views bool // strings point into b
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.bad = true
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) take(n int) []byte {
	if n < 0 || len(r.b)-r.off < n {
		r.bad = true
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

// str reads a string field, as a view of b.
func (r *reader) str() string {
	if Kind(r.byte()) != KindString {
		r.bad = true
		return ""
	}
	p := r.take(4)
	if p == nil {
		return ""
	}
	s := r.take(int(le32(p)))
	return unsafe.String(unsafe.SliceData(s), len(s))
}

// field reads one field into *f, in place: a Field is 64 bytes, and
// returning one by value would be most of the cost of decoding an MCP
// message (BenchmarkRead in wasm/mcp).
//
// Outside views, a string equal to the one *f held is kept rather than
// copied again: the MCP server decodes every message into the same Message,
// whose origin, jsonrpc, method and often uri repeat from one message to the
// next.
func (r *reader) field(f *Field, depth int) {
	was := f.Str
	*f = Field{Kind: Kind(r.byte())}
	switch {
	case f.Kind >= kindCount:
		r.bad = true
	case f.Kind == KindString:
		p := r.take(4)
		if p != nil {
			if s := r.take(int(le32(p))); r.views {
				f.Str = unsafe.String(unsafe.SliceData(s), len(s))
			} else if string(s) == was {
				f.Str = was
			} else {
				f.Str = string(s)
			}
		}
	case f.Kind == KindBoolean:
		switch r.byte() {
		case 0:
		case 1:
			f.True = true
		default:
			r.bad = true
		}
	case f.Kind == KindNumber:
		if p := r.take(8); p != nil {
			f.Num = math.Float64frombits(uint64(le32(p)) | uint64(le32(p[4:]))<<32)
		}
	case f.Kind == KindArray:
		p := r.take(4)
		if p == nil {
			break
		}
		n := int(le32(p))
		if depth > 0 && n != 0 || n > len(r.b)-r.off {
			r.bad = true
			break
		}
		// n is at most the bytes left, but a Field is 64 bytes: the slice
		// grows as the items are read rather than trusting n up front.
		for i := 0; i < n && !r.bad; i++ {
			f.Items = append(f.Items, Field{})
			r.field(&f.Items[i], depth+1)
		}
	}
}

// DefaultMIMEType is the mimeType of a registration that gives none; the
// loader applies it (its DEFAULT_MIME_TYPE).
const DefaultMIMEType = "application/json"

// own returns a copy of s, which may point into the loader's buffer: the
// default mimeType, which nearly every registration carries, as the constant
// itself.
func own(s string) string {
	if s == DefaultMIMEType {
		return DefaultMIMEType
	}
	return clone(s)
}

// clone returns a copy of s that shares no bytes with it (strings.Clone,
// without linking package strings).
func clone(s string) string {
	if s == "" {
		return ""
	}
	b := make([]byte, len(s))
	copy(b, s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func le32(p []byte) uint32 {
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
}
