package modelcontext

import (
	"encoding"
	"encoding/base64"
	"reflect"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxNesting bounds how deeply JSON text may nest, as encoding/json does.
const maxNesting = 10000

// decodeJSON stores the JSON text data in the value dst points to, with the
// rules of encoding/json's Unmarshal: object keys match `json` tag names or
// field names (exactly, else ignoring case), unknown keys are ignored, null
// sets pointers, maps, slices and interfaces to nil and leaves other values
// alone, an interface{} receives map[string]any, []any, float64, string, bool
// or nil, []byte takes a base64 string, and UnmarshalJSON / UnmarshalText
// methods are used. Unlike Unmarshal it stops at the first value that does
// not fit, naming where it is.
func decodeJSON(data []byte, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &decodeError{Reason: "the destination must be a non-nil pointer, got " + typeName(rv)}
	}
	d := decoder{data: data}
	d.space()
	if err := d.value(rv.Elem(), 0); err != nil {
		return err
	}
	d.space()
	if d.pos != len(d.data) {
		return d.syntax("text after the value")
	}
	return nil
}

func typeName(v reflect.Value) string {
	if !v.IsValid() {
		return "nil"
	}
	return v.Type().String()
}

// decodeError is a value decodeJSON could not store. Path says where, e.g.
// ".items[2].price", empty for the value itself.
type decodeError struct {
	Path   string
	Reason string
}

func (e *decodeError) Error() string {
	if e.Path == "" {
		return "modelcontext: cannot decode the value: " + e.Reason
	}
	return "modelcontext: cannot decode " + e.Path + ": " + e.Reason
}

func under(err error, step string) error {
	if e, ok := err.(*decodeError); ok {
		e.Path = step + e.Path
	}
	return err
}

type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) syntax(what string) error {
	return &decodeError{Reason: "invalid JSON at offset " + strconv.Itoa(d.pos) + ": " + what}
}

func mismatch(jsonKind string, t reflect.Type) error {
	return &decodeError{Reason: "a JSON " + jsonKind + " does not fit " + t.String()}
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value decodes the JSON value at d.pos into v.
func (d *decoder) value(v reflect.Value, depth int) error {
	if depth > maxNesting {
		return d.syntax("nested too deeply")
	}
	if d.pos >= len(d.data) {
		return d.syntax("unexpected end")
	}
	start := d.pos
	switch c := d.data[d.pos]; {
	case c == 'n':
		if err := d.literal("null"); err != nil {
			return err
		}
		u, _, pv := indirect(v, true)
		if u != nil {
			return callUnmarshaler(u, d.data[start:d.pos])
		}
		switch pv.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			pv.SetZero()
		}
		return nil
	case c == 't' || c == 'f':
		word := "true"
		if c == 'f' {
			word = "false"
		}
		if err := d.literal(word); err != nil {
			return err
		}
		u, tu, pv := indirect(v, false)
		switch {
		case u != nil:
			return callUnmarshaler(u, d.data[start:d.pos])
		case tu != nil:
			return mismatch("boolean", reflect.TypeOf(tu))
		case pv.Kind() == reflect.Bool:
			pv.SetBool(c == 't')
		case pv.Kind() == reflect.Interface && pv.NumMethod() == 0:
			pv.Set(reflect.ValueOf(c == 't'))
		default:
			return mismatch("boolean", pv.Type())
		}
		return nil
	case c == '"':
		s, err := d.str()
		if err != nil {
			return err
		}
		u, tu, pv := indirect(v, false)
		switch {
		case u != nil:
			return callUnmarshaler(u, d.data[start:d.pos])
		case tu != nil:
			if err := tu.UnmarshalText([]byte(s)); err != nil {
				return &decodeError{Reason: "UnmarshalText of " + reflect.TypeOf(tu).String() + " failed: " + err.Error()}
			}
			return nil
		}
		switch pv.Kind() {
		case reflect.String:
			if pv.Type().Name() == "Number" && pv.Type().PkgPath() == "encoding/json" && !validNumber(s) {
				return &decodeError{Reason: strconv.Quote(s) + " is not a number for json.Number"}
			}
			pv.SetString(s)
		case reflect.Slice:
			if pv.Type().Elem().Kind() != reflect.Uint8 {
				return mismatch("string", pv.Type())
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return &decodeError{Reason: "a []byte takes a base64 string: " + err.Error()}
			}
			pv.SetBytes(b)
		case reflect.Interface:
			if pv.NumMethod() != 0 {
				return mismatch("string", pv.Type())
			}
			pv.Set(reflect.ValueOf(s))
		default:
			return mismatch("string", pv.Type())
		}
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		if err := d.number(); err != nil {
			return err
		}
		return storeNumber(v, d.data[start:d.pos])
	case c == '[':
		u, tu, pv := indirect(v, false)
		if u != nil {
			if err := d.skip(depth); err != nil {
				return err
			}
			return callUnmarshaler(u, d.data[start:d.pos])
		}
		if tu != nil {
			return mismatch("array", reflect.TypeOf(tu))
		}
		return d.array(pv, depth)
	case c == '{':
		u, tu, pv := indirect(v, false)
		if u != nil {
			if err := d.skip(depth); err != nil {
				return err
			}
			return callUnmarshaler(u, d.data[start:d.pos])
		}
		if tu != nil {
			return mismatch("object", reflect.TypeOf(tu))
		}
		return d.object(pv, depth)
	}
	return d.syntax("unexpected character " + strconv.QuoteRune(rune(d.data[d.pos])))
}

