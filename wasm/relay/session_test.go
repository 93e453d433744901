package relay

import (
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLane records what a session sends to the page.
type fakeLane struct {
	mu     sync.Mutex
	sent   []string
	closed bool
}

func (l *fakeLane) send(raw []byte) {
	l.mu.Lock()
	l.sent = append(l.sent, string(raw))
	l.mu.Unlock()
}
func (l *fakeLane) close()       { l.mu.Lock(); l.closed = true; l.mu.Unlock() }
func (l *fakeLane) name() string { return "lane" }

// take returns what was sent so far, one message a line, and forgets it.
func (l *fakeLane) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.Join(l.sent, "\n")
	l.sent = nil
	return s
}

type recorder struct {
	mu  sync.Mutex
	got []string
}

func (r *recorder) out(m *message) { r.mu.Lock(); r.got = append(r.got, string(m.raw)); r.mu.Unlock() }

func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.got, "\n")
	r.got = nil
	return s
}

func newTestSession() (*Session, *fakeLane, *recorder) {
	rec := &recorder{}
	s := newSession(rec.out, func(string, ...any) {})
	l := &fakeLane{}
	s.lane = l
	return s, l, rec
}

const (
	initReq    = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	initNote   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listenReq  = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["state://x"]}}}`
	relayInit1 = `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`
)

func TestSessionWaitsForThePage(t *testing.T) {
	s, l, rec := newTestSession()
	s.FromClient([]byte(initReq))
	s.FromClient([]byte(initNote))
	if got := l.take(); got != "" {
		t.Fatalf("sent before the page was up: %s", got)
	}
	s.pageUp()
	if got, want := l.take(), initReq+"\n"+initNote; got != want {
		t.Errorf("after pageUp:\n got %s\nwant %s", got, want)
	}
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	if got := rec.take(); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("the page's answer reached the client as %s", got)
	}
}

func TestSessionPageFailed(t *testing.T) {
	s, l, rec := newTestSession()
	s.FromClient([]byte(initReq))
	s.FromClient([]byte(initNote))
	s.pageFailed(errors.New("modelcontext: no MCP here"))
	s.FromClient([]byte(`{"jsonrpc":"2.0","id":"x","method":"ping"}`))
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"modelcontext: no MCP here"}}
{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"modelcontext: no MCP here"}}`
	if got := rec.take(); got != want || l.take() != "" {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	s.pageUp()
	s.FromClient([]byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	if got := l.take(); got != `{"jsonrpc":"2.0","id":2,"method":"ping"}` {
		t.Errorf("once the page serves MCP: sent %s", got)
	}
}

func TestSessionReloadLegacy(t *testing.T) {
	s, l, rec := newTestSession()
	s.pageUp()
	for _, m := range []string{initReq, initNote,
		`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"state://x"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"state://gone"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"state://refused"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":"state://y"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/unsubscribe","params":{"uri":"state://y"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"state://x"}}`} {
		s.FromClient([]byte(m))
	}
	for _, a := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`, `{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"no"}}`, `{"jsonrpc":"2.0","id":5,"result":{}}`, `{"jsonrpc":"2.0","id":6,"result":{}}`} {
		s.fromPage([]byte(a))
	}
	l.take()
	rec.take()

	// The page goes: the read it took is answered with an error; a request
	// made meanwhile waits.
	s.pageDown()
	if got, want := rec.take(), `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"`+errReloaded+`"}}`; got != want {
		t.Errorf("pageDown:\n got %s\nwant %s", got, want)
	}
	s.FromClient([]byte(`{"jsonrpc":"2.0","id":8,"method":"ping"}`))
	if got := l.take(); got != "" {
		t.Errorf("sent while the page was down: %s", got)
	}

	// The page is back: handshake and subscriptions again (with the relay's
	// ids), then what waited.
	s.pageUp()
	want := `{"id":"modelcontext-relay-1","jsonrpc":"2.0","method":"initialize","params":` + relayInit1 + `}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"id":"modelcontext-relay-2","jsonrpc":"2.0","method":"resources/subscribe","params":{"uri":"state://gone"}}
{"id":"modelcontext-relay-3","jsonrpc":"2.0","method":"resources/subscribe","params":{"uri":"state://x"}}
{"jsonrpc":"2.0","id":8,"method":"ping"}`
	if got := l.take(); got != want {
		t.Errorf("pageUp sent:\n got %s\nwant %s", got, want)
	}
	// Until the page has answered them, the client hears nothing of it; the
	// relay's answers never reach it; then it is told.
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":"modelcontext-relay-1","result":{}}`))
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":"modelcontext-relay-2","error":{"code":-32602,"message":"Resource not found"}}`))
	if got := rec.take(); got != "" {
		t.Errorf("told the client before the page answered: %s", got)
	}
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":"modelcontext-relay-3","result":{}}`))
	want = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}
{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://gone"}}
{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"state://x"}}`
	if got := rec.take(); got != want {
		t.Errorf("the client was told:\n got %s\nwant %s", got, want)
	}
	// state://gone is no longer followed: a second reload re-subscribes x only.
	s.pageDown()
	s.pageUp()
	if got := l.take(); strings.Contains(got, "state://gone") || !strings.Contains(got, "state://x") {
		t.Errorf("second reload sent:\n%s", got)
	}
}

func TestSessionReloadListen(t *testing.T) {
	s, l, rec := newTestSession()
	s.pageUp()
	s.FromClient([]byte(listenReq))
	s.FromClient([]byte(`{"jsonrpc":"2.0","id":"M","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"notifications":{"resourceSubscriptions":["state://y"]}}}`))
	s.FromClient([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"M"}}`))
	l.take()
	s.pageDown()
	if got := rec.take(); got != "" {
		t.Errorf("pageDown answered a listen stream: %s", got)
	}
	s.pageUp()
	if got := l.take(); got != listenReq {
		t.Errorf("re-sent:\n got %s\nwant %s", got, listenReq)
	}
	const ack = `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"notifications":{"resourceSubscriptions":["state://x"]}}}`
	if got := rec.take(); got != "" {
		t.Errorf("told the client before the page acknowledged: %s", got)
	}
	s.fromPage([]byte(ack))
	want := `{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}
{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"uri":"state://x"}}`
	if got := rec.take(); got != want {
		t.Errorf("after the new acknowledgement the client got:\n got %s\nwant %s", got, want)
	}
	// Later acknowledgements (not the relay's) pass through.
	s.fromPage([]byte(ack))
	if got := rec.take(); got != ack {
		t.Errorf("a later acknowledgement: %s", got)
	}
}

func TestSessionInitializeStartsOver(t *testing.T) {
	s, l, _ := newTestSession()
	s.pageUp()
	s.FromClient([]byte(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"state://x"}}`))
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":2,"result":{}}`))
	s.FromClient([]byte(initReq)) // the page forgets the subscription: so does the relay
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	l.take()
	s.pageDown()
	s.pageUp()
	if got := l.take(); strings.Contains(got, "resources/subscribe") {
		t.Errorf("re-subscribed after a new initialize:\n%s", got)
	}
}

