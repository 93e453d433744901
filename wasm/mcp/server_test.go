package mcp

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// fakeHost records posts; reads wait in reads until the test finishes them.
type fakeHost struct {
	posts     []string
	reads     []fakeRead
	textBytes int // what TextBytes answers
	released  []registry.Value
	completes []fakeComplete
	revision  float64 // what Revision answers
}

// fakeComplete is a Complete call, waiting for the test to finish it.
type fakeComplete struct {
	req               int32
	id                registry.ID
	name, value, args string
}

func (h *fakeHost) Complete(server, req int32, id registry.ID, name, value, args string) {
	h.completes = append(h.completes, fakeComplete{req, id, name, value, args})
}

type fakeRead struct {
	req    int32
	id     registry.ID
	params string
}

// Post records msg; one posted on a sub-channel is prefixed with "<session>: ".
func (h *fakeHost) Post(server int32, session, msg string, attach Attachment, first, count int, v registry.Value) {
	switch attach {
	case AttachResources, AttachTemplates:
		msg += fmt.Sprintf(" +attach%d[%d+%d]", attach, first, count)
	case AttachText, AttachBlob, AttachTextKept, AttachChanges:
		msg += fmt.Sprintf(" +attach%d/v%d", attach, v)
	}
	if session != "" {
		msg = session + ": " + msg
	}
	h.posts = append(h.posts, strings.Clone(msg)) // msg is valid only during the call
}

func (h *fakeHost) Read(server, req int32, id registry.ID, params string) {
	h.reads = append(h.reads, fakeRead{req, id, params})
}

func (h *fakeHost) TextBytes(registry.Value) int { return h.textBytes }
func (h *fakeHost) Revision() float64            { return h.revision }
func (h *fakeHost) Forget(server int32, session string) {
	h.posts = append(h.posts, "forget "+session)
}
func (h *fakeHost) Release(v registry.Value) { h.released = append(h.released, v) }

// take returns the posts so far and forgets them.
func (h *fakeHost) take() string {
	s := strings.Join(h.posts, "\n")
	h.posts = nil
	return s
}

const origin = "http://127.0.0.1:8080"

// env is a server over a registry of the shared fake host.
type env struct {
	s   *Server
	h   *fakeHost
	reg *registrytest.Host
}

func setup(t testing.TB, n int) *env {
	t.Helper()
	reg := registrytest.New()
	for i := 0; i < n; i++ {
		reg.Register(fmt.Sprintf("state://r%03d", i), func() (any, error) { return i, nil }, func(func()) any { return registrytest.Teardown(func() {}) })
	}
	h := &fakeHost{}
	s := New(1, h, reg.R, Options{PageSize: 2, AllowedOrigins: []string{origin}})
	if got := h.take(); got != `"mcp-server-ready"` {
		t.Fatalf("start announced %q", got)
	}
	return &env{s, h, reg}
}