func callUnmarshaler(u jsonUnmarshaler, raw []byte) error {
	if err := u.UnmarshalJSON(raw); err != nil {
		return &decodeError{Reason: "UnmarshalJSON of " + reflect.TypeOf(u).String() + " failed: " + err.Error()}
	}
	return nil
}

func storeNumber(v reflect.Value, raw []byte) error {
	u, tu, pv := indirect(v, false)
	s := string(raw)
	switch {
	case u != nil:
		return callUnmarshaler(u, raw)
	case tu != nil:
		return mismatch("number", reflect.TypeOf(tu))
	}
	switch pv.Kind() {
	case reflect.Interface:
		if pv.NumMethod() != 0 {
			return mismatch("number", pv.Type())
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return &decodeError{Reason: "the number " + s + " does not fit float64"}
		}
		pv.Set(reflect.ValueOf(f))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || pv.OverflowInt(n) {
			return &decodeError{Reason: "the number " + s + " does not fit " + pv.Type().String()}
		}
		pv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || pv.OverflowUint(n) {
			return &decodeError{Reason: "the number " + s + " does not fit " + pv.Type().String()}
		}
		pv.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, pv.Type().Bits())
		if err != nil || pv.OverflowFloat(f) {
			return &decodeError{Reason: "the number " + s + " does not fit " + pv.Type().String()}
		}
		pv.SetFloat(f)
	case reflect.String:
		if pv.Type().Name() == "Number" && pv.Type().PkgPath() == "encoding/json" {
			pv.SetString(s)
			return nil
		}
		return mismatch("number", pv.Type())
	default:
		return mismatch("number", pv.Type())
	}
	return nil
}

func (d *decoder) array(v reflect.Value, depth int) error {
	d.pos++ // [
	switch v.Kind() {
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return mismatch("array", v.Type())
		}
		var list []any
		lv := reflect.ValueOf(&list).Elem()
		if err := d.elements(lv, depth); err != nil {
			return err
		}
		if list == nil {
			list = []any{}
		}
		v.Set(reflect.ValueOf(list))
		return nil
	case reflect.Slice, reflect.Array:
		return d.elements(v, depth)
	}
	return mismatch("array", v.Type())
}

