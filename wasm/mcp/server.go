// Package mcp serves the registry as a Model Context Protocol resource server
// over the MCP-B tab transport: JSON-RPC 2.0 in {channel, type: "mcp",
// direction, payload} envelopes on window.postMessage.
//
// It speaks revision 2025-11-25 (initialize, resources/subscribe) and, chosen
// per request by _meta["io.modelcontextprotocol/protocolVersion"], revision
// 2026-07-28 (no handshake, server/discover, subscriptions/listen, resultType
// and cache hints on results). Like the registry, it is plain Go: the page's
// values never enter it. A read asks the [Host] to prepare the value, and the
// response names the value's handle so that the host inserts the content as it
// posts the message.
//
// # Sessions
//
// A server has one client session on its channel: a new initialize starts it
// over. With Options.Sessions, it also serves the sub-channels
// "<channel>/<name>", each a session of its own (its handshake, its
// subscriptions, its listen streams), so that several clients share one page
// without seeing each other. A sub-channel's first message creates its
// session; the payload "mcp-session-close" on it ends the session (answered
// by "mcp-server-stopped" there), and Stop ends them all. At most
// Options.MaxSessions exist at once: a message that would create one more is
// answered with an error and creates nothing. A name is 1 to 64 characters
// from A-Z a-z 0-9 . _ ~ -; messages on other sub-channels are ignored.
//
// # Security
//
// A message is answered only when it comes from the page's own window and
// from an allowed origin (by default the page's origin). Anything else is
// dropped without an answer. Malformed messages from an allowed sender get a
// JSON-RPC error and change nothing.
package mcp