// handle hands the server a message event from the page's own window, with
// the payload written as JSON.
func (e *env) handle(t testing.TB, payload string) {
	t.Helper()
	m := message(t, payload, e.reg.Resolve)
	e.s.Handle(&m, true)
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func TestRequests(t *testing.T) {
	serverInfo := `{"name":"modelcontext","version":"` + Version + `"}`
	modernTail := `"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":` + serverInfo + `}`
	for _, tc := range []struct{ name, in, want string }{
		{"check ready", `"mcp-check-ready"`, `"mcp-server-ready"`},
		{"other strings are ignored", `"hello"`, ``},
		{"initialize echoes a known version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"resources":{"subscribe":true,"listChanged":true},"completions":{},"experimental":{"modelcontext/changes":{}}},"serverInfo":` + serverInfo + `,"instructions":"Live resources of this page: list them, read them, and subscribe to follow their changes."}}`},
		{"ping", `{"jsonrpc":"2.0","id":"p","method":"ping"}`, `{"jsonrpc":"2.0","id":"p","result":{}}`},
		{"list first page", `{"jsonrpc":"2.0","id":2,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"nextCursor":"2"}} +attach1[0+2]`},
		{"list last page", `{"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"4"}}`, `{"jsonrpc":"2.0","id":3,"result":{}} +attach1[4+1]`},
		{"unknown cursor", `{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{"cursor":"x"}}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: unknown cursor"}}`},
		{"cursor past the end", `{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{"cursor":"6"}}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: unknown cursor"}}`},
		{"templates", `{"jsonrpc":"2.0","id":5,"method":"resources/templates/list"}`, `{"jsonrpc":"2.0","id":5,"result":{}} +attach2[0+1]`},
		{"read of an unknown uri, 2025-11-25", `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"state://nope"}}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32002,"message":"Resource not found: state://nope","data":{"uri":"state://nope"}}}`},
		{"read of an unknown uri, 2026-07-28", `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"state://nope",` + meta + `}}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Resource not found: state://nope","data":{"uri":"state://nope"}}}`},
		{"read without uri", `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{}}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: \"uri\" must be a string"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":8,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found: tools/call"}}`},
		{"an array", `[1]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a JSON-RPC message is an object"}}`},
		{"no jsonrpc", `{"id":9,"method":"ping"}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":9,"method":7}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"params not an object", `{"jsonrpc":"2.0","id":10,"method":"ping","params":[1]}`, `{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params: params must be an object"}}`},
		{"a notification with broken params gets nothing", `{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}`, ``},
		{"an object without id or method", `{}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"a method that is not a string, without id", `{"jsonrpc":"2.0","method":7}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: expected {\"jsonrpc\": \"2.0\", \"method\": string, \"id\"?: string or number}"}}`},
		{"a response is ignored", `{"jsonrpc":"2.0","id":1,"result":{}}`, ``},
		{"discover", `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{` + meta + `}}`,
			`{"jsonrpc":"2.0","id":"d","result":{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"resources":{"subscribe":true,"listChanged":true},"completions":{},"experimental":{"modelcontext/changes":{}}},"serverInfo":` + serverInfo + `,` + modernTail + `}}`},
		{"modern list", `{"jsonrpc":"2.0","id":11,"method":"resources/list","params":{` + meta + `}}`, `{"jsonrpc":"2.0","id":11,"result":{"nextCursor":"2",` + modernTail + `}} +attach1[0+2]`},
		{"discover without a version", `{"jsonrpc":"2.0","id":"d","method":"server/discover"}`, `{"jsonrpc":"2.0","id":"d","error":{"code":-32602,"message":"Invalid params: server/discover is a 2026-07-28 request; it needs _meta[\"io.modelcontextprotocol/protocolVersion\"]"}}`},
		{"modern ping is gone", `{"jsonrpc":"2.0","id":12,"method":"ping","params":{` + meta + `}}`, `{"jsonrpc":"2.0","id":12,"error":{"code":-32601,"message":"Method not found: ping"}}`},
		{"unsupported version", `{"jsonrpc":"2.0","id":13,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01"}}}`,
			`{"jsonrpc":"2.0","id":13,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28","2025-11-25"],"requested":"1900-01-01"}}}`},
		{"modern without capabilities", `{"jsonrpc":"2.0","id":14,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			`{"jsonrpc":"2.0","id":14,"error":{"code":-32602,"message":"Invalid params: _meta[\"io.modelcontextprotocol/clientCapabilities\"] is required"}}`},
		{"listen with subscriptions that are not an array", `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{` + meta + `,"notifications":{"resourceSubscriptions":"state://r000"}}}`,
			`{"jsonrpc":"2.0","id":"L","error":{"code":-32602,"message":"Invalid params: \"notifications.resourceSubscriptions\" must be an array of uris"}}`},
		{"listen with a subscription that is not a string", `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{` + meta + `,"notifications":{"resourceSubscriptions":["state://r000",7]}}}`,
			`{"jsonrpc":"2.0","id":"L","error":{"code":-32602,"message":"Invalid params: \"notifications.resourceSubscriptions\" must be an array of uris"}}`},
		{"listen without notifications", `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{` + meta + `}}`,
			`{"jsonrpc":"2.0","id":"L","error":{"code":-32602,"message":"Invalid params: \"notifications\" must be an object"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := setup(t, 5)
			e.reg.RegisterTemplate("app://orders/{id}", "text/plain", func([]registry.Param) (any, error) { return nil, nil })
			e.h.take()
			e.handle(t, tc.in)
			if got := e.h.take(); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestUnreadableMessages: a message a getter of which threw while the loader
// read it gets an error when its id could be read, and nothing otherwise.
func TestUnreadableMessages(t *testing.T) {
	e := setup(t, 1)
	m := message(t, `{"jsonrpc":"2.0","id":3,"method":"resources/read"}`, e.reg.Resolve)
	m.Unreadable = registry.Field{Kind: registry.KindBoolean, True: true}
	e.s.Handle(&m, true)
	if got, want := e.h.take(), `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: a member of the message could not be read"}}`; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	m.ID, m.IDJSON = registry.Field{}, registry.Field{}
	e.s.Handle(&m, true)
	if got := e.h.take(); got != "" {
		t.Errorf("an unreadable message without an id was answered: %s", got)
	}
}

// TestOversizedMessages: a message the loader marked as over MaxMessageText
// (it copied only its short strings) is answered with -32600, with its id
// when the id was kept, else null, and nothing of it is acted on.
func TestOversizedMessages(t *testing.T) {
	e := setup(t, 1)
	for _, c := range []struct{ payload, want string }{
		{`{"jsonrpc":"2.0","id":"r1","method":"resources/read"}`, `{"jsonrpc":"2.0","id":"r1","error":{"code":-32600,"message":"modelcontext: the message is over 1 MiB of text; it was not read (send large data in several requests)"}}`},
		{`{"jsonrpc":"2.0","method":"resources/read"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"modelcontext: the message is over 1 MiB of text; it was not read (send large data in several requests)"}}`},
		{`"mcp-check-ready"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"modelcontext: the message is over 1 MiB of text; it was not read (send large data in several requests)"}}`},
	} {
		m := message(t, c.payload, e.reg.Resolve)
		m.Oversized = registry.Field{Kind: registry.KindBoolean, True: true}
		e.s.Handle(&m, true)
		if got := e.h.take(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.payload, got, c.want)
		}
	}
}

func TestOnlyTheSameWindowAndAllowedOriginsAreAnswered(t *testing.T) {
	e := setup(t, 1)
	m := message(t, `"mcp-check-ready"`, nil)
	e.s.Handle(&m, false)
	for _, o := range []registry.Field{{Kind: registry.KindString, Str: "http://evil.example"}, {Kind: registry.KindNull}} {
		m.Origin = o
		e.s.Handle(&m, true)
		ping := message(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil)
		ping.Origin = o
		e.s.Handle(&ping, true)
	}
	if got := e.h.take(); got != "" {
		t.Errorf("answered a foreign sender: %s", got)
	}
	e.s.opt.AllowedOrigins = []string{"*"}
	m.Origin = registry.Field{Kind: registry.KindString, Str: "http://evil.example"}
	e.s.Handle(&m, true)
	if got := e.h.take(); got != `"mcp-server-ready"` {
		t.Errorf("allowedOrigins [*]: %q", got)
	}
}

func TestReadContent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kind   Content
		length int
		tail   string
	}{
		{"text", ContentText, 10, "+attach3/v7"},
		{"blob", ContentBlob, 3, "+attach4/v7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := setup(t, 0)
			e.reg.Register("state://x", func() (any, error) { return 1, nil }, nil)
			e.h.take()
			e.handle(t, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`)
			if len(e.h.reads) != 1 || e.h.reads[0].id != 1 {
				t.Fatalf("reads = %+v", e.h.reads)
			}
			e.s.ReadDone(e.h.reads[0].req, tc.kind, 7, tc.length, "")
			want := `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"state://x","mimeType":"application/json"}],"_meta":{"modelcontext/revision":0}}} ` + tc.tail
			if got := e.h.take(); got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestMaxBytesCountsUTF8: a text's size is its UTF-8 length, asked of the
// host only when its UTF-16 length cannot settle the question.
func TestMaxBytesCountsUTF8(t *testing.T) {
	for _, tc := range []struct {
		name      string
		kind      Content
		length    int // UTF-16 units (text) or bytes (blob)
		textBytes int
		over      string // "" when it is sent
	}{
		{"short text is never measured", ContentText, 6, -1, ""},
		{"text of 12 euro signs: 12 units, 36 bytes", ContentText, 12, 36, "36"},
		{"text that fits once measured", ContentText, 12, 20, ""},
		{"blob over", ContentBlob, 21, 0, "21"},
		{"blob at the limit", ContentBlob, 20, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := setup(t, 0)
			e.s.opt.MaxBytes = 20
			e.h.textBytes = tc.textBytes
			e.reg.Register("state://x", func() (any, error) { return 1, nil }, nil)
			e.h.take()
			e.handle(t, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`)
			e.s.ReadDone(e.h.reads[0].req, tc.kind, 7, tc.length, "")
			got := e.h.take()
			if tc.over == "" && strings.Contains(got, "error") {
				t.Errorf("refused: %s", got)
			}
			if tc.over != "" && got != `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"reading state://x failed: the value is `+tc.over+` bytes, more than the limit of 20 (serveMCP's maxBytes)"}}` {
				t.Errorf("not refused as %s bytes: %s", tc.over, got)
			}
		})
	}
}

