package mcp

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// fakeHost records posts; reads wait in reads until the test finishes them.
type fakeHost struct {
	posts []string
	reads []fakeRead
}

type fakeRead struct {
	req    int32
	id     registry.ID
	params string
	class  MIMEClass
}

// Post records msg; one posted on a sub-channel is prefixed with "<session>: ".
func (h *fakeHost) Post(server int32, session, msg string, attach Attachment, ids []registry.ID, v registry.Value) {
	if attach != AttachNone {
		msg += fmt.Sprintf(" +attach%d%v/v%d", attach, ids, v)
	}
	if session != "" {
		msg = session + ": " + msg
	}
	h.posts = append(h.posts, strings.Clone(msg)) // msg is valid only during the call
}

func (h *fakeHost) Read(server, req int32, id registry.ID, params string, class MIMEClass) {
	h.reads = append(h.reads, fakeRead{req, id, params, class})
}

func (h *fakeHost) Release(registry.Value) {}

// take returns the posts so far and forgets them.
func (h *fakeHost) take() string {
	s := strings.Join(h.posts, "\n")
	h.posts = nil
	return s
}

// regHost is a registry host whose values are all the same and always new.
type regHost struct{ n int32 }

func (h *regHost) Bind(registry.ID) {}
func (h *regHost) Subscribe(registry.ID) (registry.SubscribeStatus, registry.Kind, registry.Value) {
	return registry.SubscribeTeardown, 0, 0
}
func (h *regHost) Retire(registry.ID) registry.Value { return 0 }
func (h *regHost) Get(registry.ID, uint32) (registry.GetStatus, registry.Value) {
	h.n++
	return registry.GetValue, registry.Value(h.n)
}
func (h *regHost) Compare(registry.ID, registry.Value) registry.KeyResult {
	return registry.KeyDifferent
}
func (h *regHost) SetBaseline(registry.ID, bool)        {}
func (h *regHost) Dispatch(registry.ID, registry.Value) {}
func (h *regHost) Deliver(registry.SubID, registry.ID, registry.Value) registry.Value {
	return 0
}
func (h *regHost) EndSubscription(registry.SubID) {}
func (h *regHost) Release(registry.Value)         {}
func (h *regHost) ListChanged()                   {}
func (h *regHost) Warn(string)                    {}
func (h *regHost) Error(string, registry.Value)   {}
func (h *regHost) Debugging() bool                { return false }
func (h *regHost) Debug(string)                   {}

const origin = "http://127.0.0.1:8080"

func setup(t *testing.T, n int) (*Server, *fakeHost, *registry.Registry) {
	t.Helper()
	reg := registry.New(&regHost{})
	for i := 0; i < n; i++ {
		mustRegister(t, reg, fmt.Sprintf("state://r%03d", i), "application/json")
	}
	h := &fakeHost{}
	s := New(1, h, reg, Options{PageSize: 2, AllowedOrigins: []string{origin}})
	if got := h.take(); got != `"mcp-server-ready"` {
		t.Fatalf("start announced %q", got)
	}
	return s, h, reg
}

