package relay

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// httpRelay serves the page over MCP's Streamable HTTP transport, on a
// loopback address, to clients that hold the secret.
//
// A 2025-11-25 client's initialize opens a session (Mcp-Session-Id) on a
// lane of its own; its notifications come on its GET stream. A 2026-07-28
// client has no session: its requests (each with its protocol version in
// _meta) go over a few shared lanes, one request per id at a time on each,
// and a subscriptions/listen request gets its notifications on its own
// response stream.
type httpRelay struct {
	open        func(out func(*message)) *Session // opens a client session on a lane of its own
	secret      string
	hosts       map[string]bool // Host values answered
	origins     map[string]bool // Origin values answered (besides none)
	maxSessions int
	idle        time.Duration
	logf        func(string, ...any)
	now         func() time.Time
	stop        chan struct{} // closed when the relay shuts down
	// upgrade, when set, takes the requests (past the checks) that ask to
	// upgrade to stdioUpgrade: the native host's stdio clients.
	upgrade func(w http.ResponseWriter, r *http.Request)
	// secretNow, when set, returns the secret in force, which may change
	// while the relay runs (the native host's, at relay --rotate-secret).
	secretNow func() string

	mu       sync.Mutex
	sessions map[string]*httpLane // 2025-11-25 sessions by Mcp-Session-Id
	modern   []*httpLane          // lanes of 2026-07-28 requests
}

// maxModernLanes bounds the lanes 2026-07-28 requests share.
const maxModernLanes = 4

// maxBody bounds a POST body.
const maxBody = 32 << 20

// httpLane is a page session and the HTTP exchanges waiting on it.
type httpLane struct {
	sess *Session
	id   string // Mcp-Session-Id; "" for a 2026-07-28 lane

	mu       sync.Mutex
	waiters  map[idKey]*exchange // requests waiting for the page's answer
	stream   *exchange           // the GET stream of a 2025-11-25 session
	backlog  [][]byte            // notifications waiting for a GET stream
	lastUsed time.Time
	active   int // requests in flight and GET streams open
	closed   bool
}

// exchange is one HTTP response being written: the messages for it arrive
// on q; q closes after the last one.
type exchange struct {
	q      *queue[[]byte]
	stream bool // Server-Sent Events, not one JSON body
}

// maxBacklog bounds the notifications a session without a GET stream keeps.
const maxBacklog = 1000

func newHTTPRelay(open func(func(*message)) *Session, secret string, addr net.Addr, allowOrigins []string, maxSessions int, idle time.Duration, logf func(string, ...any)) *httpRelay {
	port := addr.(*net.TCPAddr).Port
	hosts := []string{fmt.Sprintf("localhost:%d", port)}
	if ip := addr.(*net.TCPAddr).IP; ip.To4() == nil {
		hosts = append(hosts, fmt.Sprintf("[%s]:%d", ip, port))
	} else {
		hosts = append(hosts, fmt.Sprintf("%s:%d", ip, port))
	}
	h := &httpRelay{open: open, secret: secret, hosts: map[string]bool{}, origins: map[string]bool{}, maxSessions: maxSessions,
		idle: idle, logf: logf, now: time.Now, stop: make(chan struct{}), sessions: map[string]*httpLane{}}
	for _, host := range hosts {
		h.hosts[host] = true
		h.origins["http://"+host] = true
	}
	for _, o := range allowOrigins {
		h.origins[o] = true
	}
	return h
}

// refuse answers with an HTTP error whose body is a JSON-RPC error.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(errorResponse(nil, codeInvalidRequest, msg))
}