func TestReadFailuresAndTemplates(t *testing.T) {
	e := setup(t, 0)
	e.reg.RegisterTemplate("app://orders/{id}", "application/json", func([]registry.Param) (any, error) { return nil, nil })
	e.h.take()
	e.handle(t, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"app://orders/a%20b"}}`)
	if len(e.h.reads) != 1 || e.h.reads[0].params != `{"id":"a b"}` {
		t.Fatalf("reads = %+v", e.h.reads)
	}
	e.s.ReadDone(e.h.reads[0].req, ContentFailed, 3, 0, "boom")
	if got, want := e.h.take(), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"reading app://orders/a%20b failed: boom"}}`; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	e.s.ReadDone(e.h.reads[0].req, ContentText, 4, 1, "") // twice: nothing
	if got := e.h.take(); got != "" {
		t.Errorf("a second ReadDone posted %s", got)
	}
}

// Reads whose values come later (a getter's Promise) are answered as each
// value arrives, in any order, each with its own id and uri, once; a value
// for a read the server no longer waits for is released and posts nothing.
func TestReadsWaitingTogether(t *testing.T) {
	e := setup(t, 4)
	for i := range 4 {
		e.handle(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"state://r%03d"}}`, 10+i, i))
	}
	if len(e.h.reads) != 4 {
		t.Fatalf("reads = %+v", e.h.reads)
	}
	for _, i := range []int{2, 0, 3, 1} {
		e.s.ReadDone(e.h.reads[i].req, ContentText, registry.Value(100+i), 1, "")
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":"state://r%03d","mimeType":"application/json"}],"_meta":{"modelcontext/revision":0}}} +attach%d/v%d`, 10+i, i, AttachText, 100+i)
		if got := e.h.take(); got != want {
			t.Errorf("read %d:\n got %s\nwant %s", i, got, want)
		}
		e.s.ReadDone(e.h.reads[i].req, ContentText, 7, 1, "") // twice: released, nothing posted
		if got := e.h.take(); got != "" {
			t.Errorf("read %d finished twice posted %s", i, got)
		}
	}
	// Reads still waiting when the server stops are forgotten: their values
	// are released when they come.
	e.h.reads, e.h.released = nil, nil
	e.handle(t, `{"jsonrpc":"2.0","id":20,"method":"resources/read","params":{"uri":"state://r000"}}`)
	e.handle(t, `{"jsonrpc":"2.0","id":21,"method":"resources/read","params":{"uri":"state://r001"}}`)
	e.s.Stop()
	e.h.take()
	e.s.ReadDone(e.h.reads[1].req, ContentText, 8, 1, "")
	e.s.ReadDone(e.h.reads[0].req, ContentText, 9, 1, "")
	if got := e.h.take(); got != "" || len(e.h.released) != 2 {
		t.Errorf("after Stop: posted %q, released %v, want nothing posted and 8, 9 released", got, e.h.released)
	}
}