func mustRegister(t testing.TB, reg *registry.Registry, uri, mime string) registry.ID {
	t.Helper()
	d := registry.Descriptor{Kind: registry.KindObject,
		URI:      registry.Field{Kind: registry.KindString, Str: uri},
		Name:     registry.Field{Kind: registry.KindString, Str: "n"},
		MIMEType: registry.Field{Kind: registry.KindString, Str: mime},
		Get:      registry.Field{Kind: registry.KindFunction}}
	if strings.Contains(uri, "{") {
		d.URI, d.URITemplate = registry.Field{}, d.URI
	}
	if !strings.Contains(uri, "{") {
		d.Subscribe = registry.Field{Kind: registry.KindFunction}
	}
	id, err := reg.Register(&d)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestRequests(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tc := range []struct{ name, in, want string }{
		{"check ready", `"mcp-check-ready"`, `"mcp-server-ready"`},
		{"other strings are ignored", `"hello"`, ``},
		{"initialize echoes a known version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"resources":{"subscribe":true,"listChanged":true}},"serverInfo":{"name":"modelcontext","version":"` + Version + `"},"instructions":"Live resources of this page: list them, read them, and subscribe to follow their changes."}}`},
		{"ping", `{"jsonrpc":"2.0","id":"p","method":"ping"}`, `{"jsonrpc":"2.0","id":"p","result":{}}`},
		{"list first page", `{"jsonrpc":"2.0","id":2,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"nextCursor":"2"}} +attach1[1 2]/v0`},
		{"list last page", `{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"4"}}`, `{"jsonrpc":"2.0","id":3,"result":{}} +attach1[5]/v0`},
		{"unknown cursor", `{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{"cursor":"x"}}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: unknown cursor"}}`},
		{"cursor past the end", `{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{"cursor":"6"}}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: unknown cursor"}}`},
		{"templates", `{"jsonrpc":"2.0","id":5,"method":"resources/templates/list"}`, `{"jsonrpc":"2.0","id":5,"result":{}} +attach2[6]/v0`},
		{"read of an unknown uri", `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"state://nope"}}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Resource not found: state://nope","data":{"uri":"state://nope"}}}`},
		{"read without uri", `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{}}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: \"uri\" must be a string"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":8,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found: tools/call"}}`},
		{"an array", `[1]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a JSON-RPC message is an object"}}`},
		{"no jsonrpc", `{"id":9,"method":"ping"}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":9,"method":7}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"params not an object", `{"jsonrpc":"2.0","id":10,"method":"ping","params":[1]}`, `{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params: params must be an object"}}`},
		{"a broken notification gets nothing", `{"jsonrpc":"2.0","method":7}`, ``},
		{"a response is ignored", `{"jsonrpc":"2.0","id":1,"result":{}}`, ``},
		{"discover", `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + meta + `}}`,
			`{"jsonrpc":"2.0","id":"d","result":{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"resources":{"subscribe":true,"listChanged":true}},"serverInfo":{"name":"modelcontext","version":"` + Version + `"},"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modelcontext","version":"` + Version + `"}}}}`},
		{"modern list", `{"jsonrpc":"2.0","id":11,"method":"resources/list","params":{` + meta + `}}`, `{"jsonrpc":"2.0","id":11,"result":{"nextCursor":"2","resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modelcontext","version":"` + Version + `"}}}} +attach1[1 2]/v0`},
		{"discover without a version", `{"jsonrpc":"2.0","id":"d","method":"server/discover"}`, `{"jsonrpc":"2.0","id":"d","error":{"code":-32602,"message":"Invalid params: server/discover is a 2026-07-28 request; it needs _meta[\"io.modelcontextprotocol/protocolVersion\"]"}}`},
		{"modern ping is gone", `{"jsonrpc":"2.0","id":12,"method":"ping","params":{` + meta + `}}`, `{"jsonrpc":"2.0","id":12,"error":{"code":-32601,"message":"Method not found: ping"}}`},
		{"unsupported version", `{"jsonrpc":"2.0","id":13,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}}}`,
			`{"jsonrpc":"2.0","id":13,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25"],"requested":"1900-01-01"}}}`},
		{"modern without capabilities", `{"jsonrpc":"2.0","id":14,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			`{"jsonrpc":"2.0","id":14,"error":{"code":-32602,"message":"Invalid params: _meta[\"io.modelcontextprotocol/clientCapabilities\"] is required"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, h, reg := setup(t, 5)
			mustRegister(t, reg, "app://orders/{id}", "text/plain")
			h.take()
			s.Handle(origin, true, msgp(t, tc.in))
			if got := h.take(); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestOnlyTheSameWindowAndAllowedOriginsAreAnswered(t *testing.T) {
	s, h, _ := setup(t, 1)
	s.Handle(origin, false, msgp(t, `"mcp-check-ready"`))
	s.Handle("http://evil.example", true, msgp(t, `"mcp-check-ready"`))
	s.Handle("http://evil.example", true, msgp(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if got := h.take(); got != "" {
		t.Errorf("answered a foreign sender: %s", got)
	}
	s.opt.AllowedOrigins = []string{"*"}
	s.Handle("http://evil.example", true, msgp(t, `"mcp-check-ready"`))
	if got := h.take(); got != `"mcp-server-ready"` {
		t.Errorf("allowedOrigins [*]: %q", got)
	}
}

func TestReadEncodings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mime  string
		kind  ValueKind
		size  int
		utf8  bool
		class MIMEClass
		tail  string
	}{
		{"json text", "application/json", ValueText, 10, false, MIMEJSON, "+attach3[]/v7"},
		{"utf-8 bytes under text", "text/plain; charset=utf-8", ValueBytes, 3, true, MIMEText, "+attach3[]/v7"},
		{"invalid utf-8 under text", "text/plain", ValueBytes, 3, false, MIMEText, "+attach4[]/v7"},
		{"bytes under octet-stream", "application/octet-stream", ValueBytes, 3, true, MIMEOther, "+attach4[]/v7"},
		{"bytes under +json", "application/ld+json", ValueBytes, 3, true, MIMEJSON, "+attach3[]/v7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, h, reg := setup(t, 0)
			mustRegister(t, reg, "state://x", tc.mime)
			h.take()
			s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"state://x"}}`))
			if len(h.reads) != 1 || h.reads[0].class != tc.class {
				t.Fatalf("reads = %+v", h.reads)
			}
			s.ReadDone(h.reads[0].req, tc.kind, 7, tc.size, tc.utf8, "")
			want := `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"state://x","mimeType":` + fmt.Sprintf("%q", tc.mime) + `}]}} ` + tc.tail
			if got := h.take(); got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestReadFailuresAndTemplates(t *testing.T) {
	s, h, reg := setup(t, 0)
	mustRegister(t, reg, "app://orders/{id}", "application/json")
	h.take()
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"app://orders/a%20b"}}`))
	if len(h.reads) != 1 || h.reads[0].params != `{"id":"a b"}` {
		t.Fatalf("reads = %+v", h.reads)
	}
	s.ReadDone(h.reads[0].req, ValueFailed, 3, 0, false, "boom")
	if got, want := h.take(), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"reading app://orders/a%20b failed: boom"}}`; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	s.opt.MaxBytes = 10
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"app://orders/1"}}`))
	s.ReadDone(h.reads[1].req, ValueBytes, 4, 11, false, "")
	if got, want := h.take(), `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"reading app://orders/1 failed: the value is 11 bytes, more than the limit of 10 (serveMCP's maxBytes)"}}`; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	s.ReadDone(h.reads[1].req, ValueBytes, 4, 1, false, "") // twice: nothing
	if got := h.take(); got != "" {
		t.Errorf("a second ReadDone posted %s", got)
	}
}

