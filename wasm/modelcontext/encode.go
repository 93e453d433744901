package modelcontext

import (
	"encoding"
	"encoding/base64"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// jsonMarshaler and jsonUnmarshaler are encoding/json's Marshaler and
// Unmarshaler, declared here so that the package need not link
// encoding/json: any type that implements those implements these.
type jsonMarshaler interface {
	MarshalJSON() ([]byte, error)
}

type jsonUnmarshaler interface {
	UnmarshalJSON([]byte) error
}

var (
	marshalerType       = reflect.TypeFor[jsonMarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	unmarshalerType     = reflect.TypeFor[jsonUnmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// marshalMethods says which of MarshalJSON and MarshalText a type has, on
// its values or on pointers to them.
type marshalMethods uint8

const (
	valueMarshaler marshalMethods = 1 << iota
	ptrMarshaler
	valueTextMarshaler
	ptrTextMarshaler
)

var methodCache sync.Map // reflect.Type → marshalMethods

// methodsOf returns t's marshal methods, looked up once per type: asking
// reflect on every value is what made encoding slow in WebAssembly.
func methodsOf(t reflect.Type) marshalMethods {
	if m, ok := methodCache.Load(t); ok {
		return m.(marshalMethods)
	}
	var m marshalMethods
	if t.Implements(marshalerType) {
		m |= valueMarshaler
	}
	if t.Implements(textMarshalerType) {
		m |= valueTextMarshaler
	}
	if t.Kind() != reflect.Pointer {
		pt := reflect.PointerTo(t)
		if pt.Implements(marshalerType) {
			m |= ptrMarshaler
		}
		if pt.Implements(textMarshalerType) {
			m |= ptrTextMarshaler
		}
	}
	methodCache.Store(t, m)
	return m
}

// maxDepth bounds how deeply values nest, so that a cycle through pointers,
// maps or slices is an error instead of a stack overflow.
const maxDepth = 1000

// appendJSON appends the JSON text of v to dst, with the rules of
// encoding/json's Marshal (member names from `json` tags, omitempty,
// omitzero, ",string", embedded structs, MarshalJSON and MarshalText
// methods, []byte as base64) and one difference: '<', '>' and '&' are not
// escaped. Map keys are sorted, so equal values always give equal text: this
// is what lets the module recognise an unchanged value.
//
// It fails, naming where in v, on what JSON cannot hold: NaN and infinite
// floats, channels, functions, complex numbers, maps with keys that are not
// strings, integers or text marshalers, and values nested more than 1000
// deep (a cycle).
func appendJSON(dst []byte, v any) ([]byte, error) {
	e := encoder{buf: dst}
	if err := e.value(reflect.ValueOf(v), 0); err != nil {
		return dst, err
	}
	return e.buf, nil
}

type encoder struct {
	buf []byte
}

// encodeError is a value appendJSON cannot encode. Path says where it is,
// e.g. "Cart.Items[2].Price" or `["totals"]`, empty for the value itself.
type encodeError struct {
	Path   string
	Reason string
}

func (e *encodeError) Error() string {
	if e.Path == "" {
		return "modelcontext: cannot encode the value: " + e.Reason
	}
	return "modelcontext: cannot encode " + e.Path + ": " + e.Reason
}

// at prefixes err's path with a step (".Name", "[3]", `["key"]`).
func at(err error, step string) error {
	if e, ok := err.(*encodeError); ok {
		e.Path = step + e.Path
	}
	return err
}

func fail(reason string) error { return &encodeError{Reason: reason} }

func (e *encoder) value(v reflect.Value, depth int) error {
	if !v.IsValid() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if depth > maxDepth {
		return fail("nested more than " + strconv.Itoa(maxDepth) + " levels deep (is there a cycle?)")
	}
	t := v.Type()
	if m := methodsOf(t); m != 0 {
		switch {
		case m&ptrMarshaler != 0 && v.CanAddr():
			return e.marshaler(v.Addr())
		case m&valueMarshaler != 0:
			return e.marshaler(v)
		case m&ptrTextMarshaler != 0 && v.CanAddr():
			return e.textMarshaler(v.Addr())
		case m&valueTextMarshaler != 0:
			return e.textMarshaler(v)
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32:
		return e.float(v.Float(), 32)
	case reflect.Float64:
		return e.float(v.Float(), 64)
	case reflect.String:
		if t.Name() == "Number" && t.PkgPath() == "encoding/json" {
			return e.number(v.String())
		}
		e.buf = appendString(e.buf, v.String())
	case reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.value(v.Elem(), depth+1)
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.value(v.Elem(), depth+1)
	case reflect.Struct:
		return e.object(v, depth)
	case reflect.Map:
		return e.mapping(v, depth)
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(marshalerType) && !reflect.PointerTo(t.Elem()).Implements(textMarshalerType) {
			b := v.Bytes()
			e.buf = append(e.buf, '"')
			e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
			e.buf = append(e.buf, '"')
			return nil
		}
		return e.array(v, depth)
	case reflect.Array:
		return e.array(v, depth)
	default:
		return fail("JSON has no " + t.String() + " (unsupported type)")
	}
	return nil
}

func (e *encoder) marshaler(v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b, err := v.Interface().(jsonMarshaler).MarshalJSON()
	if err != nil {
		return fail("MarshalJSON of " + v.Type().String() + " failed: " + err.Error())
	}
	if !validJSON(b) {
		return fail("MarshalJSON of " + v.Type().String() + " returned invalid JSON")
	}
	e.buf = appendCompact(e.buf, b)
	return nil
}

// appendCompact appends valid JSON text b without the spaces between its
// tokens, as encoding/json does with MarshalJSON's output.
func appendCompact(dst, b []byte) []byte {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			dst = append(dst, c)
			if c == '\\' && i+1 < len(b) {
				i++
				dst = append(dst, b[i])
			} else if c == '"' {
				inString = false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			dst = append(dst, c)
			inString = c == '"'
		}
	}
	return dst
}

func (e *encoder) textMarshaler(v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return fail("MarshalText of " + v.Type().String() + " failed: " + err.Error())
	}
	e.buf = appendString(e.buf, string(b))
	return nil
}

// float writes f as encoding/json does: like JavaScript for the usual
// range, with an exponent for very large and very small magnitudes.
func (e *encoder) float(f float64, bits int) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fail("JSON has no " + strconv.FormatFloat(f, 'g', -1, bits) + " (unsupported value)")
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	e.buf = strconv.AppendFloat(e.buf, f, format, -1, bits)
	if format == 'e' {
		// 1e-07 → 1e-7
		n := len(e.buf)
		if n >= 4 && e.buf[n-4] == 'e' && e.buf[n-3] == '-' && e.buf[n-2] == '0' {
			e.buf[n-2] = e.buf[n-1]
			e.buf = e.buf[:n-1]
		}
	}
	return nil
}

func (e *encoder) number(s string) error {
	if s == "" {
		s = "0"
	}
	if !validNumber(s) {
		return fail("json.Number " + strconv.Quote(s) + " is not a number")
	}
	e.buf = append(e.buf, s...)
	return nil
}

func (e *encoder) object(v reflect.Value, depth int) error {
	e.buf = append(e.buf, '{')
	first := true
	for _, f := range fieldsOf(v.Type()).list {
		fv, ok := fieldByIndex(v, f.index)
		if !ok || (f.omitEmpty && isEmpty(fv)) || (f.omitZero && isZero(fv)) {
			continue
		}
		if !first {
			e.buf = append(e.buf, ',')
		}
		first = false
		e.buf = appendString(e.buf, f.name)
		e.buf = append(e.buf, ':')
		var err error
		if f.quoted {
			err = e.quoted(fv, depth)
		} else {
			err = e.value(fv, depth+1)
		}
		if err != nil {
			return at(err, "."+f.name)
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// quoted writes a ",string" field: its JSON text inside a JSON string.
func (e *encoder) quoted(v reflect.Value, depth int) error {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		v = v.Elem()
	}
	inner := encoder{}
	if err := inner.value(v, depth+1); err != nil {
		return err
	}
	e.buf = appendString(e.buf, string(inner.buf))
	return nil
}

func (e *encoder) mapping(v reflect.Value, depth int) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	type member struct {
		key string
		val reflect.Value
	}
	members := make([]member, 0, v.Len())
	kt := v.Type().Key()
	for it := v.MapRange(); it.Next(); {
		k, err := mapKey(it.Key(), kt)
		if err != nil {
			return err
		}
		members = append(members, member{k, it.Value()})
	}
	slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
	e.buf = append(e.buf, '{')
	for i, m := range members {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendString(e.buf, m.key)
		e.buf = append(e.buf, ':')
		if err := e.value(m.val, depth+1); err != nil {
			return at(err, "["+strconv.Quote(m.key)+"]")
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// mapKey is the member name of a map key, as encoding/json resolves it.
func mapKey(k reflect.Value, kt reflect.Type) (string, error) {
	if kt.Kind() == reflect.String {
		return k.String(), nil
	}
	if kt.Implements(textMarshalerType) {
		if kt.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return "", fail("MarshalText of map key " + kt.String() + " failed: " + err.Error())
		}
		return string(b), nil
	}
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fail("JSON object keys cannot be " + kt.String() + " (use string, integer or encoding.TextMarshaler keys)")
}

func (e *encoder) array(v reflect.Value, depth int) error {
	e.buf = append(e.buf, '[')
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(v.Index(i), depth+1); err != nil {
			return at(err, "["+strconv.Itoa(i)+"]")
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero is omitzero's test: an IsZero() bool method if the type has one,
// else the zero value.
func isZero(v reflect.Value) bool {
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return true
		}
		return z.IsZero()
	}
	if v.CanAddr() {
		if z, ok := v.Addr().Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
	}
	return v.IsZero()
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does with
// HTML escaping off: invalid UTF-8 becomes U+FFFD, and U+2028 and U+2029
// are escaped.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