// elements decodes the members of an array whose '[' is consumed into the
// slice or array v.
func (d *decoder) elements(v reflect.Value, depth int) error {
	n := 0 // members decoded
	err := d.items(func(i int) error {
		n = i + 1
		var err error
		switch {
		case v.Kind() == reflect.Slice:
			if i >= v.Cap() {
				v.Grow(1)
			}
			if i >= v.Len() {
				v.SetLen(i + 1)
			}
			v.Index(i).SetZero()
			err = d.value(v.Index(i), depth+1)
		case i < v.Len():
			err = d.value(v.Index(i), depth+1)
		default:
			err = d.skip(depth + 1)
		}
		if err != nil {
			return under(err, "["+strconv.Itoa(i)+"]")
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch v.Kind() {
	case reflect.Array:
		for i := n; i < v.Len(); i++ {
			v.Index(i).SetZero()
		}
	case reflect.Slice:
		if n == 0 && v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		v.SetLen(n)
	}
	return nil
}

// items walks the members of an array whose '[' is consumed, calling each
// with a member's index while d is at the member, through the closing ']'.
func (d *decoder) items(each func(i int) error) error {
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return nil
	}
	for i := 0; ; i++ {
		d.space()
		if err := each(i); err != nil {
			return err
		}
		if done, err := d.after(']', "an array"); done || err != nil {
			return err
		}
	}
}

// after reads what follows a member of an array or an object (what names
// which): the closing byte, and then done is true, or a comma.
func (d *decoder) after(closing byte, what string) (done bool, err error) {
	d.space()
	if d.pos >= len(d.data) {
		return false, d.syntax("unexpected end in " + what)
	}
	switch d.data[d.pos] {
	case closing:
		d.pos++
		return true, nil
	case ',':
		d.pos++
		return false, nil
	}
	return false, d.syntax("expected , or " + string(closing) + " in " + what)
}

func (d *decoder) object(v reflect.Value, depth int) error {
	d.pos++ // {
	var (
		fields  *structFields
		mapElem reflect.Type
	)
	switch v.Kind() {
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return mismatch("object", v.Type())
		}
		m := map[string]any{}
		mv := reflect.ValueOf(m)
		if err := d.members(depth, func(key string) error {
			var x any
			if err := d.value(reflect.ValueOf(&x).Elem(), depth+1); err != nil {
				return err
			}
			mv.SetMapIndex(reflect.ValueOf(key), reflect.ValueOf(&x).Elem())
			return nil
		}); err != nil {
			return err
		}
		v.Set(mv)
		return nil
	case reflect.Map:
		kt := v.Type().Key()
		switch kt.Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			if !reflect.PointerTo(kt).Implements(textUnmarshalerType) {
				return mismatch("object", v.Type())
			}
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		mapElem = v.Type().Elem()
	case reflect.Struct:
		fields = fieldsOf(v.Type())
	default:
		return mismatch("object", v.Type())
	}
	return d.members(depth, func(key string) error {
		if fields != nil {
			f, ok := fields.byName(key)
			if !ok {
				return d.skip(depth + 1)
			}
			fv, err := settableField(v, f.index)
			if err != nil {
				return under(err, "."+key)
			}
			if f.quoted {
				err = d.quoted(fv, depth)
			} else {
				err = d.value(fv, depth+1)
			}
			return under(err, "."+key)
		}
		elem := reflect.New(mapElem).Elem()
		if err := d.value(elem, depth+1); err != nil {
			return under(err, "["+strconv.Quote(key)+"]")
		}
		k, err := mapKeyOf(key, v.Type().Key())
		if err != nil {
			return under(err, "["+strconv.Quote(key)+"]")
		}
		v.SetMapIndex(k, elem)
		return nil
	})
}

// members reads the members of an object whose '{' is consumed, calling
// each with the key once d.pos is at the member's value.
func (d *decoder) members(depth int, each func(key string) error) error {
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return nil
	}
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return d.syntax("expected a member name")
		}
		key, err := d.str()
		if err != nil {
			return err
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return d.syntax("expected : after a member name")
		}
		d.pos++
		d.space()
		if err := each(key); err != nil {
			return err
		}
		if done, err := d.after('}', "an object"); done || err != nil {
			return err
		}
	}
}