func TestSubscriptionsBothRevisions(t *testing.T) {
	s, h, reg := setup(t, 0)
	id := mustRegister(t, reg, "state://x", "application/json")
	h.take()
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"state://x"}}`))
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true,"toolsListChanged":true,"resourceSubscriptions":["state://x","state://x","state://later"]}}}`))
	want := `{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["state://x","state://later"]}}}`
	if got := h.take(); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	reg.Push(id)
	want = `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x"}}
{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"uri":"state://x"}}`
	if got := h.take(); got != want {
		t.Errorf("push:\n got %s\nwant %s", got, want)
	}
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	mustRegister(t, reg, "state://y", "application/json")
	want = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}`
	if got := h.take(); got != want {
		t.Errorf("list change:\n got %s\nwant %s", got, want)
	}
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"state://x"}}`))
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`))
	h.take()
	reg.Push(id)
	if got := h.take(); got != "" {
		t.Errorf("after unsubscribe and cancel: %s", got)
	}
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"state://nope"}}`))
	if got := h.take(); !strings.Contains(got, `"code":-32602`) || !strings.Contains(got, `"data":{"uri":"state://nope"}`) {
		t.Errorf("subscribe to an unknown uri: %s", got)
	}
	s.Handle(origin, true, msgp(t, `{"jsonrpc":"2.0","id":"L2","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{}}}`))
	h.take()
	s.Stop()
	want = `{"jsonrpc":"2.0","id":"L2","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L2"}}}
"mcp-server-stopped"`
	if got := h.take(); got != want {
		t.Errorf("stop:\n got %s\nwant %s", got, want)
	}
	reg.Push(id)
	if got := h.take(); got != "" {
		t.Errorf("a stopped server posted %s", got)
	}
}