func (h *httpRelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// DNS rebinding: a page whose name resolves to 127.0.0.1 still sends its
	// own Host; a browser page sends its Origin.
	if !h.hosts[strings.ToLower(r.Host)] {
		markConn(w, r, false)
		refuse(w, http.StatusForbidden, fmt.Sprintf("modelcontext: the Host %q is not allowed: the relay answers only as %s", r.Host, strings.Join(sortedKeys(h.hosts), " or ")))
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !h.origins[o] {
		markConn(w, r, false)
		refuse(w, http.StatusForbidden, fmt.Sprintf("modelcontext: the Origin %q is not allowed; start the relay with --allow-origin %s to let that page in", o, o))
		return
	}
	token, inPath := strings.CutPrefix(r.URL.Path, "/mcp/")
	if !inPath {
		if r.URL.Path != "/mcp" {
			markConn(w, r, false)
			refuse(w, http.StatusNotFound, "modelcontext: not found: the MCP endpoint is the URL the relay printed")
			return
		}
		token, _ = strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	secret := h.secret
	if h.secretNow != nil {
		secret = h.secretNow()
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(secret)) != 1 {
		markConn(w, r, false)
		w.Header().Set("WWW-Authenticate", `Bearer realm="modelcontext-relay"`)
		refuse(w, http.StatusUnauthorized, "modelcontext: missing or wrong secret: use the URL the relay printed, or send Authorization: Bearer <the secret it printed>")
		return
	}
	markConn(w, r, true)
	if h.upgrade != nil && r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), stdioUpgrade) {
		h.upgrade(w, r)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		refuse(w, http.StatusMethodNotAllowed, "modelcontext: method not allowed")
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

const errUnknownSession = "modelcontext: unknown or expired session (sessions end when idle for a while, or to make room for new ones); initialize again"

func (h *httpRelay) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		refuse(w, http.StatusBadRequest, "modelcontext: reading the request: "+err.Error())
		return
	}
	if len(body) > maxBody {
		refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("modelcontext: the request is larger than %d bytes", maxBody))
		return
	}
	if !json.Valid(body) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(errorResponse(nil, codeParseError, "Parse error: the body is not JSON"))
		return
	}
	m := parse(body)
	if m.batch || m.method == "" && !m.isResponse() {
		refuse(w, http.StatusBadRequest, "modelcontext: the body must be one JSON-RPC message (batches are not supported)")
		return
	}
	if m.id != nil && m.method != "" && m.key == "" {
		refuse(w, http.StatusBadRequest, "modelcontext: a request id must be a string or a number")
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	var l *httpLane
	switch {
	case sid != "":
		h.mu.Lock()
		l = h.sessions[sid]
		h.mu.Unlock()
		if l == nil {
			refuse(w, http.StatusNotFound, errUnknownSession)
			return
		}
	case m.isRequest() && m.method == "initialize" && m.version == "":
		h.initialize(w, r, m)
		return
	case m.version != "" || m.method == "notifications/cancelled":
		if !m.isRequest() {
			h.modernNotification(m)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if l = h.modernLane(m.key); l == nil {
			refuse(w, http.StatusServiceUnavailable, fmt.Sprintf("modelcontext: %d requests with this id are already waiting; use another id", maxModernLanes))
			return
		}
	default:
		refuse(w, http.StatusBadRequest, "modelcontext: Mcp-Session-Id is required (send initialize first), or give each request _meta[\"io.modelcontextprotocol/protocolVersion\"] (2026-07-28)")
		return
	}
	if !m.isRequest() {
		l.touch(h.now(), 0)
		l.sess.FromClient(body)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	x, closed := l.await(m, h.now())
	switch {
	case closed:
		refuse(w, http.StatusNotFound, errUnknownSession)
		return
	case x == nil:
		refuse(w, http.StatusConflict, "modelcontext: a request with this id is already waiting in this session")
		return
	}
	defer l.touch(h.now(), -1)
	l.sess.FromClient(body)
	h.respond(w, r, l, m, x, nil)
}

// respond writes the page's answer to request m: one JSON body, or an
// event stream for subscriptions/listen. header, if not nil, adds headers
// once the answer is known (it may refuse it by returning false).
func (h *httpRelay) respond(w http.ResponseWriter, r *http.Request, l *httpLane, m *message, x *exchange, header func(answer []byte) bool) {
	ctx := r.Context()
	if !x.stream {
		b, ok := x.q.next(ctx, h.stop)
		if !ok {
			l.forget(m.key, x)
			if ctx.Err() == nil {
				refuse(w, http.StatusServiceUnavailable, "modelcontext: the relay is shutting down")
			}
			return
		}
		if header != nil && !header(b) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush(w)
	for {
		b, ok := x.q.next(ctx, h.stop)
		if !ok {
			break
		}
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
		flush(w)
		if debugRelay {
			fmt.Fprintf(os.Stderr, "sse %s %.100s\n", m.key, b)
		}
	}
	if debugRelay {
		fmt.Fprintf(os.Stderr, "sse %s ends (ctx %v)\n", m.key, ctx.Err())
	}
	if l.forget(m.key, x) && m.method == "subscriptions/listen" {
		// The client went away without cancelling: end the stream in the page.
		cancel, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": map[string]any{"requestId": m.id, "reason": "modelcontext: the client closed the stream"}})
		l.sess.FromClient(cancel)
	}
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// initialize opens a 2025-11-25 session for an initialize request; it
// stays only if the page accepts the handshake.
func (h *httpRelay) initialize(w http.ResponseWriter, r *http.Request, m *message) {
	l := h.newSession()
	x, _ := l.await(m, h.now()) // a new session: never closed, nothing waiting
	defer l.touch(h.now(), -1)
	l.sess.FromClient(m.raw)
	h.respond(w, r, l, m, x, func(answer []byte) bool {
		if parse(answer).result {
			w.Header().Set("Mcp-Session-Id", l.id)
			return true
		}
		h.end(l, "")
		return true
	})
	if r.Context().Err() != nil {
		h.end(l, "") // the client left during the handshake
	}
}

// newSession opens a 2025-11-25 session, making room first if there are
// --max-sessions already: the one unused the longest goes, preferably one
// with nothing in flight and no GET stream.
func (h *httpRelay) newSession() *httpLane {
	l := &httpLane{id: randomHex(16), waiters: map[idKey]*exchange{}, lastUsed: h.now()}
	h.mu.Lock()
	var victim *httpLane
	if len(h.sessions) >= h.maxSessions {
		for _, s := range h.sessions {
			s.mu.Lock()
			idle, last := s.active == 0, s.lastUsed
			s.mu.Unlock()
			if victim == nil {
				victim = s
				continue
			}
			victim.mu.Lock()
			vIdle, vLast := victim.active == 0, victim.lastUsed
			victim.mu.Unlock()
			if idle && !vIdle || idle == vIdle && last.Before(vLast) {
				victim = s
			}
		}
		delete(h.sessions, victim.id)
	}
	h.sessions[l.id] = l
	h.mu.Unlock()
	if victim != nil {
		h.logf("HTTP session %s ended to make room for a new one (--max-sessions %d)", victim.id[:8], h.maxSessions)
		h.end(victim, "modelcontext: this session was ended to make room for a new one (the relay's --max-sessions is "+fmt.Sprint(h.maxSessions)+")")
	}
	l.sess = h.open(l.route)
	return l
}

// end closes a lane: its page session ends, its exchanges get msg (if any)
// and end, and it is forgotten.
func (h *httpRelay) end(l *httpLane, msg string) {
	h.mu.Lock()
	if h.sessions[l.id] == l {
		delete(h.sessions, l.id)
	}
	h.modern = slices.DeleteFunc(h.modern, func(x *httpLane) bool { return x == l })
	h.mu.Unlock()
	l.mu.Lock()
	l.closed = true
	for k, x := range l.waiters {
		if msg != "" && !x.stream {
			x.q.push(errorResponse(json.RawMessage(idJSON(k)), codeInternal, msg))
		}
		x.q.close()
	}
	clear(l.waiters)
	if l.stream != nil {
		l.stream.q.close()
		l.stream = nil
	}
	l.mu.Unlock()
	l.sess.Close()
}

// idJSON turns a key back into the id's JSON text.
func idJSON(k idKey) string {
	if strings.HasPrefix(string(k), "s") {
		b, _ := json.Marshal(string(k[1:]))
		return string(b)
	}
	return string(k[1:])
}

// modernLane returns a 2026-07-28 lane on which no request with key is
// waiting, opening one if needed; nil if there are maxModernLanes already.
func (h *httpRelay) modernLane(key idKey) *httpLane {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, l := range h.modern {
		l.mu.Lock()
		_, busy := l.waiters[key]
		l.mu.Unlock()
		if !busy {
			return l
		}
	}
	if len(h.modern) >= maxModernLanes {
		return nil
	}
	l := &httpLane{waiters: map[idKey]*exchange{}, lastUsed: h.now()}
	h.modern = append(h.modern, l)
	l.sess = h.open(l.route)
	return l
}

// modernNotification passes a notification without a session to the lane
// where the request it names waits (notifications/cancelled), if exactly one
// does; other such notifications have no session to go to.
func (h *httpRelay) modernNotification(m *message) {
	if m.method != "notifications/cancelled" || m.requestID == "" {
		return
	}
	h.mu.Lock()
	var found []*httpLane
	for _, l := range h.modern {
		l.mu.Lock()
		if _, ok := l.waiters[m.requestID]; ok {
			found = append(found, l)
		}
		l.mu.Unlock()
	}
	h.mu.Unlock()
	if len(found) == 1 {
		found[0].sess.FromClient(m.raw)
	}
}

// await registers an exchange for request m; nil if one with its id waits,
// or if the lane is closed (then closed is true).
func (l *httpLane) await(m *message, now time.Time) (x *exchange, closed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, true
	}
	if _, busy := l.waiters[m.key]; busy {
		return nil, false
	}
	x = &exchange{q: newQueue[[]byte](), stream: m.method == "subscriptions/listen"}
	l.waiters[m.key] = x
	l.active++
	l.lastUsed = now
	return x, false
}

// forget removes exchange x of key; it reports whether x was still waiting
// (its answer never came).
func (l *httpLane) forget(key idKey, x *exchange) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiters[key] == x {
		delete(l.waiters, key)
		return true
	}
	return false
}

func (l *httpLane) touch(now time.Time, active int) {
	l.mu.Lock()
	l.lastUsed = now
	l.active += active
	l.mu.Unlock()
}

// route delivers a message from the page (or the relay) to the exchange it
// belongs to: an answer to its request's, a listen stream's notification to
// that stream, any other notification to the session's GET stream.
func (l *httpLane) route(m *message) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if debugRelay {
		_, waiting := l.waiters[m.key]
		_, sub := l.waiters[m.subID]
		fmt.Fprintf(os.Stderr, "route %q key=%q sub=%q waiting=%v sub=%v closed=%v %.120s\n", l.id, m.key, m.subID, waiting, sub, l.closed, m.raw)
	}
	if l.closed {
		return
	}
	switch {
	case m.isResponse():
		if x := l.waiters[m.key]; x != nil {
			delete(l.waiters, m.key)
			x.q.push(m.raw)
			x.q.close()
		}
	case m.isNotification() && m.subID != "" && l.waiters[m.subID] != nil && l.waiters[m.subID].stream:
		l.waiters[m.subID].q.push(m.raw)
	case m.isNotification() && l.id != "":
		if l.stream != nil {
			l.stream.q.push(m.raw)
		} else if len(l.backlog) < maxBacklog {
			l.backlog = append(l.backlog, m.raw)
		}
	}
}

// session finds the 2025-11-25 session r names. Without a session id it
// answers 405 with allow and why; with an unknown one, 404. It returns nil
// once it has answered.
func (h *httpRelay) session(w http.ResponseWriter, r *http.Request, allow, why string) *httpLane {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		w.Header().Set("Allow", allow)
		refuse(w, http.StatusMethodNotAllowed, why)
		return nil
	}
	h.mu.Lock()
	l := h.sessions[sid]
	h.mu.Unlock()
	if l == nil {
		refuse(w, http.StatusNotFound, errUnknownSession)
	}
	return l
}