// quoted decodes a ",string" field: a JSON string holding the field's JSON.
func (d *decoder) quoted(v reflect.Value, depth int) error {
	if d.pos < len(d.data) && d.data[d.pos] == 'n' {
		return d.value(v, depth+1)
	}
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return &decodeError{Reason: "a field with the ,string option takes a JSON string"}
	}
	s, err := d.str()
	if err != nil {
		return err
	}
	inner := decoder{data: []byte(s)}
	if err := inner.value(v, depth+1); err != nil || inner.pos != len(inner.data) {
		return &decodeError{Reason: "a field with the ,string option cannot hold " + strconv.Quote(s)}
	}
	return nil
}

func mapKeyOf(key string, kt reflect.Type) (reflect.Value, error) {
	if reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		k := reflect.New(kt)
		if err := k.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(key)); err != nil {
			return reflect.Value{}, &decodeError{Reason: "UnmarshalText of map key " + kt.String() + " failed: " + err.Error()}
		}
		return k.Elem(), nil
	}
	k := reflect.New(kt).Elem()
	switch kt.Kind() {
	case reflect.String:
		k.SetString(key)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil || k.OverflowInt(n) {
			return reflect.Value{}, &decodeError{Reason: "the key " + strconv.Quote(key) + " does not fit " + kt.String()}
		}
		k.SetInt(n)
	default:
		n, err := strconv.ParseUint(key, 10, 64)
		if err != nil || k.OverflowUint(n) {
			return reflect.Value{}, &decodeError{Reason: "the key " + strconv.Quote(key) + " does not fit " + kt.String()}
		}
		k.SetUint(n)
	}
	return k, nil
}

