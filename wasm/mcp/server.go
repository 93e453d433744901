// Package mcp serves the registry as a Model Context Protocol resource server
// over the MCP-B tab transport: JSON-RPC 2.0 in {channel, type: "mcp",
// direction, payload} envelopes on window.postMessage.
//
// It speaks revision 2025-11-25 (initialize, resources/subscribe) and, chosen
// per request by _meta["io.modelcontextprotocol/protocolVersion"], revision
// 2026-07-28 (no handshake, server/discover, subscriptions/listen, resultType
// and cache hints on results). Like the registry, it is plain Go: the page's
// values never enter it. The loader extracts the fields the server reads from
// each message (MessageFields) and looks the uri of a request up; a read asks
// the [Host] to prepare the value, and the response names the value's handle
// so that the host inserts the content as it posts the message. The list of
// resources a page of resources/list carries is the loader's too: the server
// says which slice of it to insert.
//
// # Sessions
//
// A server has one client session on its channel: a new initialize starts it
// over. With Options.Sessions, it also serves the sub-channels
// "<channel>/<name>", each a session of its own (its handshake, its
// subscriptions, its listen streams), so that several clients share one page
// without seeing each other (the relay, wasm/cmd/relay, gives each of its
// clients one). A sub-channel's first message creates its session; the
// payload "mcp-session-close" on it ends the session (answered by
// "mcp-server-stopped" there), and Stop ends them all. At most
// Options.MaxSessions exist at once: a message that would create one more is
// answered with an error and creates nothing. A name is 1 to 64 characters
// from A-Z a-z 0-9 . _ ~ -; messages on other sub-channels are ignored.
//
// # Security
//
// A message is answered only when it comes from the page's own window and
// from an allowed origin (by default the page's origin). Anything else is
// dropped without an answer: the loader drops it before reading it, and
// Handle checks again. Malformed messages from an allowed sender get a
// JSON-RPC error (when they carry an id) and change nothing; so does one over
// MaxMessageText, of which the loader copies only the short strings.
package mcp