import (
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Revisions this server speaks.
const (
	Legacy = "2025-11-25"
	Modern = "2026-07-28"
)

// legacyVersions are the handshake revisions answered with themselves.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Version is the module version reported as serverInfo.
const Version = "0.3.0"

// JSON-RPC and MCP error codes.
const (
	codeParse              = -32700
	codeInvalidRequest     = -32600
	codeMethodNotFound     = -32601
	codeInvalidParams      = -32602
	codeInternal           = -32603
	codeUnsupportedVersion = -32022
	codeTooManySessions    = -32000
)

// Payloads of the tab transport's control messages.
const (
	checkReady    = "mcp-check-ready"
	sessionClose  = "mcp-session-close"
	serverReady   = `"mcp-server-ready"`
	serverStopped = `"mcp-server-stopped"`
)

// Attachment says what the host inserts into a posted message.
type Attachment int32

const (
	AttachNone      Attachment = iota
	AttachResources            // result.resources: the registrations whose IDs are in the list buffer
	AttachTemplates            // result.resourceTemplates, likewise
	AttachText                 // result.contents[0].text: the prepared value as text
	AttachBlob                 // result.contents[0].blob: the prepared bytes in base64
)

// MIMEClass tells the host how to prepare a value for a read.
type MIMEClass int32

const (
	MIMEOther MIMEClass = iota // binary stays binary; other values become JSON text
	MIMEText                   // text/*, JavaScript, YAML, XML: bytes that are valid UTF-8 become text
	MIMEJSON                   // JSON: every non-binary value, strings included, becomes JSON text
)

// ValueKind is what the host prepared for a read.
type ValueKind int32

const (
	ValueFailed ValueKind = iota // get threw or rejected, or the value cannot be encoded
	ValueText                    // text, ready to send
	ValueBytes                   // binary
)

// Host is what the server needs from the page.
type Host interface {
	// Post posts msg (JSON text) on the server's channel, or on its
	// sub-channel "<channel>/<session>" when session is not empty, inserting
	// the attachment: for lists, the IDs are ids; for contents, v is the
	// handle of the prepared value, which Post releases. msg and ids are
	// valid only during the call.
	Post(server int32, session, msg string, attach Attachment, ids []registry.ID, v registry.Value)
	// Read calls the getter of id (with the template parameters, a JSON
	// object, or "") and prepares its value by class; it then calls
	// Server.ReadDone with req.
	Read(server, req int32, id registry.ID, params string, class MIMEClass)
	Release(v registry.Value)
}

// Options configure a server; ParseOptions reads them from serveMCP's
// argument.
type Options struct {
	Channel        string
	AllowedOrigins []string // "*" allows any origin
	PageSize       int
	MaxBytes       int
	Sessions       bool // also serve the sub-channels "<channel>/<name>", a session each
	MaxSessions    int  // sub-channel sessions at once
}

// Server is one MCP server on one channel.
type Server struct {
	id   int32
	host Host
	reg  *registry.Registry
	opt  Options

	main     session
	sessions []*session     // the sub-channels' sessions, oldest first
	reads    map[int32]read // reads waiting for their value
	lastRead int32
	w        writer // the response being written
}

// session is one client's state: the main channel's, or a sub-channel's.
type session struct {
	name        string          // the sub-channel, "" for the main channel
	initialized bool            // a 2025-11-25 client completed the handshake
	subs        map[string]bool // 2025-11-25 resources/subscribe
	listens     []*listen       // 2026-07-28 subscriptions/listen streams
	ended       bool
}

type listen struct {
	id          string // the raw JSON id of the listen request
	listChanged bool
	uris        map[string]bool
}

type read struct {
	sess     *session
	rpcID    string
	modern   bool
	uri      string
	mimeType string
	class    MIMEClass
}

// New starts a server and announces it.
func New(id int32, host Host, reg *registry.Registry, opt Options) *Server {
	if opt.PageSize <= 0 {
		opt.PageSize = 50
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 25 << 20
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 16
	}
	s := &Server{id: id, host: host, reg: reg, opt: opt, reads: map[int32]read{}}
	s.main.subs = map[string]bool{}
	reg.Watch(s)
	s.post(&s.main, serverReady)
	return s
}

// Stop ends every session (the sub-channels' first, then the main
// channel's): their listen streams end gracefully, their subscriptions are
// forgotten, and "mcp-server-stopped" is announced on each channel.
func (s *Server) Stop() {
	s.reg.Unwatch(s)
	for _, ss := range s.sessions {
		s.end(ss, true)
	}
	s.sessions = nil
	s.end(&s.main, true)
	clear(s.reads)
}

// end ends a session's listen streams (answering them when graceful) and
// subscriptions, and announces "mcp-server-stopped" on its channel.
func (s *Server) end(ss *session, graceful bool) {
	for _, l := range ss.listens {
		if graceful {
			w := &writer{}
			w.raw(`{"jsonrpc":"2.0","id":`).raw(l.id).raw(`,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`).raw(l.id).raw(`}}}`)
			s.post(ss, w.String())
		}
	}
	ss.listens, ss.subs, ss.initialized = nil, map[string]bool{}, false
	ss.ended = ss != &s.main
	s.post(ss, serverStopped)
}

// Sessions returns how many sub-channel sessions exist.
func (s *Server) Sessions() int { return len(s.sessions) }

// Conflict returns why a server with options opt cannot start beside s, or
// "". Two servers cannot share a channel, and a channel cannot be a
// sub-channel of a server that serves sessions.
func (s *Server) Conflict(opt Options) string {
	const p = "serveMCP: "
	a, b := s.opt, opt
	switch {
	case a.Channel == b.Channel:
		return p + "an MCP server already serves the channel " + `"` + b.Channel + `"; stop it first or choose another channel`
	case a.Sessions && hasPrefix(b.Channel, a.Channel+"/"):
		return p + `the channel "` + b.Channel + `" is a session sub-channel of the server on "` + a.Channel + `" (sessions: true); choose another channel`
	case b.Sessions && hasPrefix(a.Channel, b.Channel+"/"):
		return p + `an MCP server serves "` + a.Channel + `", a sub-channel of "` + b.Channel + `"; with sessions: true choose another channel`
	}
	return ""
}

func (s *Server) post(ss *session, msg string) {
	s.host.Post(s.id, ss.name, msg, AttachNone, nil, 0)
}

// allowed reports whether origin may talk to the server.
func (s *Server) allowed(origin string) bool {
	for _, o := range s.opt.AllowedOrigins {
		if o == "*" || o == origin {
			return true
		}
	}
	return false
}

// Handle takes one client-to-server message that arrived from origin;
// sameWindow tells whether its source is the page's own window.
// m.Session names the sub-channel it came on (a string), or is undefined for
// the main channel.
func (s *Server) Handle(origin string, sameWindow bool, m *Message) {
	if !sameWindow || !s.allowed(origin) {
		return
	}
	ss := &s.main
	if m.Session.Kind != registry.KindUndefined {
		if ss = s.session(m); ss == nil {
			return
		}
	}
	switch m.Payload.Kind {
	case registry.KindString:
		if m.Payload.Str == checkReady {
			s.post(ss, serverReady)
		} else if m.Payload.Str == sessionClose && ss != &s.main {
			s.close(ss)
		}
		return
	case registry.KindObject:
	default:
		s.fail(ss, "null", false, codeInvalidRequest, "Invalid Request: a JSON-RPC message is an object", "")
		return
	}
	if m.Method.Kind == registry.KindUndefined && (m.Result.Present() || m.Error.Present()) {
		return // a response: this server sends no requests
	}
	hasID := m.ID.Present()
	id := idText(m.ID, m.IDJSON.Str)
	if m.JSONRPC.Str != "2.0" || m.Method.Kind != registry.KindString || hasID && id == "null" {
		if hasID {
			s.fail(ss, id, false, codeInvalidRequest, `Invalid Request: expected {"jsonrpc": "2.0", "method": string, "id"?: string or number}`, "")
		}
		return
	}
	if m.Params.Present() && m.Params.Kind != registry.KindObject {
		if hasID {
			s.fail(ss, id, false, codeInvalidParams, "Invalid params: params must be an object", "")
		}
		return
	}
	if !hasID {
		s.notification(ss, m)
		return
	}
	modern := m.MetaVersion.Present()
	switch {
	case modern && m.MetaVersion.Kind != registry.KindString:
		s.fail(ss, id, true, codeInvalidParams, `Invalid params: _meta["io.modelcontextprotocol/protocolVersion"] must be a string`, "")
	case modern && m.MetaVersion.Str != Modern:
		w := &writer{}
		w.raw(`{"supported":["` + Modern + `","` + Legacy + `"],"requested":`).str(m.MetaVersion.Str).raw("}")
		s.fail(ss, id, false, codeUnsupportedVersion, "Unsupported protocol version", w.String())
	case modern && m.MetaCapabilities.Kind != registry.KindObject:
		s.fail(ss, id, true, codeInvalidParams, `Invalid params: _meta["io.modelcontextprotocol/clientCapabilities"] is required`, "")
	default:
		s.request(ss, id, m.Method.Str, m, modern)
	}
}

// session returns the session of the sub-channel m came on, creating it for
// its first message; nil when the server serves no sessions, the name is
// not one, the message closes a session that does not exist, or there are
// too many sessions (m is then answered with an error).
func (s *Server) session(m *Message) *session {
	name := m.Session.Str
	if !s.opt.Sessions || m.Session.Kind != registry.KindString || !validSessionName(name) {
		return nil
	}
	for _, ss := range s.sessions {
		if ss.name == name {
			return ss
		}
	}
	if m.Payload.Kind == registry.KindString && m.Payload.Str == sessionClose {
		s.post(&session{name: name}, serverStopped) // already closed: say so again
		return nil
	}
	if len(s.sessions) >= s.opt.MaxSessions {
		// A request is answered with its id; any other message but a
		// notification or a response, with a null id.
		id, request := "null", m.Payload.Kind == registry.KindObject && m.Method.Kind == registry.KindString
		if request {
			id = idText(m.ID, m.IDJSON.Str)
		}
		if request && m.ID.Present() || m.Payload.Kind != registry.KindObject {
			s.fail(&session{name: name}, id, false, codeTooManySessions, "modelcontext: too many MCP sessions on the channel "+`"`+
				s.opt.Channel+`" (at most `+itoa(s.opt.MaxSessions)+`, serveMCP's maxSessions); close one with "mcp-session-close" first`, "")
		}
		return nil
	}
	ss := &session{name: name, subs: map[string]bool{}}
	s.sessions = append(s.sessions, ss)
	return ss
}

// close ends a sub-channel's session at its client's request.
func (s *Server) close(ss *session) {
	for i, x := range s.sessions {
		if x == ss {
			s.sessions = append(s.sessions[:i:i], s.sessions[i+1:]...)
			break
		}
	}
	s.end(ss, false)
}

// validSessionName reports whether name is 1 to 64 characters from
// A-Z a-z 0-9 . _ ~ -.
func validSessionName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '~' || c == '-') {
			return false
		}
	}
	return true
}