func TestSubscriptionsBothRevisions(t *testing.T) {
	e := setup(t, 0)
	var onChange func()
	n := 0
	e.reg.Register("state://x", func() (any, error) { n++; return n, nil }, func(f func()) any { onChange = f; return registrytest.Teardown(func() {}) })
	e.h.take()
	e.handle(t, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`)
	e.handle(t, `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{`+meta+`,"notifications":{"resourcesListChanged":true,"toolsListChanged":true,"resourceSubscriptions":["state://x","state://x","state://later"]}}}`)
	want := `{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["state://x","state://later"]}}}`
	if got := e.h.take(); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	onChange()
	want = `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}
{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L","modelcontext/revision":0},"uri":"state://x"}}`
	if got := e.h.take(); got != want {
		t.Errorf("push:\n got %s\nwant %s", got, want)
	}
	e.handle(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	e.reg.Register("state://y", func() (any, error) { return 1, nil }, nil)
	want = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}`
	if got := e.h.take(); got != want {
		t.Errorf("list change:\n got %s\nwant %s", got, want)
	}
	e.handle(t, `{"jsonrpc":"2.0","id":2,"method":"resources/unsubscribe","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`)
	e.handle(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`)
	e.h.take()
	onChange()
	if got := e.h.take(); got != "" {
		t.Errorf("after unsubscribe and cancel: %s", got)
	}
	e.handle(t, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"state://nope"}}`)
	if got, want := e.h.take(), `{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found: state://nope","data":{"uri":"state://nope"}}}`; got != want {
		t.Errorf("subscribe to an unknown uri:\n got %s\nwant %s", got, want)
	}
	e.handle(t, `{"jsonrpc":"2.0","id":"L2","method":"subscriptions/listen","params":{`+meta+`,"notifications":{}}}`)
	e.h.take()
	e.s.Stop()
	want = `{"jsonrpc":"2.0","id":"L2","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L2"}}}
"mcp-server-stopped"`
	if got := e.h.take(); got != want {
		t.Errorf("stop:\n got %s\nwant %s", got, want)
	}
	onChange()
	if got := e.h.take(); got != "" {
		t.Errorf("a stopped server posted %s", got)
	}
}

func TestIDsAreEchoedOnlyAsJSONNumbers(t *testing.T) {
	for text, want := range map[string]string{
		"7": "7", "-2.5": "-2.5", "0": "0", "1e21": "1e21", "-0.5E-3": "-0.5E-3",
		"00000000000000": "null", "01": "null", "+1": "null", "1.": "null", ".5": "null", "1e": "null", "": "null", "--1": "null",
	} {
		if got := idText(registry.Field{Kind: registry.KindNumber}, text); got != want {
			t.Errorf("idText(%q) = %s, want %s", text, got, want)
		}
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
		e := setup(f, 1)
		e.reg.RegisterTemplate("app://orders/{id}", "text/plain", func([]registry.Param) (any, error) { return nil, nil })
		m := message(f, s, e.reg.Resolve)
		f.Add(encodeMessage(&m))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Message
		if err := DecodeMessage(b, &m); err != nil {
			return
		}
		e := setup(t, 1)
		e.reg.RegisterTemplate("app://orders/{id}", "text/plain", func([]registry.Param) (any, error) { return nil, nil })
		e.s.Handle(&m, true)
		for _, r := range e.h.reads {
			e.s.ReadDone(r.req, ContentText, 1, 1, "")
		}
		for _, p := range e.h.posts {
			msg := p
			if i := strings.Index(p, " +attach"); i >= 0 {
				msg = p[:i]
			}
			if !json.Valid([]byte(msg)) {
				t.Fatalf("posted invalid JSON %q", msg)
			}
		}
	})
}