func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`"mcp-check-ready"`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{"cursor":"1"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"app://orders/%41"}}`,
		`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourceSubscriptions":["state://r000"]}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`,
	} {
		f.Add(encodeMessage(message(f, s)))
		f.Add(encodeMessage(*msgOn(f, "a", s)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Message
		if err := DecodeMessage(b, &m); err != nil {
			return
		}
		reg := registry.New(&regHost{})
		mustRegister(t, reg, "state://r000", "application/json")
		mustRegister(t, reg, "app://orders/{id}", "text/plain")
		h := &fakeHost{}
		s := New(1, h, reg, Options{AllowedOrigins: []string{origin}, Sessions: true, MaxSessions: 1})
		s.Handle(origin, true, &m)
		for _, r := range h.reads {
			s.ReadDone(r.req, ValueText, 1, 1, true, "")
		}
		for _, p := range h.posts {
			msg := p
			if i := strings.Index(p, " +attach"); i >= 0 {
				msg = p[:i]
			}
			if i := strings.Index(msg, ": "); i >= 0 && validSessionName(msg[:i]) {
				msg = msg[i+len(": "):] // posted on a sub-channel
			}
			if !json.Valid([]byte(msg)) {
				t.Fatalf("posted invalid JSON %q", msg)
			}
		}
	})
}

func msgp(t testing.TB, payload string) *Message {
	m := message(t, payload)
	return &m
}

// msgOn is msgp for a message that came on the sub-channel "<channel>/<name>".
func msgOn(t testing.TB, name, payload string) *Message {
	m := msgp(t, payload)
	m.Session = registry.Field{Kind: registry.KindString, Str: name}
	return m
}

func setupSessions(t *testing.T, max int) (*Server, *fakeHost, *registry.Registry, registry.ID) {
	t.Helper()
	reg := registry.New(&regHost{})
	id := mustRegister(t, reg, "state://x", "application/json")
	h := &fakeHost{}
	s := New(1, h, reg, Options{Channel: "c", AllowedOrigins: []string{origin}, Sessions: true, MaxSessions: max})
	h.take()
	return s, h, reg, id
}