// idText is the JSON text that echoes a request id, or "null" for an id
// that is neither a string nor a number. A number is echoed as the loader
// wrote it (JSON.stringify), once checked to be a number.
func idText(id registry.Field, text string) string {
	switch id.Kind {
	case registry.KindString:
		return (&writer{}).str(id.Str).String()
	case registry.KindNumber:
		if jsonNumber(text) {
			return text
		}
	}
	return "null"
}

// jsonNumber reports whether s is a JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func (s *Server) notification(ss *session, m *Message) {
	switch m.Method.Str {
	case "notifications/initialized":
		ss.initialized = true
	case "notifications/cancelled":
		for i, l := range ss.listens {
			if m.RequestID.Kind == registry.KindString && l.id == m.RequestID.Str {
				ss.listens = append(ss.listens[:i:i], ss.listens[i+1:]...)
				break
			}
		}
	}
}

func (s *Server) request(ss *session, id, method string, m *Message, modern bool) {
	switch {
	case method == "resources/list":
		s.list(ss, id, m, modern, false)
	case method == "resources/templates/list":
		s.list(ss, id, m, modern, true)
	case method == "resources/read":
		s.read(ss, id, m, modern)
	case method == "initialize" && !modern:
		s.initialize(ss, id, m)
	case method == "ping" && !modern:
		s.result(ss, id, false, "", "{}")
	case method == "resources/subscribe" && !modern, method == "resources/unsubscribe" && !modern:
		uri := m.URI
		if uri.Kind != registry.KindString {
			s.fail(ss, id, false, codeInvalidParams, `Invalid params: "uri" must be a string`, "")
			return
		}
		if method == "resources/unsubscribe" {
			delete(ss.subs, uri.Str)
		} else if rid, _ := s.reg.Lookup(uri.Str); rid == 0 {
			s.notFound(ss, id, false, uri)
			return
		} else {
			ss.subs[uri.Str] = true
		}
		s.result(ss, id, false, "", "{}")
	case method == "server/discover" && modern:
		s.discover(ss, id)
	case method == "subscriptions/listen" && modern:
		s.listen(ss, id, m)
	case method == "server/discover", method == "subscriptions/listen":
		s.fail(ss, id, false, codeInvalidParams, `Invalid params: `+method+` is a `+Modern+` request; it needs _meta["io.modelcontextprotocol/protocolVersion"]`, "")
	default:
		s.fail(ss, id, modern, codeMethodNotFound, "Method not found: "+method, "")
	}
}

