package modelcontext

import (
	"bytes"
	"encoding/json"
	"sync"
)

// encoder is a JSON encoder that does not escape HTML, with its buffer.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// marshalJSON returns the JSON text of v as encoding/json writes it (map
// keys sorted, struct tags, Marshaler and TextMarshaler methods), without
// escaping <, > and &: equal values always give equal text, which is what
// lets the module recognise an unchanged value.
func marshalJSON(v any) (string, error) {
	e := encoders.Get().(*encoder)
	defer func() {
		if e.buf.Cap() <= 64<<10 {
			e.buf.Reset()
			encoders.Put(e)
		}
	}()
	if err := e.enc.Encode(v); err != nil {
		return "", err
	}
	b := e.buf.Bytes()
	return string(b[:len(b)-1]), nil // without Encode's newline
}