const (
	listenOnX   = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["state://x"]}}}`
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	subscribeX  = `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"state://x"}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func TestSubChannelsAreIgnoredWithoutSessions(t *testing.T) {
	s, h, _ := setup(t, 1)
	s.Handle(origin, true, msgOn(t, "a", `"mcp-check-ready"`))
	s.Handle(origin, true, msgOn(t, "a", `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if got := h.take(); got != "" || s.Sessions() != 0 {
		t.Errorf("a server without sessions answered a sub-channel: %q (%d sessions)", got, s.Sessions())
	}
}

func TestSessionsAreIsolated(t *testing.T) {
	s, h, reg, x := setupSessions(t, 0)
	s.Handle(origin, true, msgOn(t, "a", `"mcp-check-ready"`))
	if got := h.take(); got != `a: "mcp-server-ready"` {
		t.Fatalf("check-ready on a: %q", got)
	}
	for _, ch := range []string{"", "a", "b"} {
		send := func(p string) {
			if ch == "" {
				s.Handle(origin, true, msgp(t, p))
			} else {
				s.Handle(origin, true, msgOn(t, ch, p))
			}
		}
		send(initialize)
		send(initialized)
		if ch != "b" {
			send(subscribeX)
		}
	}
	h.take()
	if s.Sessions() != 2 {
		t.Fatalf("%d sessions, want 2", s.Sessions())
	}
	// A new handshake on the main channel starts its session over, and no other.
	s.Handle(origin, true, msgp(t, initialize))
	h.take()
	reg.Push(x)
	if got, want := h.take(), `a: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x"}}`; got != want {
		t.Errorf("push after the main channel's new handshake:\n got %s\nwant %s", got, want)
	}
	// The same listen id in two sessions: two streams; cancelling one ends only it.
	s.Handle(origin, true, msgOn(t, "a", listenOnX))
	s.Handle(origin, true, msgOn(t, "b", listenOnX))
	h.take()
	s.Handle(origin, true, msgOn(t, "b", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`))
	reg.Push(x)
	want := `a: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x"}}
a: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"uri":"state://x"}}`
	if got := h.take(); got != want {
		t.Errorf("push with listens:\n got %s\nwant %s", got, want)
	}
	mustRegister(t, reg, "state://y", "application/json")
	want = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
a: {"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
a: {"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}
b: {"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`
	if got := h.take(); got != want {
		t.Errorf("list change:\n got %s\nwant %s", got, want)
	}
	// Requests are answered on the channel they came on.
	s.Handle(origin, true, msgOn(t, "b", `{"jsonrpc":"2.0","id":"p","method":"ping"}`))
	if got := h.take(); got != `b: {"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Errorf("ping on b: %s", got)
	}
}

func TestSessionClose(t *testing.T) {
	s, h, reg, x := setupSessions(t, 0)
	s.Handle(origin, true, msgOn(t, "a", subscribeX))
	s.Handle(origin, true, msgOn(t, "a", listenOnX))
	s.Handle(origin, true, msgOn(t, "a", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"state://x"}}`))
	h.take()
	s.Handle(origin, true, msgOn(t, "a", `"mcp-session-close"`))
	if got := h.take(); got != `a: "mcp-server-stopped"` || s.Sessions() != 0 {
		t.Fatalf("close: %q, %d sessions", got, s.Sessions())
	}
	reg.Push(x)
	s.ReadDone(h.reads[0].req, ValueText, 7, 1, false, "")
	if got := h.take(); got != "" {
		t.Errorf("a closed session was posted to: %s", got)
	}
	// Closing again, or a session that never existed, is acknowledged and
	// creates nothing; the main channel cannot be closed.
	s.Handle(origin, true, msgOn(t, "a", `"mcp-session-close"`))
	s.Handle(origin, true, msgOn(t, "zz", `"mcp-session-close"`))
	s.Handle(origin, true, msgp(t, `"mcp-session-close"`))
	if got, want := h.take(), "a: \"mcp-server-stopped\"\nzz: \"mcp-server-stopped\""; got != want || s.Sessions() != 0 {
		t.Errorf("closing again: %q, %d sessions", got, s.Sessions())
	}
	// The name is free again: a new session, with nothing of the old one.
	s.Handle(origin, true, msgOn(t, "a", `"mcp-check-ready"`))
	h.take()
	reg.Push(x)
	if got := h.take(); got != "" {
		t.Errorf("a reopened session inherited subscriptions: %s", got)
	}
}

