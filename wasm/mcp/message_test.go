package mcp

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
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

func get(v any, keys ...string) any {
	for _, k := range keys {
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

func idJSON(v any) registry.Field {
	switch v.(type) {
	case string, float64:
		b, _ := json.Marshal(v)
		return registry.Field{Kind: registry.KindString, Str: string(b)}
	}
	return registry.Field{}
}

// message builds the Message the loader would extract from a payload
// written as JSON (js/loader.js, mcpFields).
func message(t testing.TB, payload string) Message {
	var p any
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		t.Fatalf("bad test payload %s: %v", payload, err)
	}
	const v, c = "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"
	return Message{
		Payload: field(p, 1), JSONRPC: field(get(p, "jsonrpc"), 0), ID: field(get(p, "id"), 1),
		IDJSON: idJSON(get(p, "id")), Method: field(get(p, "method"), 0), Params: field(get(p, "params"), 1),
		URI: field(get(p, "params", "uri"), 0), Cursor: field(get(p, "params", "cursor"), 0),
		ProtocolVersion: field(get(p, "params", "protocolVersion"), 0),
		MetaVersion:     field(get(p, "params", "_meta", v), 0), MetaCapabilities: field(get(p, "params", "_meta", c), 1),
		Notifications: field(get(p, "params", "notifications"), 1),
		ListChanged:   field(get(p, "params", "notifications", "resourcesListChanged"), 0),
		Subscriptions: field(get(p, "params", "notifications", "resourceSubscriptions"), 0),
		RequestID:     idJSON(get(p, "params", "requestId")),
		Result:        field(get(p, "result"), 1), Error: field(get(p, "error"), 1),
	}
}

// encodeFields writes fields in the loader's format.
func encodeFields(fs ...registry.Field) []byte {
	var b []byte
	for _, f := range fs {
		b = appendField(b, f)
	}
	return b
}

func appendField(b []byte, f registry.Field) []byte {
	b = append(b, byte(f.Kind))
	u32 := func(u uint32) { b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24)) }
	switch f.Kind {
	case registry.KindString:
		u32(uint32(len(f.Str)))
		b = append(b, f.Str...)
	case registry.KindNumber:
		u := math.Float64bits(f.Num)
		u32(uint32(u))
		u32(uint32(u >> 32))
	case registry.KindBoolean:
		if f.True {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case registry.KindArray:
		u32(uint32(len(f.Items)))
		for _, it := range f.Items {
			b = appendField(b, it)
		}
	}
	return b
}

func encodeMessage(m Message) []byte {
	return encodeFields(m.Payload, m.JSONRPC, m.ID, m.IDJSON, m.Method, m.Params, m.URI, m.Cursor,
		m.ProtocolVersion, m.MetaVersion, m.MetaCapabilities, m.Notifications, m.ListChanged,
		m.Subscriptions, m.RequestID, m.Result, m.Error, m.Session)
}

func TestDecodeMessageRoundTrip(t *testing.T) {
	in := message(t, `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["a","b"]}}}`)
	var got Message
	if err := DecodeMessage(encodeMessage(in), &got); err != nil {
		t.Fatal(err)
	}
	if got.IDJSON.Str != `"L"` || !got.ListChanged.True || len(got.Subscriptions.Items) != 2 || got.MetaVersion.Str != Modern {
		t.Errorf("decoded %+v", got)
	}
	if err := DecodeMessage(encodeMessage(in)[:10], &got); err == nil {
		t.Error("a truncated message decoded")
	}
}

func TestParseOptions(t *testing.T) {
	s := func(v string) registry.Field { return registry.Field{Kind: registry.KindString, Str: v} }
	n := func(v float64) registry.Field { return registry.Field{Kind: registry.KindNumber, Num: v} }
	obj := registry.Field{Kind: registry.KindObject}
	none := registry.Field{}
	arr := func(it ...registry.Field) registry.Field { return registry.Field{Kind: registry.KindArray, Items: it} }
	for _, tc := range []struct {
		fields []registry.Field
		want   string
	}{
		{[]registry.Field{none, none, none, none, none, s(origin), none, none}, ""},
		{[]registry.Field{obj, s("c"), arr(s("*")), n(10), n(1000), s(origin), none, none}, ""},
		{[]registry.Field{{Kind: registry.KindArray}, none, none, none, none, s(origin), none, none}, "serveMCP: the options must be an object, got array"},
		{[]registry.Field{obj, s(""), none, none, none, s(origin), none, none}, `serveMCP: "channel" must be a non-empty string`},
		{[]registry.Field{obj, none, s("*"), none, none, s(origin), none, none}, `serveMCP: "allowedOrigins" must be a non-empty array of origins like "https://example.com", or ["*"]`},
		{[]registry.Field{obj, none, arr(), none, none, s(origin), none, none}, `serveMCP: "allowedOrigins" must be a non-empty array of origins like "https://example.com", or ["*"]`},
		{[]registry.Field{obj, none, none, n(0), none, s(origin), none, none}, `serveMCP: "pageSize" must be a whole number of at least 1`},
		{[]registry.Field{obj, none, none, none, n(1.5), s(origin), none, none}, `serveMCP: "maxBytes" must be a whole number of at least 1`},
		{[]registry.Field{obj, s("c"), none, none, none, s(origin), {Kind: registry.KindBoolean, True: true}, n(4)}, ""},
		{[]registry.Field{obj, none, none, none, none, s(origin), s("yes"), none}, `serveMCP: "sessions" must be true or false`},
		{[]registry.Field{obj, none, none, none, none, s(origin), none, n(0)}, `serveMCP: "maxSessions" must be a whole number of at least 1`},
	} {
		opt, got := ParseOptions(encodeFields(tc.fields...))
		if got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.fields, got, tc.want)
		}
		if got == "" && (opt.Channel == "" || len(opt.AllowedOrigins) == 0) {
			t.Errorf("defaults missing: %+v", opt)
		}
	}
}