// get opens a 2025-11-25 session's stream of notifications; a newer GET
// replaces an older one.
func (h *httpRelay) get(w http.ResponseWriter, r *http.Request) {
	l := h.session(w, r, "POST", "modelcontext: GET needs an Mcp-Session-Id (2025-11-25); 2026-07-28 clients get notifications on their subscriptions/listen stream")
	if l == nil {
		return
	}
	x := &exchange{q: newQueue[[]byte](), stream: true}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		refuse(w, http.StatusNotFound, errUnknownSession)
		return
	}
	if l.stream != nil {
		l.stream.q.close()
	}
	l.stream = x
	for _, b := range l.backlog {
		x.q.push(b)
	}
	l.backlog = nil
	l.active++
	l.lastUsed = h.now()
	l.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush(w)
	for {
		b, ok := x.q.next(r.Context(), h.stop)
		if !ok {
			break
		}
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
		flush(w)
	}
	l.mu.Lock()
	if l.stream == x {
		l.stream = nil
	}
	l.active--
	l.lastUsed = h.now()
	l.mu.Unlock()
}

func (h *httpRelay) delete(w http.ResponseWriter, r *http.Request) {
	l := h.session(w, r, "GET, POST", "modelcontext: DELETE needs an Mcp-Session-Id")
	if l == nil {
		return
	}
	h.end(l, "modelcontext: the client ended this session")
	w.WriteHeader(http.StatusNoContent)
}