func (s *Server) initialize(ss *session, id string, m *Message) {
	v := m.ProtocolVersion.Str
	version := Legacy
	for _, known := range legacyVersions {
		if v == known {
			version = v
		}
	}
	// A new handshake is a new client: the previous one's subscriptions end.
	// list_changed may follow the answer at once: notifications are not
	// requests, which must wait for notifications/initialized.
	ss.subs = map[string]bool{}
	ss.initialized = true
	w := &writer{}
	w.raw(`{"protocolVersion":`).str(version).
		raw(`,"capabilities":{"resources":{"subscribe":true,"listChanged":true}},"serverInfo":`)
	serverInfo(w)
	w.raw(`,"instructions":"Live resources of this page: list them, read them, and subscribe to follow their changes."}`)
	s.result(ss, id, false, "", w.String())
}

func serverInfo(w *writer) {
	w.raw(`{"name":"modelcontext","version":"` + Version + `"}`)
}

func (s *Server) discover(ss *session, id string) {
	w := &writer{}
	w.raw(`{"supportedVersions":["` + Modern + `","` + Legacy + `"],"capabilities":{"resources":{"subscribe":true,"listChanged":true}},"serverInfo":`)
	serverInfo(w)
	s.result(ss, id, true, "cache", w.raw("}").String())
}

// list answers resources/list or resources/templates/list, one page at a
// time. A cursor is the decimal offset of the page it starts.
func (s *Server) list(ss *session, id string, m *Message, modern, templates bool) {
	ids := s.reg.Order(nil, templates)
	offset := 0
	if c := m.Cursor; c.Present() {
		n, ok := atoi(c.Str)
		if c.Kind != registry.KindString || !ok || n > len(ids) {
			s.fail(ss, id, modern, codeInvalidParams, "Invalid params: unknown cursor", "")
			return
		}
		offset = n
	}
	last := min(offset+s.opt.PageSize, len(ids))
	w := s.begin(id).raw("{")
	if last < len(ids) {
		w.key("nextCursor").str(itoa(last))
	}
	attach := AttachResources
	if templates {
		attach = AttachTemplates
	}
	s.finish(ss, modern, "cache", attach, ids[offset:last], 0)
}

