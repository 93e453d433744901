package mcp

import "github.com/modelcontext-go/modelcontext/wasm/registry"

// The resource methods: list, read, subscribe (2025-11-25) and listen
// (2026-07-28), and the notifications they lead to.

type listen struct {
	id          string // the raw JSON id of the listen request
	listChanged bool
	changes     bool // its updates carry patches or contents (_meta[Changes])
	uris        map[string]bool
}

type read struct {
	sess     *session
	rpcID    string
	modern   bool
	uri      string
	mimeType string
}

// list answers resources/list or resources/templates/list, one page at a
// time. A cursor is the decimal offset of the page it starts.
func (s *Server) list(ss *session, id string, m *Message, modern, templates bool) {
	n := s.reg.Len(templates)
	offset := 0
	if c := m.Cursor; c.Present() {
		o, ok := atoi(c.Str)
		if c.Kind != registry.KindString || !ok || o > n {
			s.fail(ss, id, modern, codeInvalidParams, "Invalid params: unknown cursor", "")
			return
		}
		offset = o
	}
	last := min(offset+s.opt.PageSize, n)
	w := s.begin(id).raw("{")
	if last < n {
		w.key("nextCursor").str(itoa(last))
	}
	attach := AttachResources
	if templates {
		attach = AttachTemplates
	}
	s.finish(ss, modern, "cache", false, attach, offset, last-offset, 0)
}

// resource returns the registration that the loader found for the request's
// uri, or answers the request with an error and returns 0.
func (s *Server) resource(ss *session, id string, m *Message, modern bool) (registry.ID, string) {
	if m.URI.Kind != registry.KindString {
		s.fail(ss, id, modern, codeInvalidParams, `Invalid params: "uri" must be a string`, "")
		return 0, ""
	}
	rid := registry.ID(m.Resource.Num)
	_, mimeType, _, ok := s.reg.Info(rid)
	if m.Resource.Kind != registry.KindNumber || !ok {
		s.notFound(ss, id, modern, m.URI.Str)
		return 0, ""
	}
	return rid, mimeType
}

// notFound answers a request for a uri no registration serves: -32002 in a
// 2025-11-25 session (that revision's SHOULD), -32602 for a 2026-07-28
// request (its changelog moved it), with the uri as data either way.
func (s *Server) notFound(ss *session, id string, modern bool, uri string) {
	code := codeResourceNotFound
	if modern {
		code = codeInvalidParams
	}
	w := &writer{}
	s.fail(ss, id, modern, code, "Resource not found: "+uri, w.raw(`{"uri":`).str(uri).raw("}").String())
}

func (s *Server) read(ss *session, id string, m *Message, modern bool) {
	rid, mimeType := s.resource(ss, id, m, modern)
	if rid == 0 {
		return
	}
	s.lastRead++
	if s.lastRead == 0 { // wrapped: 0 marks next as empty
		s.lastRead++
	}
	r := read{sess: ss, rpcID: id, modern: modern, uri: m.URI.Str, mimeType: mimeType}
	if s.nextID == 0 {
		s.next, s.nextID = r, s.lastRead
	} else {
		s.reads[s.lastRead] = r
	}
	s.host.Read(s.id, s.lastRead, rid, m.ResourceParams.Str)
}

