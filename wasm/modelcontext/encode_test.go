package modelcontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// encodingJSON is what encoding/json writes for v, with HTML escaping off
// (appendJSON leaves <, > and & alone: JSON.parse reads both the same).
func encodingJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json cannot encode %#v: %v", v, err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type Inner struct {
	X int `json:"x"`
	Y string
}

type Embedded struct {
	Inner
	Z bool `json:"z,omitempty"`
}

type ShadowA struct{ Name string }
type ShadowB struct{ Name string }
type Shadowed struct {
	ShadowA
	ShadowB            // Name conflicts at one depth: dropped, as encoding/json does
	Own     string     `json:"own"`
	Ptr     *Inner     `json:"ptr,omitempty"`
	Tagged  ShadowA    `json:"tagged"`
	Skip    string     `json:"-"`
	Dash    string     `json:"-,"`
	Quoted  int        `json:"quoted,string"`
	QStr    string     `json:",string"`
	Zero    time.Time  `json:"zero,omitzero"`
	When    time.Time  `json:"when"`
	private int        //nolint:unused // unexported: never encoded
	Iface   any        `json:"iface"`
	Addr    netip.Addr `json:"addr"` // a TextMarshaler
}

type byPointer struct{ N int }

func (b *byPointer) MarshalJSON() ([]byte, error) { return []byte(`{"custom":true}`), nil }