func (s *Server) read(ss *session, id string, m *Message, modern bool) {
	uri := m.URI
	if uri.Kind != registry.KindString {
		s.fail(ss, id, modern, codeInvalidParams, `Invalid params: "uri" must be a string`, "")
		return
	}
	rid, ps := s.reg.Lookup(uri.Str)
	mimeType, ok := s.reg.MIMEType(rid)
	if !ok {
		s.notFound(ss, id, modern, uri)
		return
	}
	class := Classify(mimeType)
	s.lastRead++
	s.reads[s.lastRead] = read{sess: ss, rpcID: id, modern: modern, uri: uri.Str, mimeType: mimeType, class: class}
	s.host.Read(s.id, s.lastRead, rid, ParamsJSON(ps), class)
}

// ParamsJSON renders template parameters as a JSON object, or "" for none.
func ParamsJSON(ps []registry.Param) string {
	if ps == nil {
		return ""
	}
	w := &writer{}
	w.raw("{")
	for _, p := range ps {
		w.key(p.Name).str(p.Value)
	}
	return w.raw("}").String()
}

// ReadDone finishes read req with the value the host prepared: its handle,
// kind and size in bytes; for bytes, whether they are valid UTF-8; for a
// failure, the error's message.
func (s *Server) ReadDone(req int32, kind ValueKind, v registry.Value, size int, utf8 bool, errMsg string) {
	r, ok := s.reads[req]
	if !ok || r.sess.ended { // the server stopped or the session closed meanwhile
		delete(s.reads, req)
		s.host.Release(v)
		return
	}
	delete(s.reads, req)
	switch {
	case kind == ValueFailed:
		s.host.Release(v)
		s.fail(r.sess, r.rpcID, r.modern, codeInternal, "reading "+r.uri+" failed: "+errMsg, "")
		return
	case size > s.opt.MaxBytes:
		s.host.Release(v)
		s.fail(r.sess, r.rpcID, r.modern, codeInternal, "reading "+r.uri+" failed: the value is "+itoa(size)+
			" bytes, more than the limit of "+itoa(s.opt.MaxBytes)+" (serveMCP's maxBytes)", "")
		return
	}
	attach := AttachText
	if kind == ValueBytes && !(r.class != MIMEOther && utf8) {
		attach = AttachBlob
	}
	s.begin(r.rpcID).raw(`{"contents":[{"uri":`).str(r.uri).raw(`,"mimeType":`).str(r.mimeType).raw("}]")
	s.finish(r.sess, r.modern, "cache", attach, nil, v)
}