// takeRead removes read req from those waiting and returns it.
func (s *Server) takeRead(req int32) (read, bool) {
	if req == s.nextID && req != 0 {
		r := s.next
		s.next, s.nextID = read{}, 0
		return r, true
	}
	r, ok := s.reads[req]
	delete(s.reads, req)
	return r, ok
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

// ReadDone finishes read req with the content the host prepared: its
// handle, kind and length (UTF-16 code units for text, bytes for a blob);
// for a failure, the error's message.
func (s *Server) ReadDone(req int32, kind Content, v registry.Value, length int, errMsg string) {
	r, ok := s.takeRead(req)
	if !ok || r.sess.ended { // the server stopped or the session closed meanwhile
		s.host.Release(v)
		return
	}
	if kind == ContentFailed {
		s.host.Release(v)
		s.fail(r.sess, r.rpcID, r.modern, codeInternal, "reading "+r.uri+" failed: "+errMsg, "")
		return
	}
	if size, over := s.size(kind, v, length); over {
		s.host.Release(v)
		s.fail(r.sess, r.rpcID, r.modern, codeInternal, "reading "+r.uri+" failed: the value is "+itoa(size)+
			" bytes, more than the limit of "+itoa(s.opt.MaxBytes)+" (serveMCP's maxBytes)", "")
		return
	}
	attach := AttachText
	if kind == ContentBlob {
		attach = AttachBlob
	} else if r.sess.changes {
		attach = AttachTextKept
	}
	s.begin(r.rpcID).raw(`{"contents":[{"uri":`).str(r.uri).raw(`,"mimeType":`).str(r.mimeType).raw("}]")
	s.finish(r.sess, r.modern, "cache", true, attach, 0, 0, v)
}

// size returns the size in bytes of prepared content and whether it is over
// maxBytes. A text of n UTF-16 code units is n to 3n UTF-8 bytes: its UTF-8
// length is asked of the host only when that range reaches the limit.
func (s *Server) size(kind Content, v registry.Value, length int) (int, bool) {
	if kind == ContentText && length*3 > s.opt.MaxBytes {
		length = s.host.TextBytes(v)
	} else if kind == ContentText {
		return length, false
	}
	return length, length > s.opt.MaxBytes
}

// subscribe answers resources/subscribe (on) and resources/unsubscribe.
func (s *Server) subscribe(ss *session, id string, m *Message, on bool) {
	if !on {
		if m.URI.Kind != registry.KindString {
			s.fail(ss, id, false, codeInvalidParams, `Invalid params: "uri" must be a string`, "")
			return
		}
		delete(ss.subs, m.URI.Str)
	} else if rid, _ := s.resource(ss, id, m, false); rid == 0 {
		return
	} else {
		ss.subs[m.URI.Str] = true
	}
	s.result(ss, id, false, "", "{}")
}

// listen starts a 2026-07-28 subscription stream: the acknowledgement first,
// then notifications tagged with the request's id; no response until the
// server stops.
func (s *Server) listen(ss *session, id string, m *Message) {
	if m.Notifications.Kind != registry.KindObject {
		s.fail(ss, id, true, codeInvalidParams, `Invalid params: "notifications" must be an object`, "")
		return
	}
	subs := m.Subscriptions
	if subs.Present() && !stringArray(subs) {
		s.fail(ss, id, true, codeInvalidParams, `Invalid params: "notifications.resourceSubscriptions" must be an array of uris`, "")
		return
	}
	if c := m.MetaChanges; c.Present() && c.Kind != registry.KindBoolean {
		s.fail(ss, id, true, codeInvalidParams, `Invalid params: _meta["`+Changes+`"] must be true or false`, "")
		return
	}
	l := &listen{id: id, uris: map[string]bool{}, listChanged: m.ListChanged.True, changes: m.MetaChanges.True}
	ss.changes = ss.changes || l.changes
	w := &writer{}
	w.raw(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":`).raw(id).raw(`},"notifications":{`)
	if l.listChanged {
		w.key("resourcesListChanged").raw("true")
	}
	if subs.Present() {
		w.key("resourceSubscriptions").raw("[")
		for _, u := range subs.Items {
			if !l.uris[u.Str] {
				if len(l.uris) > 0 {
					w.raw(",")
				}
				w.str(u.Str)
				l.uris[u.Str] = true
			}
		}
		w.raw("]")
	}
	ss.listens = append(ss.listens, l)
	s.post(ss, w.raw("}}}").String())
}

func stringArray(f registry.Field) bool {
	if f.Kind != registry.KindArray {
		return false
	}
	for _, it := range f.Items {
		if it.Kind != registry.KindString {
			return false
		}
	}
	return true
}

// Dispatched sends notifications/resources/updated to the subscribers of
// uri, in every session, with the page's revision; to a session that
// follows changes, with the pushed value v as a patch or contents
// (AttachChanges).
func (s *Server) Dispatched(uri string, v registry.Value) {
	s.dispatched(&s.main, uri, v)
	for _, ss := range s.sessions {
		s.dispatched(ss, uri, v)
	}
}

func (s *Server) dispatched(ss *session, uri string, v registry.Value) {
	if ss.subs[uri] {
		w := &writer{}
		w.raw(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`).str(uri).raw(`,"_meta":{`)
		s.updated(ss, s.revisionMeta(w).raw("}}}").String(), ss.changes, v)
	}
	for _, l := range ss.listens {
		if l.uris[uri] {
			w := &writer{}
			w.raw(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":`).raw(l.id)
			s.updated(ss, s.revisionMeta(w).raw(`},"uri":`).str(uri).raw("}}").String(), l.changes, v)
		}
	}
}

// ListChanged sends notifications/resources/list_changed to initialized
// clients and to listen streams that asked for it, in every session.
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
