package registrytest

import (
	"encoding/binary"
	"math"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Fields builds bytes in the loader's encoding of fields, which
// registry.DecodeFields reads: a kind byte, then a payload for strings,
// numbers, booleans and arrays. Each method appends one field.
type Fields []byte

// Str appends a string.
func (f Fields) Str(s string) Fields {
	f = append(f, byte(registry.KindString))
	f = binary.LittleEndian.AppendUint32(f, uint32(len(s)))
	return append(f, s...)
}

// Bool appends a boolean.
func (f Fields) Bool(b bool) Fields {
	if b {
		return append(f, byte(registry.KindBoolean), 1)
	}
	return append(f, byte(registry.KindBoolean), 0)
}

// Num appends a number.
func (f Fields) Num(n float64) Fields {
	f = append(f, byte(registry.KindNumber))
	return binary.LittleEndian.AppendUint64(f, math.Float64bits(n))
}

// Kind appends a field of a kind without payload (undefined, null, an
// object, a function...), or, for any other kind, its kind byte alone, as a
// malformed field.
func (f Fields) Kind(k registry.Kind) Fields { return append(f, byte(k)) }

// Array appends the head of an array of n items; the items follow.
func (f Fields) Array(n int) Fields {
	f = append(f, byte(registry.KindArray))
	return binary.LittleEndian.AppendUint32(f, uint32(n))
}

// Strings appends an array of strings.
func (f Fields) Strings(items ...string) Fields {
	f = f.Array(len(items))
	for _, s := range items {
		f = f.Str(s)
	}
	return f
}

// Field appends a decoded field as the loader would have encoded it.
func (f Fields) Field(x registry.Field) Fields {
	switch x.Kind {
	case registry.KindString:
		return f.Str(x.Str)
	case registry.KindNumber:
		return f.Num(x.Num)
	case registry.KindBoolean:
		return f.Bool(x.True)
	case registry.KindArray:
		f = f.Array(len(x.Items))
		for _, it := range x.Items {
			f = f.Field(it)
		}
		return f
	}
	return f.Kind(x.Kind)
}
