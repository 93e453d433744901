package modelcontexttest

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// value is a value as the page holds it: JSON text, or, for a []byte,
// binary.
type value struct {
	text   string
	bin    []byte
	binary bool
}

// encode turns a Go value into the page's: nil, strings and every other
// value as their JSON (encoding/json's, as the browser's Page sends them),
// a []byte as binary.
func encode(v any) (*value, error) {
	if b, ok := v.([]byte); ok {
		return &value{bin: slices.Clone(b), binary: true}, nil
	}
	text, err := page.JSON(v)
	if err != nil {
		return nil, err
	}
	return &value{text: text}, nil
}

// key is the value's comparison key: its JSON, or its bytes.
func (v *value) key() string {
	if v.binary {
		return "binary:" + string(v.bin)
	}
	return v.text
}

// Decode stores the value in dst as the browser's Page does: JSON with
// encoding/json's Unmarshal, binary into a *[]byte or an *any.
func (v *value) Decode(dst any) error {
	if !v.binary {
		return json.Unmarshal([]byte(v.text), dst)
	}
	switch d := dst.(type) {
	case *[]byte:
		*d = slices.Clone(v.bin)
		return nil
	case *any:
		*d = slices.Clone(v.bin)
		return nil
	}
	return errors.New("a binary value (Uint8Array) decodes only into a []byte or an any, not a " + reflect.TypeOf(dst).Elem().String())
}
