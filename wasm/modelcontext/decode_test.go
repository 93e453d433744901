package modelcontext

import (
	"encoding/json"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
)

type Draft struct {
	Name     string            `json:"name"`
	Postcode string            `json:"postcode,omitempty"`
	Missing  []string          `json:"missing"`
	Count    int               `json:"count"`
	Price    float64           `json:"price"`
	Express  bool              `json:"express"`
	Tags     map[string]string `json:"tags"`
	When     time.Time         `json:"when"`
	Addr     netip.Addr        `json:"addr"`
	Raw      json.RawMessage   `json:"raw"`
	Any      any               `json:"any"`
	Ptr      *Inner            `json:"ptr"`
	Bytes    []byte            `json:"bytes"`
	Arr      [2]int            `json:"arr"`
	Quoted   int               `json:"quoted,string"`
	ByID     map[int]string    `json:"byID"`
	Embedded
}

// TestDecodeLikeEncodingJSON: for each JSON text and destination type,
// decodeJSON stores what encoding/json's Unmarshal stores.
func TestDecodeLikeEncodingJSON(t *testing.T) {
	cases := []struct {
		text string
		dst  func() any // a fresh pointer to decode into
	}{
		{`{"name":"Ada","missing":["city"],"count":3,"price":12.5,"express":true,"tags":{"b":"2","a":"1"},
		  "when":"2026-03-04T05:06:07.0000008+01:00","addr":"192.0.2.1","raw":{"x": [1, 2]},"any":{"n":[1,"two",null,true]},
		  "ptr":{"x":7,"Y":"y"},"bytes":"AP8=","arr":[1,2,3],"quoted":"42","byID":{"3":"three"},"x":9,"z":true,"unknown":{"deep":[{}]}}`,
			func() any { return new(Draft) }},
		{`{"NAME":"case-insensitive","Count":1,"y":"folded"}`, func() any { return new(Draft) }},
		{`{"name":null,"missing":null,"ptr":null,"tags":null}`, func() any {
			return &Draft{Name: "kept", Missing: []string{"x"}, Ptr: &Inner{}, Tags: map[string]string{}}
		}},
		{`[]`, func() any { return new([]int) }},
		{`[1,2]`, func() any { return &[]int{9, 9, 9} }},
		{`[1]`, func() any { return &[3]int{9, 9, 9} }},
		{`{"a":1,"b":{"c":[true,false,null]}}`, func() any { return new(any) }},
		{`{"a":1}`, func() any { return &map[string]int{"old": 0} }},
		{`"\u00e9\ud83d\ude00\ud800x\n\t\"\\\/"`, func() any { return new(string) }},
		{`-1.5e3`, func() any { return new(float64) }},
		{`-0`, func() any { return new(int) }},
		{`255`, func() any { return new(uint8) }},
		{`12345678901234567890`, func() any { return new(json.Number) }},
		{`"12.5"`, func() any { return new(json.Number) }},
		{`null`, func() any { p := &Inner{X: 1}; return &p }},
		{`{"k":{"x":1}}`, func() any { return new(map[string]*Inner) }},
		{` { "x" : 1 , "Y" : "sp" } `, func() any { return new(Inner) }},
	}
	for _, c := range cases {
		got, want := c.dst(), c.dst()
		if err := json.Unmarshal([]byte(c.text), want); err != nil {
			t.Fatalf("encoding/json cannot decode %s into %T: %v", c.text, want, err)
		}
		if err := decodeJSON([]byte(c.text), got); err != nil {
			t.Errorf("decodeJSON(%s, %T): %v", c.text, got, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decodeJSON(%s, %T)\n got %#v\nwant %#v", c.text, got, reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem())
		}
	}
}

func TestDecodeErrorsNameWhere(t *testing.T) {
	cases := []struct {
		text string
		dst  any
		want string
	}{
		{`{"count":"three"}`, new(Draft), "modelcontext: cannot decode .count: a JSON string does not fit int"},
		{`{"missing":[1]}`, new(Draft), "modelcontext: cannot decode .missing[0]: a JSON number does not fit string"},
		{`{"ptr":{"x":1.5}}`, new(Draft), "modelcontext: cannot decode .ptr.x: the number 1.5 does not fit int"},
		{`300`, new(uint8), "modelcontext: cannot decode the value: the number 300 does not fit uint8"},
		{`{"bytes":"not base64!"}`, new(Draft), "modelcontext: cannot decode .bytes: a []byte takes a base64 string: illegal base64 data at input byte 3"},
		{`{"when":"yesterday"}`, new(Draft), `modelcontext: cannot decode .when: UnmarshalJSON of *time.Time failed: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{`{"a":1}`, new([]int), "modelcontext: cannot decode the value: a JSON object does not fit []int"},
		{`1`, Draft{}, "modelcontext: cannot decode the value: the destination must be a non-nil pointer, got modelcontext.Draft"},
		{`1`, nil, "modelcontext: cannot decode the value: the destination must be a non-nil pointer, got nil"},
		{`{"a":1`, new(any), "modelcontext: cannot decode the value: invalid JSON at offset 6: unexpected end in an object"},
		{`[1,]`, new(any), "modelcontext: cannot decode [1]: invalid JSON at offset 3: unexpected character ']'"},
		{`1 2`, new(any), "modelcontext: cannot decode the value: invalid JSON at offset 2: text after the value"},
		{`{"byID":{"x":"y"}}`, new(Draft), `modelcontext: cannot decode .byID["x"]: the key "x" does not fit int`},
	}
	for _, c := range cases {
		err := decodeJSON([]byte(c.text), c.dst)
		if err == nil || err.Error() != c.want {
			t.Errorf("decodeJSON(%s, %T):\n got %v\nwant %s", c.text, c.dst, err, c.want)
		}
	}
}

// TestRoundTrip: what appendJSON writes, decodeJSON reads back.
func TestRoundTrip(t *testing.T) {
	in := Draft{Name: "Ada", Missing: []string{}, Count: -3, Price: 0.1, Tags: map[string]string{"k": "v"},
		When: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Addr: netip.MustParseAddr("::1"), Raw: json.RawMessage(`[1]`),
		Any: "s", Ptr: &Inner{X: 1, Y: "y"}, Bytes: []byte{0, 1, 255}, Arr: [2]int{4, 5}, Quoted: 7,
		ByID: map[int]string{2: "two"}, Embedded: Embedded{Inner: Inner{X: 8}, Z: true}}
	text, err := appendJSON(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	var out Draft
	if err := decodeJSON(text, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip of %s\n got %#v\nwant %#v", text, out, in)
	}
}

// FuzzDecodeLikeEncodingJSON: on any input, decodeJSON into interface{}
// and into a struct agrees with encoding/json on whether the text is
// valid JSON, and on valid JSON stores the same value. It never panics.
func FuzzDecodeLikeEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"name":"x","count":1,"tags":{"a":"b"}}`, `[1,"\ud800",{"a":null}]`, `"\u00e9"`, `-0.0e-1`, `{"x":1,"y":"2"}`, "\"\xff\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want, got any
		werr := json.Unmarshal([]byte(s), &want)
		gerr := decodeJSON([]byte(s), &got)
		if (werr == nil) != (gerr == nil) {
			if werr != nil && strings.Contains(werr.Error(), "exceeded max depth") {
				return
			}
			t.Fatalf("encoding/json: %v; decodeJSON: %v", werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("\n got %#v\nwant %#v", got, want)
		}
		var ws, gs Draft
		werr = json.Unmarshal([]byte(s), &ws)
		gerr = decodeJSON([]byte(s), &gs)
		if werr == nil && gerr == nil && !reflect.DeepEqual(gs, ws) {
			t.Fatalf("into a struct\n got %#v\nwant %#v", gs, ws)
		}
	})
}