type textKey struct{ a, b string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

type named string

func TestEncodeLikeEncodingJSON(t *testing.T) {
	when := time.Date(2026, 3, 4, 5, 6, 7, 800, time.FixedZone("CET", 3600))
	cases := []any{
		nil, true, false, 0, -42, uint64(math.MaxUint64), int64(math.MinInt64),
		1.5, 1e21, 1e20, 1e-7, 0.000001, -0.0, float32(3.4e38), float32(1e-7), 123456789.125,
		"", "plain", "quote\" backslash\\ slash/ tab\t nl\n cr\r bell\a nul\x00 ff\f bs\b",
		"<html> & </html>", "é ✓ 😀", "bad utf8 \xff\xfe end", "line sep \u2028 para \u2029",
		[]int{}, []int(nil), []string{"a", "b"}, [3]int{1, 2, 3}, []byte("bytes\x00\xff"), []byte{},
		map[string]int{"b": 2, "a": 1, "c": 3, "": 0, "A": 4},
		map[int]string{10: "ten", 9: "nine", -1: "minus"},
		map[uint8]bool{200: true, 3: false},
		map[textKey]int{{"x", "y"}: 1, {"a", "b"}: 2},
		map[string]any{"nested": map[string]any{"z": 1, "y": []any{1, "two", nil, 3.5}}, "t": when},
		map[string]int(nil),
		Inner{X: 1, Y: "y"}, &Inner{X: 2}, (*Inner)(nil),
		Embedded{Inner: Inner{X: 3, Y: "w"}},
		Shadowed{ShadowA: ShadowA{"a"}, ShadowB: ShadowB{"b"}, Own: "own", Tagged: ShadowA{"t"}, Skip: "no", Dash: "dash",
			Quoted: 12, QStr: "q", When: when, Iface: []int{1}, Addr: netip.MustParseAddr("192.0.2.1")},
		&byPointer{N: 1}, byPointer{N: 2}, []*byPointer{{1}, nil},
		named("a named string"), json.Number("12.5e3"), json.RawMessage(`{"raw": [1, 2]}`),
		struct {
			A []Inner          `json:"a"`
			M map[string]Inner `json:"m"`
			P **int            `json:"p"`
		}{A: []Inner{{1, "x"}}, M: map[string]Inner{"k": {2, "y"}}},
		when, time.Duration(1500) * time.Millisecond,
	}
	for _, v := range cases {
		got, err := appendJSON(nil, v)
		if err != nil {
			t.Errorf("appendJSON(%#v): %v", v, err)
			continue
		}
		if want := encodingJSON(t, v); string(got) != want {
			t.Errorf("appendJSON(%#v)\n got %s\nwant %s", v, got, want)
		}
	}
}

// TestEncodeIsDeterministic: the same map, built in different orders and
// encoded many times, always gives the same text. (js.ValueOf builds objects
// in Go's random map order, which is what defeats the module's comparison.)
func TestEncodeIsDeterministic(t *testing.T) {
	build := func(reverse bool) map[string]any {
		m := map[string]any{}
		keys := []string{"sku", "name", "qty", "price", "tags", "meta", "a", "z", "m", "k"}
		if reverse {
			for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
		for _, k := range keys {
			m[k] = map[string]int{k + "1": len(k), k + "2": -len(k)}
		}
		return m
	}
	first, err := appendJSON(nil, build(false))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		got, _ := appendJSON(nil, build(i%2 == 1))
		if !bytes.Equal(got, first) {
			t.Fatalf("encoding %d differs:\n%s\n%s", i, got, first)
		}
	}
}

type badMarshaler struct{}

func (badMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{oops`), nil }

type failingMarshaler struct{}

func (failingMarshaler) MarshalJSON() ([]byte, error) { return nil, errors.New("no way") }

type cyclic struct {
	Next *cyclic `json:"next"`
}

func TestEncodeErrorsNameWhere(t *testing.T) {
	loop := &cyclic{}
	loop.Next = loop
	type price struct {
		Amount float64 `json:"amount"`
	}
	cases := []struct {
		v    any
		want string
	}{
		{math.NaN(), "modelcontext: cannot encode the value: JSON has no NaN (unsupported value)"},
		{map[string]any{"items": []any{1, price{math.Inf(1)}}}, `modelcontext: cannot encode ["items"][1].amount: JSON has no +Inf (unsupported value)`},
		{struct{ C chan int }{make(chan int)}, "modelcontext: cannot encode .C: JSON has no chan int (unsupported type)"},
		{func() {}, "modelcontext: cannot encode the value: JSON has no func() (unsupported type)"},
		{complex(1, 2), "modelcontext: cannot encode the value: JSON has no complex128 (unsupported type)"},
		{map[bool]int{true: 1}, "modelcontext: cannot encode the value: JSON object keys cannot be bool (use string, integer or encoding.TextMarshaler keys)"},
		{badMarshaler{}, "modelcontext: cannot encode the value: MarshalJSON of modelcontext.badMarshaler returned invalid JSON"},
		{[]any{failingMarshaler{}}, "modelcontext: cannot encode [0]: MarshalJSON of modelcontext.failingMarshaler failed: no way"},
		{json.Number("1x"), `modelcontext: cannot encode the value: json.Number "1x" is not a number`},
	}
	for _, c := range cases {
		_, err := appendJSON(nil, c.v)
		if err == nil || err.Error() != c.want {
			t.Errorf("appendJSON(%T):\n got %v\nwant %s", c.v, err, c.want)
		}
	}
	_, err := appendJSON(nil, loop)
	if err == nil || !strings.Contains(err.Error(), "nested more than 1000 levels deep (is there a cycle?)") || !strings.HasPrefix(err.Error(), "modelcontext: cannot encode .next.next.next") {
		t.Errorf("a cycle: %v", err)
	}
}

// FuzzEncodeLikeEncodingJSON: any JSON text decoded by encoding/json into
// an interface{} encodes exactly as encoding/json encodes it.
func FuzzEncodeLikeEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"x"]}`, `"\u2028<>&\ud800"`, `1e-7`, `[{"":{}}]`, `123456789012345678901234567890`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		got, err := appendJSON(nil, v)
		if err != nil {
			t.Fatalf("appendJSON: %v", err)
		}
		if want := encodingJSON(t, v); string(got) != want {
			t.Fatalf("\n got %s\nwant %s", got, want)
		}
	})
}