func TestSessionClose(t *testing.T) {
	s, l, rec := newTestSession()
	s.pageUp()
	s.Close()
	s.FromClient([]byte(initReq))
	s.fromPage([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	if !l.closed || l.take() != "" || rec.take() != "" {
		t.Errorf("a closed session still relays")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in                   string
		key                  idKey
		method, uri, version string
		req, note, resp      bool
	}{
		{`{"jsonrpc":"2.0","id":1.0,"method":"resources/read","params":{"uri":"a://b"}}`, "n1", "resources/read", "a://b", "", true, false, false},
		{`{"jsonrpc":"2.0","id":"1","method":"ping"}`, "s1", "ping", "", "", true, false, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"x":1}}`, "n1", "", "", "", false, false, true},
		{`{"jsonrpc":"2.0","id":null,"error":{}}`, "", "", "", "", false, false, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", "notifications/initialized", "", "", false, true, false},
		{`{"jsonrpc":"2.0","id":9,"method":"resources/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, "n9", "resources/list", "", `"2026-07-28"`, true, false, false},
		{`{"jsonrpc":"2.0","id":{},"method":"ping","params":{"uri":7}}`, "", "ping", "", "", true, false, false},
	} {
		m := parse([]byte(tc.in))
		if m.key != tc.key || m.method != tc.method || m.uri != tc.uri || m.version != tc.version ||
			m.isRequest() != tc.req || m.isNotification() != tc.note || m.isResponse() != tc.resp {
			t.Errorf("%s: %+v", tc.in, m)
		}
	}
	if m := parse([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)); !m.batch {
		t.Error("a batch is not a batch")
	}
	var v any
	if err := json.Unmarshal(errorResponse(json.RawMessage(`"x"`), codeInternal, `say "hi"`), &v); err != nil {
		t.Error(err)
	}
}

// TestSweep: idle HTTP sessions end, busy ones stay; at --max-sessions a new
// one ends the one unused the longest, preferring idle ones.
func TestSweep(t *testing.T) {
	var lanes []*fakeLane
	open := func(out func(*message)) *Session {
		s := newSession(out, func(string, ...any) {})
		l := &fakeLane{}
		lanes = append(lanes, l)
		s.lane = l
		s.pageUp()
		return s
	}
	now := time.Unix(1000, 0)
	h := newHTTPRelay(open, "secret", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil, 2, time.Minute, func(string, ...any) {})
	h.now = func() time.Time { return now }
	a := h.newSession()
	now = now.Add(10 * time.Second)
	b := h.newSession()
	b.touch(now, 1) // b has a request in flight
	now = now.Add(2 * time.Minute)
	h.sweep(now)
	if h.Sessions() != 1 || !lanes[0].closed || lanes[1].closed {
		t.Fatalf("after the sweep: %d sessions, lanes closed %v %v", h.Sessions(), lanes[0].closed, lanes[1].closed)
	}
	c := h.newSession()
	b.touch(now, -1)
	now = now.Add(time.Second)
	c.touch(now, 1) // c is busy, b idle: a fourth session ends b
	d := h.newSession()
	if h.Sessions() != 2 || !lanes[1].closed || lanes[2].closed || h.sessions[d.id] != d || h.sessions[a.id] != nil {
		t.Errorf("at --max-sessions: %d sessions, lanes closed %v %v", h.Sessions(), lanes[1].closed, lanes[2].closed)
	}
}

// FuzzSession feeds a session messages from both sides, with the page going
// down and up in between: whatever they are, nothing panics, and every
// message the client is sent is JSON.
func FuzzSession(f *testing.F) {
	for _, s := range []string{initReq, initNote, listenReq,
		`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"state://x"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`,
		`[1,2]`, `"mcp-server-ready"`, `{"id":{"a":1},"method":7,"params":[]}`, `{"jsonrpc":"2.0","id":1e400,"result":null}`,
	} {
		f.Add([]byte(s), byte(0))
		f.Add([]byte(s), byte(1))
		f.Add([]byte(s), byte(2))
	}
	f.Fuzz(func(t *testing.T, raw []byte, op byte) {
		if !json.Valid(raw) {
			return
		}
		s, _, rec := newTestSession()
		for i := 0; i < 2; i++ {
			s.pageUp()
			switch op % 3 {
			case 0:
				s.FromClient(raw)
				s.fromPage(raw)
			case 1:
				s.fromPage(raw)
				s.FromClient(raw)
			case 2:
				s.FromClient([]byte(initReq))
				s.FromClient(raw)
			}
			s.pageDown()
			s.pageFailed(errors.New("modelcontext: gone"))
		}
		for _, m := range rec.got {
			if !json.Valid([]byte(m)) {
				t.Fatalf("the client was sent %q", m)
			}
		}
	})
}