import (
	"unsafe"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Revisions this server speaks, named by their date.
const (
	ProtocolVersion20251125 = "2025-11-25" // initialize handshake, resources/subscribe
	ProtocolVersion20260728 = "2026-07-28" // no handshake, _meta on each request
)

// handshakeVersions are the revisions an initialize is answered with as asked.
var handshakeVersions = []string{ProtocolVersion20251125, "2025-06-18", "2025-03-26", "2024-11-05"}

// Version is the module version reported as serverInfo.
const Version = "0.4.0"

// JSON-RPC and MCP error codes.
const (
	codeInvalidRequest     = -32600
	codeMethodNotFound     = -32601
	codeInvalidParams      = -32602
	codeInternal           = -32603
	codeResourceNotFound   = -32002 // 2025-11-25's unknown uri
	codeUnsupportedVersion = -32022
	codeTooManySessions    = -32000
)

// Payloads of the tab transport's control messages. The loader announces
// a server before Go runs (ServerReady, ServerStopped) and is a client of a
// connected frame's (CheckReady), so those are exported for wasm/cmd/jsbuild
// to write into it.
const (
	CheckReady    = "mcp-check-ready"
	sessionClose  = "mcp-session-close"
	ServerReady   = "mcp-server-ready"
	ServerStopped = "mcp-server-stopped"
	serverReady   = `"` + ServerReady + `"`
	serverStopped = `"` + ServerStopped + `"`
)

// DefaultChannel is the tab transport's channel when serveMCP names none.
const DefaultChannel = "mcp-default"

// ParentChannel is MCP-B's iframe transport channel, on which serveMCP's
// parent option answers the page's parent window.
const ParentChannel = "mcp-iframe"

// Attachment says what the host inserts into a posted message.
type Attachment int32

const (
	AttachNone      Attachment = iota
	AttachResources            // result.resources: the loader's resources first .. first+count-1
	AttachTemplates            // result.resourceTemplates, likewise
	AttachText                 // result.contents[0].text: the prepared text
	AttachBlob                 // result.contents[0].blob: the prepared bytes in base64
	// AttachTextKept is AttachText for a session that follows changes: the
	// host also keeps the text as what the session last received of the uri.
	AttachTextKept
	// AttachChanges is a notifications/resources/updated for a session that
	// follows changes: the host adds to params._meta either MetaPatch, from
	// what the session last received of the uri to the pushed value v, or
	// MetaContents (at most count UTF-16 units of text, else neither), when
	// the resource is JSON; then keeps what it sent. v stays the registry's.
	AttachChanges
)

// Content is what the host prepared for a read.
type Content int32

const (
	ContentFailed Content = iota // get threw or rejected, or the value cannot be encoded
	ContentText                  // text: JSON text, or a string or UTF-8 bytes under a text MIME type
	ContentBlob                  // bytes, sent in base64
)

// Host is what the server needs from the page.
type Host interface {
	// Post posts msg (JSON text) on the server's channel, or on its
	// sub-channel "<channel>/<session>" when session is not empty, inserting
	// the attachment: for lists, the loader's entries first .. first+count-1;
	// for contents, the prepared value v, which Post releases. msg is valid
	// only during the call.
	Post(server int32, session, msg string, attach Attachment, first, count int, v registry.Value)
	// Read calls the getter of id (with the template parameters, a JSON
	// object, or "") and prepares its value as content; it then calls
	// Server.ReadDone with req.
	Read(server, req int32, id registry.ID, params string)
	// TextBytes returns the length in UTF-8 bytes of the prepared text v.
	TextBytes(v registry.Value) int
	// Revision returns the page's revision: one more for each dispatched
	// push and each list change.
	Revision() float64
	// Forget drops what a session (or, with session "", the main channel's
	// client) last received: it ended, or a new client took it over.
	Forget(server int32, session string)
	// Complete calls the completer of variable name of template id with
	// value and the arguments already chosen (a JSON object of strings); it
	// then calls Server.CompleteDone with req, at once or later. A template
	// or variable without a completer completes to no values.
	Complete(server, req int32, id registry.ID, name, value, args string)
	Release(v registry.Value)
}

// Options configure a server; ParseOptions reads them from serveMCP's
// argument.
type Options struct {
	Channel        string
	AllowedOrigins []string // "*" allows any origin
	PageSize       int
	MaxBytes       int
	Sessions       bool     // also serve the sub-channels "<channel>/<name>", a session each
	MaxSessions    int      // sub-channel sessions at once
	Parent         []string // also serve the parent window, from these origins (ParentOptions)
}

// Server is one MCP server on one channel.
type Server struct {
	id   int32
	host Host
	reg  *registry.Registry
	opt  Options

	main     session
	sessions []*session // the sub-channels' sessions, oldest first
	// Reads waiting for their value: the one in next (when nextID is not 0),
	// then those in reads. Most reads are answered at once, inside the call
	// that asks for the value, so most never touch the map.
	next     read
	nextID   int32
	reads    map[int32]read
	lastRead int32
	// Completions waiting for their values, by request number.
	completions  map[int32]completion
	lastComplete int32
	w            writer // the response being written
}

// session is one client's state: the main channel's, or a sub-channel's.
type session struct {
	name        string          // the sub-channel, "" for the main channel
	initialized bool            // a 2025-11-25 client completed the handshake
	subs        map[string]bool // 2025-11-25 resources/subscribe
	listens     []*listen       // 2026-07-28 subscriptions/listen streams
	changes     bool            // its client follows changes (Changes): updates carry patches or contents
	ended       bool            // a sub-channel's session that was closed
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
	s := &Server{id: id, host: host, reg: reg, opt: opt, reads: map[int32]read{}, completions: map[int32]completion{}}
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
	clear(s.completions)
	s.next, s.nextID = read{}, 0
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
	s.forget(ss)
	ss.ended = ss != &s.main
	s.post(ss, serverStopped)
}

// Sessions returns how many sub-channel sessions exist.
func (s *Server) Sessions() int { return len(s.sessions) }

// Conflict returns why a server with options opt cannot start beside s, or
// nil. Two servers cannot share a channel, and a channel cannot be a
// sub-channel of a server that serves sessions.
func (s *Server) Conflict(opt Options) error {
	const p = "serveMCP: "
	a, b := s.opt, opt
	switch {
	case a.Channel == b.Channel:
		return optionError(p + "an MCP server already serves the channel " + `"` + b.Channel + `"; stop it first or choose another channel`)
	case a.Sessions && registry.HasPrefix(b.Channel, a.Channel+"/"):
		return optionError(p + `the channel "` + b.Channel + `" is a session sub-channel of the server on "` + a.Channel + `" (sessions: true); choose another channel`)
	case b.Sessions && registry.HasPrefix(a.Channel, b.Channel+"/"):
		return optionError(p + `an MCP server serves "` + a.Channel + `", a sub-channel of "` + b.Channel + `"; with sessions: true choose another channel`)
	}
	return nil
}

func (s *Server) post(ss *session, msg string) { s.host.Post(s.id, ss.name, msg, AttachNone, 0, 0, 0) }

// Handle takes one client-to-server message; sameWindow tells whether its
// source is the window the server serves (the page's own, or its parent for
// a parent server). m.Session names the sub-channel it came on (a string), or
// is undefined for the main channel.
func (s *Server) Handle(m *Message, sameWindow bool) {
	if !sameWindow || !s.allowed(m.Origin) {
		return
	}
	ss := &s.main
	if m.Session.Present() {
		if ss = s.session(m); ss == nil {
			return
		}
	}
	if m.Oversized.True {
		id := "null"
		if m.ID.Present() {
			id = idText(m.ID, m.IDJSON.Str)
		}
		s.fail(ss, id, false, codeInvalidRequest, "modelcontext: the message is over 1 MiB of text; it was not read (send large data in several requests)", "")
		return
	}
	switch m.Payload.Kind {
	case registry.KindString:
		if m.Payload.Str == CheckReady {
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
	id, hasID := idText(m.ID, m.IDJSON.Str), m.ID.Present()
	if code, msg := malformed(m, id); code != 0 {
		// A request is answered with its id. Without an id, a message that
		// has a method is a notification, which gets no answer even when it
		// is broken; one without a method is not even that (JSON-RPC: an
		// invalid request, answered with a null id).
		if hasID {
			s.fail(ss, id, false, code, msg, "")
		} else if m.Method.Kind != registry.KindString {
			s.fail(ss, "null", false, code, msg, "")
		}
		return
	}
	if !hasID {
		s.notification(ss, m)
		return
	}
	modern, code, msg, data := revision(m)
	if code != 0 {
		s.fail(ss, id, modern, code, msg, data)
		return
	}
	s.request(ss, id, m, modern)
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

// allowed reports whether origin may talk to the server.
func (s *Server) allowed(origin registry.Field) bool {
	if origin.Kind != registry.KindString {
		return false
	}
	for _, o := range s.opt.AllowedOrigins {
		if o == "*" || o == origin.Str {
			return true
		}
	}
	return false
}

// malformed checks the JSON-RPC shape of a message whose id text is id, and
// returns the error to answer, or 0.
func malformed(m *Message, id string) (int, string) {
	switch {
	case m.Unreadable.True:
		return codeInvalidRequest, "Invalid Request: a member of the message could not be read"
	case m.JSONRPC.Str != "2.0", m.Method.Kind != registry.KindString, m.ID.Present() && id == "null":
		return codeInvalidRequest, `Invalid Request: expected {"jsonrpc": "2.0", "method": string, "id"?: string or number}`
	case m.Params.Present() && m.Params.Kind != registry.KindObject:
		return codeInvalidParams, "Invalid params: params must be an object"
	}
	return 0, ""
}

// revision tells whether a request is a 2026-07-28 one, and the error to
// answer when its _meta is wrong (code 0 when it is right).
func revision(m *Message) (modern bool, code int, msg, data string) {
	if !m.MetaVersion.Present() {
		return false, 0, "", ""
	}
	switch {
	case m.MetaVersion.Kind != registry.KindString:
		return true, codeInvalidParams, `Invalid params: _meta["` + metaVersion + `"] must be a string`, ""
	case m.MetaVersion.Str != ProtocolVersion20260728:
		w := &writer{}
		w.raw(`{"supported":["` + ProtocolVersion20260728 + `","` + ProtocolVersion20251125 + `"],"requested":`).str(m.MetaVersion.Str).raw("}")
		return false, codeUnsupportedVersion, "Unsupported protocol version", w.String()
	case m.MetaCapabilities.Kind != registry.KindObject:
		return true, codeInvalidParams, `Invalid params: _meta["` + metaCapabilities + `"] is required`, ""
	}
	return true, 0, "", ""
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

func (s *Server) request(ss *session, id string, m *Message, modern bool) {
	switch method := m.Method.Str; {
	case method == "resources/list":
		s.list(ss, id, m, modern, false)
	case method == "resources/templates/list":
		s.list(ss, id, m, modern, true)
	case method == "resources/read":
		s.read(ss, id, m, modern)
	case method == "completion/complete":
		s.complete(ss, id, m, modern)
	case method == "initialize" && !modern:
		s.initialize(ss, id, m)
	case method == "ping" && !modern:
		s.result(ss, id, false, "", "{}")
	case method == "resources/subscribe" && !modern, method == "resources/unsubscribe" && !modern:
		s.subscribe(ss, id, m, method == "resources/subscribe")
	case method == "server/discover" && modern:
		s.discover(ss, id)
	case method == "subscriptions/listen" && modern:
		s.listen(ss, id, m)
	case method == "server/discover", method == "subscriptions/listen":
		s.fail(ss, id, false, codeInvalidParams, `Invalid params: `+method+` is a `+ProtocolVersion20260728+` request; it needs _meta["`+metaVersion+`"]`, "")
	default:
		s.fail(ss, id, modern, codeMethodNotFound, "Method not found: "+method, "")
	}
}

func (s *Server) initialize(ss *session, id string, m *Message) {
	v := m.ProtocolVersion.Str
	version := ProtocolVersion20251125
	for _, known := range handshakeVersions {
		if v == known {
			version = v
		}
	}
	// A new handshake is a new client: the previous one's subscriptions end.
	// list_changed may follow the answer at once: notifications are not
	// requests, which must wait for notifications/initialized.
	ss.subs = map[string]bool{}
	ss.initialized = true
	s.forget(ss)
	ss.changes = m.Changes.Kind == registry.KindObject
	w := &writer{}
	w.raw(`{"protocolVersion":`).str(version).
		raw(`,"capabilities":` + capabilities + `,"serverInfo":`)
	serverInfo(w)
	w.raw(`,"instructions":"Live resources of this page: list them, read them, and subscribe to follow their changes."}`)
	s.result(ss, id, false, "", w.String())
}

// capabilities are the server's, on both revisions.
const capabilities = `{"resources":{"subscribe":true,"listChanged":true},"completions":{},"experimental":{"` + Changes + `":{}}}`

func serverInfo(w *writer) {
	w.raw(`{"name":"modelcontext","version":"` + Version + `"}`)
}

func (s *Server) discover(ss *session, id string) {
	w := &writer{}
	w.raw(`{"supportedVersions":["` + ProtocolVersion20260728 + `","` + ProtocolVersion20251125 + `"],"capabilities":` + capabilities + `,"serverInfo":`)
	serverInfo(w)
	s.result(ss, id, true, "cache", w.raw("}").String())
}

// result answers a request with a result object (JSON text).
func (s *Server) result(ss *session, id string, modern bool, cache, obj string) {
	s.begin(id).raw(obj[:len(obj)-1])
	s.finish(ss, modern, cache, false, AttachNone, 0, 0, 0)
}

// begin starts a result in the server's buffer, up to the result object's
// opening brace; the caller writes its members, then calls finish.
func (s *Server) begin(id string) *writer {
	s.w.b = append(s.w.b[:0], `{"jsonrpc":"2.0","id":`...)
	return s.w.raw(id).raw(`,"result":`)
}

// finish closes the result begun by begin, adding the 2026-07-28 members
// when modern and the page's revision to _meta when rev, and posts it on
// the session's channel. The host reads the message before Post returns, so
// it is handed a view of the buffer, not a copy.
func (s *Server) finish(ss *session, modern bool, cache string, rev bool, attach Attachment, first, count int, v registry.Value) {
	w := &s.w
	if modern {
		w.key("resultType").str("complete")
		if cache != "" {
			// Live state: stale at once, and specific to this page's visitor.
			w.key("ttlMs").raw("0").key("cacheScope").str("private")
		}
		w.key("_meta").raw(`{"io.modelcontextprotocol/serverInfo":`)
		serverInfo(w)
		if rev {
			s.revisionMeta(w)
		}
		w.raw("}")
	} else if rev {
		s.revisionMeta(w.key("_meta").raw("{")).raw("}")
	}
	w.raw("}}")
	s.host.Post(s.id, ss.name, unsafe.String(unsafe.SliceData(w.b), len(w.b)), attach, first, count, v)
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