// settableField returns the field of struct v at index, allocating nil
// embedded pointers on the way.
func settableField(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, &decodeError{Reason: "cannot set a field through a nil pointer to the unexported embedded struct " + v.Type().Elem().String()}
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// indirect walks down v through pointers (allocating nil ones) and returns
// the first Unmarshaler or TextUnmarshaler on the way, else the value to
// store into. With decodingNull it stops at the last settable pointer, so
// that null can set it to nil. This is encoding/json's indirect.
func indirect(v reflect.Value, decodingNull bool) (jsonUnmarshaler, encoding.TextUnmarshaler, reflect.Value) {
	v0 := v
	haveAddr := false
	if v.Kind() != reflect.Pointer && v.Type().Name() != "" && v.CanAddr() {
		haveAddr = true
		v = v.Addr()
	}
	for {
		if v.Kind() == reflect.Interface && !v.IsNil() {
			e := v.Elem()
			if e.Kind() == reflect.Pointer && !e.IsNil() && (!decodingNull || e.Elem().Kind() == reflect.Pointer) {
				haveAddr = false
				v = e
				continue
			}
		}
		if v.Kind() != reflect.Pointer {
			break
		}
		if decodingNull && v.CanSet() {
			break
		}
		if v.Elem().Kind() == reflect.Interface && v.Elem().Elem().Equal(v) {
			v = v.Elem()
			break
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Type().NumMethod() > 0 && v.CanInterface() {
			if u, ok := v.Interface().(jsonUnmarshaler); ok {
				return u, nil, reflect.Value{}
			}
			if !decodingNull {
				if u, ok := v.Interface().(encoding.TextUnmarshaler); ok {
					return nil, u, reflect.Value{}
				}
			}
		}
		if haveAddr {
			v = v0
			haveAddr = false
		} else {
			v = v.Elem()
		}
	}
	return nil, nil, v
}

func (d *decoder) literal(word string) error {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return d.syntax("expected " + word)
	}
	d.pos += len(word)
	return nil
}

// number advances over a JSON number.
func (d *decoder) number() error {
	p := d.pos
	if p < len(d.data) && d.data[p] == '-' {
		p++
	}
	switch {
	case p < len(d.data) && d.data[p] == '0':
		p++
	case p < len(d.data) && d.data[p] >= '1' && d.data[p] <= '9':
		for p < len(d.data) && d.data[p] >= '0' && d.data[p] <= '9' {
			p++
		}
	default:
		d.pos = p
		return d.syntax("expected a digit")
	}
	if p < len(d.data) && d.data[p] == '.' {
		p++
		if p >= len(d.data) || d.data[p] < '0' || d.data[p] > '9' {
			d.pos = p
			return d.syntax("expected a digit after .")
		}
		for p < len(d.data) && d.data[p] >= '0' && d.data[p] <= '9' {
			p++
		}
	}
	if p < len(d.data) && (d.data[p] == 'e' || d.data[p] == 'E') {
		p++
		if p < len(d.data) && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		if p >= len(d.data) || d.data[p] < '0' || d.data[p] > '9' {
			d.pos = p
			return d.syntax("expected a digit in an exponent")
		}
		for p < len(d.data) && d.data[p] >= '0' && d.data[p] <= '9' {
			p++
		}
	}
	d.pos = p
	return nil
}

// str reads a JSON string at d.pos and returns its value. Invalid UTF-8
// and lone surrogates become U+FFFD, as in encoding/json.
func (d *decoder) str() (string, error) {
	d.pos++ // "
	start := d.pos
	// Fast path: no escapes, all ASCII or valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return string([]rune(string(s))), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.pos++
	}
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for {
		if d.pos >= len(d.data) {
			return "", d.syntax("unterminated string")
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if utf8.Valid(buf) {
				return string(buf), nil
			}
			return string([]rune(string(buf))), nil
		case c < 0x20:
			return "", d.syntax("control character in a string")
		case c != '\\':
			buf = append(buf, c)
			d.pos++
			continue
		}
		d.pos++
		if d.pos >= len(d.data) {
			return "", d.syntax("unterminated string")
		}
		e := d.data[d.pos]
		d.pos++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.syntax("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					save := d.pos
					d.pos += 2
					var ok2 bool
					if r2, ok2 = d.hex4(); !ok2 {
						return "", d.syntax("bad \\u escape")
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						buf = utf8.AppendRune(buf, dec)
						continue
					}
					d.pos = save
				}
				r = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", d.syntax("bad escape \\" + string(rune(e)))
		}
	}
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.pos += 4
	return r, true
}

// skip advances over one JSON value, checking its syntax.
func (d *decoder) skip(depth int) error {
	if depth > maxNesting {
		return d.syntax("nested too deeply")
	}
	d.space()
	if d.pos >= len(d.data) {
		return d.syntax("unexpected end")
	}
	switch c := d.data[d.pos]; {
	case c == 'n':
		return d.literal("null")
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == '"':
		_, err := d.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == '[':
		d.pos++
		return d.items(func(int) error { return d.skip(depth + 1) })
	case c == '{':
		d.pos++
		return d.members(depth, func(string) error { return d.skip(depth + 1) })
	}
	return d.syntax("unexpected character " + strconv.QuoteRune(rune(d.data[d.pos])))
}

// validJSON reports whether b is exactly one JSON value (with spaces around).
func validJSON(b []byte) bool {
	d := decoder{data: b}
	if d.skip(0) != nil {
		return false
	}
	d.space()
	return d.pos == len(b)
}

// validNumber reports whether s is exactly one JSON number.
func validNumber(s string) bool {
	d := decoder{data: []byte(s)}
	return s != "" && d.number() == nil && d.pos == len(s)
}