func TestSessionLimit(t *testing.T) {
	s, h, _, _ := setupSessions(t, 2)
	s.Handle(origin, true, msgOn(t, "a", `"mcp-check-ready"`))
	s.Handle(origin, true, msgOn(t, "b", `"mcp-check-ready"`))
	h.take()
	const full = `"error":{"code":-32000,"message":"modelcontext: too many MCP sessions on the channel \"c\" (at most 2, serveMCP's maxSessions); close one with \"mcp-session-close\" first"}}`
	s.Handle(origin, true, msgOn(t, "c", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`))
	s.Handle(origin, true, msgOn(t, "c", `"mcp-check-ready"`))
	s.Handle(origin, true, msgOn(t, "c", initialized))
	s.Handle(origin, true, msgOn(t, "c", `{"jsonrpc":"2.0","id":7,"result":{}}`))
	want := `c: {"jsonrpc":"2.0","id":7,` + full + "\n" + `c: {"jsonrpc":"2.0","id":null,` + full
	if got := h.take(); got != want || s.Sessions() != 2 {
		t.Errorf("over the limit (%d sessions):\n got %s\nwant %s", s.Sessions(), got, want)
	}
	s.Handle(origin, true, msgOn(t, "a", `"mcp-session-close"`))
	s.Handle(origin, true, msgOn(t, "c", `"mcp-check-ready"`))
	if got := h.take(); got != "a: \"mcp-server-stopped\"\nc: \"mcp-server-ready\"" {
		t.Errorf("after a close: %q", got)
	}
}

func TestSessionNames(t *testing.T) {
	s, h, _, _ := setupSessions(t, 100)
	for _, name := range []string{"", "a/b", "é", "a b", strings.Repeat("x", 65)} {
		s.Handle(origin, true, msgOn(t, name, `"mcp-check-ready"`))
	}
	if got := h.take(); got != "" || s.Sessions() != 0 {
		t.Errorf("invalid names were answered: %q", got)
	}
	for _, name := range []string{"A-z_0.9~", strings.Repeat("x", 64)} {
		s.Handle(origin, true, msgOn(t, name, `"mcp-check-ready"`))
	}
	if s.Sessions() != 2 {
		t.Errorf("valid names: %d sessions, want 2", s.Sessions())
	}
	// A foreign sender creates no session.
	s.Handle("http://evil.example", true, msgOn(t, "evil", `"mcp-check-ready"`))
	if got := h.take(); strings.Contains(got, "evil") || s.Sessions() != 2 {
		t.Errorf("a foreign origin created a session: %q", got)
	}
}

func TestStopEndsEverySession(t *testing.T) {
	s, h, reg, x := setupSessions(t, 0)
	s.Handle(origin, true, msgOn(t, "a", listenOnX))
	s.Handle(origin, true, msgOn(t, "b", subscribeX))
	h.take()
	s.Stop()
	want := `a: {"jsonrpc":"2.0","id":"L","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}
a: "mcp-server-stopped"
b: "mcp-server-stopped"
"mcp-server-stopped"`
	if got := h.take(); got != want || s.Sessions() != 0 {
		t.Errorf("stop (%d sessions left):\n got %s\nwant %s", s.Sessions(), got, want)
	}
	reg.Push(x)
	if got := h.take(); got != "" {
		t.Errorf("a stopped server posted %s", got)
	}
}

func TestConflict(t *testing.T) {
	on := func(channel string, sessions bool) Options { return Options{Channel: channel, Sessions: sessions} }
	for _, tc := range []struct {
		running, starting Options
		want              string
	}{
		{on("c", false), on("d", true), ""},
		{on("c", false), on("c/a", false), ""},
		{on("c", false), on("c", true), `serveMCP: an MCP server already serves the channel "c"; stop it first or choose another channel`},
		{on("c", true), on("c/a", false), `serveMCP: the channel "c/a" is a session sub-channel of the server on "c" (sessions: true); choose another channel`},
		{on("c/a", false), on("c", true), `serveMCP: an MCP server serves "c/a", a sub-channel of "c"; with sessions: true choose another channel`},
		{on("cc", true), on("c", true), ""},
	} {
		s := New(1, &fakeHost{}, registry.New(&regHost{}), tc.running)
		if got := s.Conflict(tc.starting); got != tc.want {
			t.Errorf("%+v beside %+v: %q, want %q", tc.starting, tc.running, got, tc.want)
		}
	}
}

// BenchmarkSessionState measures what one sub-channel session holds in the
// page: a handshake, one subscription and one listen stream.
func BenchmarkSessionState(b *testing.B) {
	const n = 1000
	var total uint64
	for range b.N {
		reg := registry.New(&regHost{})
		mustRegister(b, reg, "state://x", "application/json")
		s := New(1, discardHost{}, reg, Options{Channel: "c", AllowedOrigins: []string{origin}, Sessions: true, MaxSessions: n})
		msgs := make([][3]*Message, n)
		for i := range msgs {
			name := fmt.Sprintf("relay-0123456789ab-%d", i)
			msgs[i] = [3]*Message{msgOn(b, name, initialize), msgOn(b, name, subscribeX), msgOn(b, name, listenOnX)}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, m := range msgs {
			for _, x := range m {
				s.Handle(origin, true, x)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if s.Sessions() != n {
			b.Fatalf("%d sessions", s.Sessions())
		}
		total += after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(s)
		runtime.KeepAlive(msgs)
	}
	b.ReportMetric(float64(total)/float64(b.N)/n, "bytes/session")
}

type discardHost struct{}

func (discardHost) Post(int32, string, string, Attachment, []registry.ID, registry.Value) {}
func (discardHost) Read(int32, int32, registry.ID, string, MIMEClass)                     {}
func (discardHost) Release(registry.Value)                                                {}