// listen starts a 2026-07-28 subscription stream: the acknowledgement first,
// then notifications tagged with the request's id; no response until the
// server stops.
func (s *Server) listen(ss *session, id string, m *Message) {
	if m.Notifications.Kind != registry.KindObject {
		s.fail(ss, id, true, codeInvalidParams, `Invalid params: "notifications" must be an object`, "")
		return
	}
	l := &listen{id: id, uris: map[string]bool{}}
	l.listChanged = m.ListChanged.True
	w := &writer{}
	w.raw(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":`).raw(id).raw(`},"notifications":{`)
	if l.listChanged {
		w.key("resourcesListChanged").raw("true")
	}
	if subs := m.Subscriptions; subs.Kind == registry.KindArray {
		w.key("resourceSubscriptions").raw("[")
		n := 0
		for _, u := range subs.Items {
			if u.Kind == registry.KindString && !l.uris[u.Str] {
				if n > 0 {
					w.raw(",")
				}
				w.str(u.Str)
				l.uris[u.Str] = true
				n++
			}
		}
		w.raw("]")
	}
	ss.listens = append(ss.listens, l)
	s.post(ss, w.raw("}}}").String())
}

// Dispatched sends notifications/resources/updated to the subscribers of
// uri, session by session (the main channel's first).
func (s *Server) Dispatched(uri string) {
	s.dispatched(&s.main, uri)
	for _, ss := range s.sessions {
		s.dispatched(ss, uri)
	}
}

func (s *Server) dispatched(ss *session, uri string) {
	if ss.subs[uri] {
		w := &writer{}
		s.post(ss, w.raw(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`).str(uri).raw("}}").String())
	}
	for _, l := range ss.listens {
		if l.uris[uri] {
			w := &writer{}
			w.raw(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":`).raw(l.id).raw(`},"uri":`).str(uri).raw("}}")
			s.post(ss, w.String())
		}
	}
}

// ListChanged sends notifications/resources/list_changed to initialized
// clients and to listen streams that asked for it, session by session.
func (s *Server) ListChanged() {
	s.listChanged(&s.main)
	for _, ss := range s.sessions {
		s.listChanged(ss)
	}
}

func (s *Server) listChanged(ss *session) {
	if ss.initialized {
		s.post(ss, `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`)
	}
	for _, l := range ss.listens {
		if l.listChanged {
			s.post(ss, `{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":`+l.id+`}}}`)
		}
	}
}

// result answers a request with a result object (JSON text).
func (s *Server) result(ss *session, id string, modern bool, cache, obj string) {
	s.begin(id).raw(obj[:len(obj)-1])
	s.finish(ss, modern, cache, AttachNone, nil, 0)
}

// begin starts a result in the server's buffer, up to the result object's
// opening brace; the caller writes its members, then calls finish.
func (s *Server) begin(id string) *writer {
	s.w.b = append(s.w.b[:0], `{"jsonrpc":"2.0","id":`...)
	return s.w.raw(id).raw(`,"result":`)
}

// finish closes the result begun by begin, adding the 2026-07-28 members
// when modern, and posts it on ss's channel. The host reads the message
// before Post returns, so it is handed a view of the buffer, not a copy.
func (s *Server) finish(ss *session, modern bool, cache string, attach Attachment, ids []registry.ID, v registry.Value) {
	w := &s.w
	if modern {
		w.key("resultType").str("complete")
		if cache != "" {
			// Live state: stale at once, and specific to this page's visitor.
			w.key("ttlMs").raw("0").key("cacheScope").str("private")
		}
		w.key("_meta").raw(`{"io.modelcontextprotocol/serverInfo":`)
		serverInfo(w)
		w.raw("}")
	}
	w.raw("}}")
	s.host.Post(s.id, ss.name, unsafe.String(unsafe.SliceData(w.b), len(w.b)), attach, ids, v)
}

func (s *Server) notFound(ss *session, id string, modern bool, uri registry.Field) {
	w := &writer{}
	s.fail(ss, id, modern, codeInvalidParams, "Resource not found: "+uri.Str, w.raw(`{"uri":`).str(uri.Str).raw("}").String())
}

// fail answers a request with an error; data is JSON text or "".
func (s *Server) fail(ss *session, id string, modern bool, code int, msg, data string) {
	w := &writer{}
	w.raw(`{"jsonrpc":"2.0","id":`).raw(id).raw(`,"error":{"code":`).int(code).raw(`,"message":`).str(msg)
	if data != "" {
		w.raw(`,"data":`).raw(data)
	}
	s.post(ss, w.raw("}}").String())
}

// Classify sorts a MIME type: JSON (application/json, *+json), other text
// (text/*, JavaScript, XML, YAML), or anything else.
func Classify(mime string) MIMEClass {
	m := mime
	for i := 0; i < len(m); i++ {
		if m[i] == ';' {
			m = m[:i]
			break
		}
	}
	m = trimLower(m)
	switch {
	case m == "application/json" || hasSuffix(m, "+json"):
		return MIMEJSON
	case hasPrefix(m, "text/"), hasSuffix(m, "+xml"), m == "application/xml",
		m == "application/javascript", m == "application/ecmascript", m == "application/x-javascript",
		m == "application/yaml", m == "application/x-yaml":
		return MIMEText
	}
	return MIMEOther
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
func hasSuffix(s, p string) bool { return len(s) >= len(p) && s[len(s)-len(p):] == p }

func trimLower(s string) string {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == ' ' {
		s = s[:len(s)-1]
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func itoa(n int) string { return (&writer{}).int(n).String() }

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
