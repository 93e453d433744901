package mcp

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// field mirrors the loader's put: the kind of v and its content.
func field(v any, depth int) registry.Field {
	switch x := v.(type) {
	case nil:
		return registry.Field{Kind: registry.KindNull}
	case missing:
		return registry.Field{}
	case string:
		return registry.Field{Kind: registry.KindString, Str: x}
	case float64:
		return registry.Field{Kind: registry.KindNumber, Num: x}
	case bool:
		return registry.Field{Kind: registry.KindBoolean, True: x}
	case []any:
		f := registry.Field{Kind: registry.KindArray}
		if depth == 0 {
			for _, it := range x {
				f.Items = append(f.Items, field(it, 1))
			}
		}
		return f
	}
	return registry.Field{Kind: registry.KindObject}
}

type missing struct{}

// walk follows path through plain objects, as the loader does.
func walk(v any, path []string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return missing{}
		}
		if v, ok = m[k]; !ok {
			return missing{}
		}
	}
	return v
}

// resolver looks a uri up the way the loader does (the tests use
// registrytest.Host's).
type resolver func(uri string) (registry.ID, []registry.Param)

// message builds the Message the loader would extract from an event whose
// payload is written as JSON, by interpreting MessageFields like the loader.
func message(t testing.TB, payload string, resolve resolver) Message {
	var p any
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		t.Fatalf("bad test payload %s: %v", payload, err)
	}
	root := map[string]any{"origin": origin, "payload": p}
	var m Message
	for _, f := range messageFields {
		v := walk(root, f.Path)
		dst := f.field(&m)
		switch f.As {
		case AsValue:
			*dst = field(v, 0)
		case AsNumberJSON, AsIDJSON:
			_, num := v.(float64)
			_, str := v.(string)
			if num || str && f.As == AsIDJSON {
				b, _ := json.Marshal(v)
				*dst = registry.Field{Kind: registry.KindString, Str: string(b)}
			}
		case AsResource, AsParams:
			uri, ok := v.(string)
			if !ok || resolve == nil {
				break
			}
			id, params := resolve(uri)
			if f.As == AsResource {
				*dst = registry.Field{Kind: registry.KindNumber, Num: float64(id)}
			} else if params != nil {
				*dst = registry.Field{Kind: registry.KindString, Str: ParamsJSON(params)}
			}
		case AsEntries:
			if o, ok := v.(map[string]any); ok {
				var items []any
				for _, k := range slices.Sorted(maps.Keys(o)) {
					items = append(items, k, o[k])
				}
				*dst = field(append([]any{}, items...), 0)
			}
		case AsUnreadable, AsOversized:
			*dst = registry.Field{Kind: registry.KindBoolean}
		default:
			t.Fatalf("unknown As %q", f.As)
		}
	}
	return m
}

// encodeFields writes fields in the loader's format.
func encodeFields(fs ...registry.Field) []byte {
	var b registrytest.Fields
	for _, f := range fs {
		b = b.Field(f)
	}
	return b
}

func encodeMessage(m *Message) []byte {
	var b registrytest.Fields
	for _, f := range messageFields {
		b = b.Field(*f.field(m))
	}
	return b
}