// The sessions of a server with Options.Sessions: the sub-channels
// "<channel>/<name>".

// handleOn hands the server a message that came on the sub-channel name
// ("" for the main channel), from origin.
func (e *env) handleOn(t testing.TB, name, payload string) {
	t.Helper()
	m := message(t, payload, e.reg.Resolve)
	if name != "" {
		m.Session = registry.Field{Kind: registry.KindString, Str: name}
	}
	e.s.Handle(&m, true)
}

// setupSessions is a server on the channel "c" with sessions (at most max,
// or the default) and one resource, state://x, whose pushes onChange makes.
func setupSessions(t testing.TB, max int) (*env, func()) {
	t.Helper()
	reg := registrytest.New()
	n := 0
	var onChange func()
	reg.Register("state://x", func() (any, error) { n++; return n, nil }, func(f func()) any { onChange = f; return registrytest.Teardown(func() {}) })
	h := &fakeHost{}
	s := New(1, h, reg.R, Options{Channel: "c", AllowedOrigins: []string{origin}, Sessions: true, MaxSessions: max})
	h.take()
	return &env{s, h, reg}, func() { onChange() }
}

const (
	listenOnX   = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["state://x"]}}}`
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
	subscribeX  = `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func TestSubChannelsAreIgnoredWithoutSessions(t *testing.T) {
	e := setup(t, 1)
	e.handleOn(t, "a", `"mcp-check-ready"`)
	e.handleOn(t, "a", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if got := e.h.take(); got != "" || e.s.Sessions() != 0 {
		t.Errorf("a server without sessions answered a sub-channel: %q (%d sessions)", got, e.s.Sessions())
	}
}

func TestSessionsAreIsolated(t *testing.T) {
	e, push := setupSessions(t, 0)
	e.handleOn(t, "a", `"mcp-check-ready"`)
	if got := e.h.take(); got != `a: "mcp-server-ready"` {
		t.Fatalf("check-ready on a: %q", got)
	}
	for _, ch := range []string{"", "a", "b"} {
		e.handleOn(t, ch, initialize)
		e.handleOn(t, ch, initialized)
		if ch != "b" {
			e.handleOn(t, ch, subscribeX)
		}
	}
	e.h.take()
	if e.s.Sessions() != 2 {
		t.Fatalf("%d sessions, want 2", e.s.Sessions())
	}
	// A new handshake on the main channel starts its session over, and no other.
	e.handleOn(t, "", initialize)
	e.h.take()
	push()
	if got, want := e.h.take(), `a: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`; got != want {
		t.Errorf("push after the main channel's new handshake:\n got %s\nwant %s", got, want)
	}
	// The same listen id in two sessions: two streams; cancelling one ends only it.
	e.handleOn(t, "a", listenOnX)
	e.handleOn(t, "b", listenOnX)
	e.h.take()
	e.handleOn(t, "b", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`)
	push()
	want := `a: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}
a: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L","modelcontext/revision":0},"uri":"state://x"}}`
	if got := e.h.take(); got != want {
		t.Errorf("push with listens:\n got %s\nwant %s", got, want)
	}
	e.reg.Register("state://y", func() (any, error) { return 1, nil }, nil)
	want = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
a: {"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
a: {"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}
b: {"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`
	if got := e.h.take(); got != want {
		t.Errorf("list change:\n got %s\nwant %s", got, want)
	}
	// Requests are answered on the channel they came on.
	e.handleOn(t, "b", `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := e.h.take(); got != `b: {"jsonrpc":"2.0","id":"p","result":{}}` {
		t.Errorf("ping on b: %s", got)
	}
}

func TestSessionClose(t *testing.T) {
	e, push := setupSessions(t, 0)
	e.handleOn(t, "a", subscribeX)
	e.handleOn(t, "a", listenOnX)
	e.handleOn(t, "a", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"state://x","_meta":{"modelcontext/revision":0}}}`)
	e.h.take()
	e.handleOn(t, "a", `"mcp-session-close"`)
	if got := e.h.take(); got != `a: "mcp-server-stopped"` || e.s.Sessions() != 0 {
		t.Fatalf("close: %q, %d sessions", got, e.s.Sessions())
	}
	push()
	e.s.ReadDone(e.h.reads[0].req, ContentText, 7, 1, "")
	if got := e.h.take(); got != "" {
		t.Errorf("a closed session was posted to: %s", got)
	}
	// Closing again, or a session that never existed, is acknowledged and
	// creates nothing; the main channel cannot be closed.
	e.handleOn(t, "a", `"mcp-session-close"`)
	e.handleOn(t, "zz", `"mcp-session-close"`)
	e.handleOn(t, "", `"mcp-session-close"`)
	if got, want := e.h.take(), "a: \"mcp-server-stopped\"\nzz: \"mcp-server-stopped\""; got != want || e.s.Sessions() != 0 {
		t.Errorf("closing again: %q, %d sessions", got, e.s.Sessions())
	}
	// The name is free again: a new session, with nothing of the old one.
	e.handleOn(t, "a", `"mcp-check-ready"`)
	e.h.take()
	push()
	if got := e.h.take(); got != "" {
		t.Errorf("a reopened session inherited subscriptions: %s", got)
	}
}

func TestSessionLimit(t *testing.T) {
	e, _ := setupSessions(t, 2)
	e.handleOn(t, "a", `"mcp-check-ready"`)
	e.handleOn(t, "b", `"mcp-check-ready"`)
	e.h.take()
	const full = `"error":{"code":-32000,"message":"modelcontext: too many MCP sessions on the channel \"c\" (at most 2, serveMCP's maxSessions); close one with \"mcp-session-close\" first"}}`
	e.handleOn(t, "c", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`)
	e.handleOn(t, "c", `"mcp-check-ready"`)
	e.handleOn(t, "c", initialized)
	e.handleOn(t, "c", `{"jsonrpc":"2.0","id":7,"result":{}}`)
	want := `c: {"jsonrpc":"2.0","id":7,` + full + "\n" + `c: {"jsonrpc":"2.0","id":null,` + full
	if got := e.h.take(); got != want || e.s.Sessions() != 2 {
		t.Errorf("over the limit (%d sessions):\n got %s\nwant %s", e.s.Sessions(), got, want)
	}
	e.handleOn(t, "a", `"mcp-session-close"`)
	e.handleOn(t, "c", `"mcp-check-ready"`)
	if got := e.h.take(); got != "a: \"mcp-server-stopped\"\nc: \"mcp-server-ready\"" {
		t.Errorf("after a close: %q", got)
	}
}

func TestSessionNames(t *testing.T) {
	e, _ := setupSessions(t, 100)
	for _, name := range []string{"a/b", "é", "a b", strings.Repeat("x", 65)} {
		e.handleOn(t, name, `"mcp-check-ready"`)
	}
	m := message(t, `"mcp-check-ready"`, nil)
	m.Session = registry.Field{Kind: registry.KindString, Str: ""}
	e.s.Handle(&m, true)
	if got := e.h.take(); got != "" || e.s.Sessions() != 0 {
		t.Errorf("invalid names were answered: %q", got)
	}
	for _, name := range []string{"A-z_0.9~", strings.Repeat("x", 64)} {
		e.handleOn(t, name, `"mcp-check-ready"`)
	}
	if e.s.Sessions() != 2 {
		t.Errorf("valid names: %d sessions, want 2", e.s.Sessions())
	}
	// A foreign sender creates no session.
	m = message(t, `"mcp-check-ready"`, nil)
	m.Session = registry.Field{Kind: registry.KindString, Str: "evil"}
	m.Origin = registry.Field{Kind: registry.KindString, Str: "http://evil.example"}
	e.s.Handle(&m, true)
	if got := e.h.take(); strings.Contains(got, "evil") || e.s.Sessions() != 2 {
		t.Errorf("a foreign origin created a session: %q", got)
	}
}

func TestStopEndsEverySession(t *testing.T) {
	e, push := setupSessions(t, 0)
	e.handleOn(t, "a", listenOnX)
	e.handleOn(t, "b", subscribeX)
	e.h.take()
	e.s.Stop()
	want := `a: {"jsonrpc":"2.0","id":"L","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}
a: "mcp-server-stopped"
b: "mcp-server-stopped"
"mcp-server-stopped"`
	if got := e.h.take(); got != want || e.s.Sessions() != 0 {
		t.Errorf("stop (%d sessions left):\n got %s\nwant %s", e.s.Sessions(), got, want)
	}
	push()
	if got := e.h.take(); got != "" {
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
		s := New(1, &fakeHost{}, registrytest.New().R, tc.running)
		got := ""
		if err := s.Conflict(tc.starting); err != nil {
			got = err.Error()
		}
		if got != tc.want {
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
		e, _ := setupSessions(b, n)
		e.h = nil
		e.s.host = discardHost{}
		msgs := make([][3]Message, n)
		for i := range msgs {
			name := fmt.Sprintf("relay-0123456789ab-%d", i)
			for j, p := range []string{initialize, subscribeX, listenOnX} {
				msgs[i][j] = message(b, p, e.reg.Resolve)
				msgs[i][j].Session = registry.Field{Kind: registry.KindString, Str: name}
			}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range msgs {
			for j := range msgs[i] {
				e.s.Handle(&msgs[i][j], true)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if e.s.Sessions() != n {
			b.Fatalf("%d sessions", e.s.Sessions())
		}
		total += after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(e)
		runtime.KeepAlive(msgs)
	}
	b.ReportMetric(float64(total)/float64(b.N)/n, "bytes/session")
}

type discardHost struct{}

func (discardHost) Post(int32, string, string, Attachment, int, int, registry.Value) {}
func (discardHost) Read(int32, int32, registry.ID, string)                           {}
func (discardHost) TextBytes(registry.Value) int                                     { return 0 }
func (discardHost) Revision() float64                                                { return 0 }
func (discardHost) Forget(int32, string)                                             {}
func (discardHost) Release(registry.Value)                                           {}
func (discardHost) Complete(int32, int32, registry.ID, string, string, string)       {}

// readHost answers every read at once with a text value, as the loader
// does for a getter that returns a plain value, and discards what is posted.
type readHost struct {
	discardHost
	s     *Server
	posts int
}

func (h *readHost) Read(server, req int32, id registry.ID, params string) {
	h.s.ReadDone(req, ContentText, 1, 40, "")
}

func (h *readHost) Post(int32, string, string, Attachment, int, int, registry.Value) { h.posts++ }

// BenchmarkRead measures Go's side of one resources/read of a concrete
// resource: decoding the loader's encoding of the message, handling it, and
// finishing the read with a prepared value (the bench's MCP read round trip
// is this plus the loader, the client and two postMessage hops).
func BenchmarkRead(b *testing.B) {
	e := setup(b, 6)
	h := &readHost{s: e.s}
	e.s.host = h
	// A client numbers its requests: the id changes from one message to the
	// next, the rest repeats.
	var wires [16][]byte
	for i := range wires {
		m := message(b, `{"jsonrpc":"2.0","id":`+itoa(7+i)+`,"method":"resources/read","params":{"uri":"state://r003"}}`, e.reg.Resolve)
		wires[i] = encodeMessage(&m)
	}
	var got Message
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := DecodeMessage(wires[i%len(wires)], &got); err != nil {
			b.Fatal(err)
		}
		e.s.Handle(&got, true)
	}
	if h.posts != b.N {
		b.Fatalf("%d reads answered, want %d", h.posts, b.N)
	}
}
