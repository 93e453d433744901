package registry

import (
	"errors"
	"math"
)

// Kind is the JavaScript type of a value read from a descriptor.
type Kind uint8

// The kinds a descriptor field can have. KindObject excludes null, arrays and
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

// String returns the name a page author knows: typeof's answer, or "null"
// and "array".
func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return "unknown"
}

// Field is one value read from a descriptor: its kind and, for strings,
// numbers, booleans and arrays, its content.
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

// Descriptor is what registerResource was given, read once by the loader.
// Audience, Priority and LastModified are the members of Annotations; they
// are undefined when Annotations is not an object.
type Descriptor struct {
	Kind         Kind // of the descriptor itself
	URI          Field
	Name         Field
	Title        Field
	Description  Field
	MIMEType     Field
	Get          Field
	Subscribe    Field
	Annotations  Field
	Audience     Field
	Priority     Field
	LastModified Field
	URITemplate  Field
}

// fields lists the descriptor's fields in wire order.
func (d *Descriptor) fields() []*Field {
	return []*Field{&d.URI, &d.Name, &d.Title, &d.Description, &d.MIMEType, &d.Get,
		&d.Subscribe, &d.Annotations, &d.Audience, &d.Priority, &d.LastModified, &d.URITemplate}
}

var errTruncated = errors.New("registry: encoding is truncated or malformed")

// DecodeDescriptor reads the loader's binary encoding of a descriptor: the
// descriptor's kind byte, then every field of [Descriptor] in order. A field
// is its kind byte followed, for a string, by a little-endian uint32 length
// and UTF-8 bytes; for a number, by a little-endian float64; for an array, by
// a uint32 count and that many fields (an array inside an array is sent as
// its kind and a zero count); for a boolean, by a byte 0 or 1. Other kinds
// have no payload.
func DecodeDescriptor(b []byte) (Descriptor, error) {
	var d Descriptor
	r := reader{b: b}
	d.Kind = Kind(r.byte())
	for _, f := range d.fields() {
		*f = r.field(0)
	}
	if r.bad || r.off != len(b) {
		return Descriptor{}, errTruncated
	}
	return d, nil
}

// DecodeFields reads len(dst) fields in the format of DecodeDescriptor
// (without the leading kind byte) into dst, and fails unless they fill b
// exactly.
func DecodeFields(b []byte, dst []*Field) error {
	r := reader{b: b}
	for _, f := range dst {
		*f = r.field(0)
	}
	if r.bad || r.off != len(b) {
		return errTruncated
	}
	return nil
}

type reader struct {
	b   []byte
	off int
	bad bool
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

func (r *reader) field(depth int) Field {
	f := Field{Kind: Kind(r.byte())}
	switch {
	case f.Kind >= kindCount:
		r.bad = true
	case f.Kind == KindString:
		p := r.take(4)
		if p != nil {
			f.Str = string(r.take(int(le32(p))))
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
		for i := 0; i < n && !r.bad; i++ {
			f.Items = append(f.Items, r.field(depth+1))
		}
	}
	return f
}

func le32(p []byte) uint32 {
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
}