func TestDecodeMessageRoundTrip(t *testing.T) {
	m := message(t, `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"state://x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		func(string) (registry.ID, []registry.Param) { return 3, []registry.Param{{Name: "id", Value: "x"}} })
	var got Message
	if err := DecodeMessage(encodeMessage(&m), &got); err != nil {
		t.Fatal(err)
	}
	if got.Origin.Str != origin || got.IDJSON.Str != "7" || got.Method.Str != "resources/read" || got.URI.Str != "state://x" ||
		got.Resource.Num != 3 || got.ResourceParams.Str != `{"id":"x"}` || got.MetaVersion.Str != ProtocolVersion20260728 {
		t.Errorf("round trip: %+v", got)
	}
	if err := DecodeMessage(encodeMessage(&m)[:10], &got); err == nil {
		t.Error("a truncated message decoded")
	}
}

// TestMessageFieldsMatchMessage: every field of Message is extracted, once,
// in the order of the struct.
func TestMessageFieldsMatchMessage(t *testing.T) {
	var m Message
	seen := map[*registry.Field]bool{}
	for _, f := range messageFields {
		p := f.field(&m)
		if seen[p] {
			t.Errorf("field %v extracted twice", f.Path)
		}
		seen[p] = true
	}
	if n, want := len(seen), reflect.TypeOf(m).NumField(); n != want {
		t.Errorf("%d fields extracted; Message has %d", n, want)
	}
	for _, f := range MessageFields() {
		for _, k := range f.Path {
			if strings.TrimSpace(k) == "" {
				t.Errorf("empty path step in %v", f.Path)
			}
		}
	}
}

func TestParseOptions(t *testing.T) {
	enc := func(fs ...registry.Field) []byte { return encodeFields(fs...) }
	obj := registry.Field{Kind: registry.KindObject}
	undef := registry.Field{}
	str := func(s string) registry.Field { return registry.Field{Kind: registry.KindString, Str: s} }
	num := func(n float64) registry.Field { return registry.Field{Kind: registry.KindNumber, Num: n} }
	boolean := func(b bool) registry.Field { return registry.Field{Kind: registry.KindBoolean, True: b} }
	arr := func(items ...registry.Field) registry.Field {
		return registry.Field{Kind: registry.KindArray, Items: items}
	}
	page := str("http://127.0.0.1:1")
	for _, tc := range []struct {
		name string
		b    []byte
		want string // the error, or "" and then opt is checked
		opt  Options
	}{
		{"defaults", enc(undef, undef, undef, undef, undef, undef, undef, page, undef), "", Options{Channel: "mcp-default", AllowedOrigins: []string{"http://127.0.0.1:1"}}},
		{"all set", enc(obj, str("c"), arr(str("*")), num(3), num(9), boolean(true), num(4), page, undef), "", Options{Channel: "c", AllowedOrigins: []string{"*"}, PageSize: 3, MaxBytes: 9, Sessions: true, MaxSessions: 4}},
		{"not an object", enc(str("x"), undef, undef, undef, undef, undef, undef, page, undef), "serveMCP: the options must be an object, got string", Options{}},
		{"empty channel", enc(obj, str(""), undef, undef, undef, undef, undef, page, undef), `serveMCP: "channel" must be a non-empty string`, Options{}},
		{"origins not an array", enc(obj, undef, str("*"), undef, undef, undef, undef, page, undef), `serveMCP: "allowedOrigins" must be a non-empty array of origins like "https://example.com", or ["*"]`, Options{}},
		{"empty origins", enc(obj, undef, arr(), undef, undef, undef, undef, page, undef), `serveMCP: "allowedOrigins" must be a non-empty array of origins like "https://example.com", or ["*"]`, Options{}},
		{"fractional page size", enc(obj, undef, undef, num(1.5), undef, undef, undef, page, undef), `serveMCP: "pageSize" must be a whole number of at least 1`, Options{}},
		{"zero maxBytes", enc(obj, undef, undef, undef, num(0), undef, undef, page, undef), `serveMCP: "maxBytes" must be a whole number of at least 1`, Options{}},
		{"sessions not a boolean", enc(obj, undef, undef, undef, undef, str("yes"), undef, page, undef), `serveMCP: "sessions" must be true or false`, Options{}},
		{"zero maxSessions", enc(obj, undef, undef, undef, undef, boolean(true), num(0), page, undef), `serveMCP: "maxSessions" must be a whole number of at least 1`, Options{}},
		{"parent", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("https://shop.example"), str("http://127.0.0.1:8080"))), "", Options{Channel: "mcp-default", AllowedOrigins: []string{"http://127.0.0.1:1"}, Parent: []string{"https://shop.example", "http://127.0.0.1:8080"}}},
		{"parent any", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("*"))), "", Options{Channel: "mcp-default", AllowedOrigins: []string{"http://127.0.0.1:1"}, Parent: []string{"*"}}},
		{"parent str('https://shop.example')", enc(obj, undef, undef, undef, undef, undef, undef, page, str("https://shop.example")), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr()", enc(obj, undef, undef, undef, undef, undef, undef, page, arr()), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(str('https://shop.example/'))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("https://shop.example/"))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(str('https://shop.example/cart'))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("https://shop.example/cart"))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(str('shop.example'))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("shop.example"))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(str('https://Shop.example'))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("https://Shop.example"))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(str(''))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str(""))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(num(1))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(num(1))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
		{"parent arr(str('null'))", enc(obj, undef, undef, undef, undef, undef, undef, page, arr(str("null"))), `serveMCP: "parent" must be a non-empty array of exact origins like "https://example.com" (no path, no trailing slash), or ["*"]`, Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt, err := ParseOptions(tc.b)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if msg != tc.want {
				t.Fatalf("error %q, want %q", msg, tc.want)
			}
			if msg == "" && (opt.Channel != tc.opt.Channel || strings.Join(opt.AllowedOrigins, ",") != strings.Join(tc.opt.AllowedOrigins, ",") ||
				opt.PageSize != tc.opt.PageSize || opt.MaxBytes != tc.opt.MaxBytes || opt.Sessions != tc.opt.Sessions || opt.MaxSessions != tc.opt.MaxSessions ||
				strings.Join(opt.Parent, ",") != strings.Join(tc.opt.Parent, ",")) {
				t.Errorf("options %+v, want %+v", opt, tc.opt)
			}
		})
	}
}

// field returns f's field in m.
func (f *messageField) field(m *Message) *registry.Field {
	return (*registry.Field)(unsafe.Add(unsafe.Pointer(m), f.off))
}
