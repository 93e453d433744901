package relay

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
)

// A Session is one client's conversation with the page's MCP server, on a
// page session of its own (a lane: the sub-channel "<channel>/<name>").
// Messages pass through as they are, in order. The session keeps just enough
// track of them to survive the page going away:
//
//   - while the page is reloading, the client's messages wait, and are sent
//     once the new page serves MCP again;
//   - requests the old page never answered are answered with an error;
//   - the client's handshake (2025-11-25), its resource subscriptions and its
//     open subscriptions/listen streams (2026-07-28) are made again in the new
//     page, and the client is then told that every resource it follows may
//     have changed (notifications/resources/updated for each, and
//     list_changed where it asked for those), so no subscription ends
//     silently.
type Session struct {
	lane lane
	out  func(*message) // to the client; called in order, with mu held
	logf func(string, ...any)

	mu          sync.Mutex
	up          bool  // the page serves MCP; messages go straight through
	hadPage     bool  // the session has talked to a page before (so up means a reload)
	failed      error // why the page does not serve MCP (after the relay's wait)
	closed      bool
	queue       [][]byte           // client messages waiting for the page
	init        []byte             // the client's last initialize request
	initialized bool               // and it sent notifications/initialized
	subs        map[string]bool    // confirmed resources/subscribe
	pending     map[idKey]*request // client requests the page has not answered
	own         map[idKey]func(*message)
	lastOwn     int
	resent      int      // listen streams opened again whose acknowledgement has not come
	notes       [][]byte // what to tell the client once the session is re-established
}

// lane carries a session's messages to the page.
type lane interface {
	send(raw []byte)
	close()
	name() string
}

type request struct {
	id        json.RawMessage
	method    string
	uri       string
	raw       []byte   // a subscriptions/listen request, sent again after a reload
	listURIs  []string // its resourceSubscriptions
	listLists bool     // its resourcesListChanged
	resent    bool     // re-sent after a reload: the page's acknowledgement is the relay's
}

func newSession(out func(*message), logf func(string, ...any)) *Session {
	return &Session{out: out, logf: logf, subs: map[string]bool{}, pending: map[idKey]*request{}, own: map[idKey]func(*message){}}
}

// errReloaded answers the requests a page took with it (a reload, a
// navigation, a crash).
const errReloaded = "modelcontext: the page reloaded (or navigated away, or crashed) before it answered this request; send it again"

// FromClient takes one message (valid JSON) from the client.
func (s *Session) FromClient(raw []byte) {
	m := parse(raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	switch {
	case m.isRequest():
		if m.key != "" {
			r := &request{id: m.id, method: m.method, uri: m.uri}
			if m.method == "subscriptions/listen" {
				r.raw, r.listURIs, r.listLists = raw, m.listURIs, m.listLists
			}
			s.pending[m.key] = r
		}
		if m.method == "initialize" && m.version == "" {
			// The page starts the session over: so does the relay.
			s.init, s.initialized, s.subs = raw, false, map[string]bool{}
		}
	case m.isNotification():
		switch m.method {
		case "notifications/initialized":
			s.initialized = true
		case "notifications/cancelled":
			if r := s.pending[m.requestID]; r != nil && r.method == "subscriptions/listen" {
				delete(s.pending, m.requestID) // the page ends the stream without an answer
			}
		}
	}
	switch {
	case s.up:
		s.lane.send(raw)
	case s.failed != nil && m.isRequest():
		delete(s.pending, m.key)
		s.out(parse(errorResponse(m.id, codeInternal, s.failed.Error())))
	case s.failed == nil:
		s.queue = append(s.queue, raw)
	}
}

// fromPage takes one message the page posted on the session's lane.
func (s *Session) fromPage(raw []byte) {
	m := parse(raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if m.isResponse() {
		if f := s.own[m.key]; f != nil {
			delete(s.own, m.key)
			f(m)
			return
		}
		if r := s.pending[m.key]; r != nil {
			delete(s.pending, m.key)
			if r.resent { // the new page refused the stream: the client learns it from this answer
				r.resent = false
				s.resent--
				s.restored()
			}
			if m.result {
				switch r.method {
				case "resources/subscribe":
					s.subs[r.uri] = true
				case "resources/unsubscribe":
					delete(s.subs, r.uri)
				}
			}
		}
	}
	if m.method == "notifications/subscriptions/acknowledged" {
		if r := s.pending[m.subID]; r != nil && r.resent {
			r.resent = false
			s.resent--
			s.restored()
			return // the client saw the first acknowledgement; it learns of the reload from the notes
		}
	}
	s.out(m)
}

// pageDown: the page went away (a reload, a navigation, its server
// stopped). Requests it took with it are answered with an error; listen
// streams stay, to be opened again.
func (s *Session) pageDown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || !s.up {
		return
	}
	s.up = false
	keys := make([]idKey, 0, len(s.pending))
	for k := range s.pending {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if r := s.pending[k]; r.method != "subscriptions/listen" {
			delete(s.pending, k)
			s.out(parse(errorResponse(r.id, codeInternal, errReloaded)))
		}
	}
	clear(s.own)
	s.notes, s.resent = nil, 0
	for _, r := range s.pending {
		r.resent = false
	}
}

// pageUp: the page serves MCP (again). A session that had a page before
// re-establishes itself, then sends what waited.
func (s *Session) pageUp() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.up {
		return
	}
	s.up, s.failed = true, nil
	if s.hadPage {
		s.restore()
	}
	s.hadPage = true
	for _, raw := range s.queue {
		s.lane.send(raw)
	}
	s.queue = nil
}

// restore makes the client's handshake, subscriptions and listen streams
// again in the new page; once the page has answered, the client is told.
func (s *Session) restore() {
	s.logf("client session %s: the page reloaded; re-establishing its handshake, %d subscription(s) and its listen streams", s.lane.name(), len(s.subs))
	var notes [][]byte
	if s.init != nil {
		s.ask(s.init, nil)
		if s.initialized {
			s.lane.send(notification("notifications/initialized", nil))
			notes = append(notes, notification("notifications/resources/list_changed", nil))
		}
	}
	uris := make([]string, 0, len(s.subs))
	for u := range s.subs {
		uris = append(uris, u)
	}
	slices.Sort(uris)
	for _, u := range uris {
		u := u
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "resources/subscribe", "params": map[string]string{"uri": u}})
		s.ask(req, func(m *message) {
			if !m.result {
				delete(s.subs, u) // gone from the new page: the client's read will say so
			}
		})
		notes = append(notes, notification("notifications/resources/updated", map[string]string{"uri": u}))
	}
	keys := make([]idKey, 0, len(s.pending))
	for k, r := range s.pending {
		if r.method == "subscriptions/listen" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		r := s.pending[k]
		r.resent = true
		s.resent++
		s.lane.send(r.raw)
		meta := map[string]json.RawMessage{"io.modelcontextprotocol/subscriptionId": r.id}
		if r.listLists {
			notes = append(notes, notification("notifications/resources/list_changed", map[string]any{"_meta": meta}))
		}
		for _, u := range r.listURIs {
			notes = append(notes, notification("notifications/resources/updated", map[string]any{"_meta": meta, "uri": u}))
		}
	}
	s.notes = notes
	s.restored()
}

// ask sends the relay's own request (req, with an id of the relay's); its answer
// goes to then, and the notes go out once no such request is left.
func (s *Session) ask(req []byte, then func(*message)) {
	s.lastOwn++
	id := "modelcontext-relay-" + strconv.Itoa(s.lastOwn)
	s.own[idKey("s"+id)] = func(m *message) {
		if then != nil {
			then(m)
		}
		if m.error {
			s.logf("client session %s: re-establishing after the reload: the page answered %s", s.lane.name(), m.raw)
		}
		s.restored()
	}
	s.lane.send(withID(req, id))
}

// restored tells the client about the reload once the new page has taken
// every request that re-establishes the session (so that a change right
// after the notes is notified by the page itself).
func (s *Session) restored() {
	if len(s.own) > 0 || s.resent > 0 || s.notes == nil {
		return
	}
	for _, n := range s.notes {
		s.out(parse(n))
	}
	s.notes = nil
}

// pageFailed: the page does not serve MCP (sessions), for the reason err.
// Waiting requests are answered with err, and so are later ones until the
// page serves MCP again.
func (s *Session) pageFailed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.up {
		return
	}
	s.failed = err
	for _, raw := range s.queue {
		if m := parse(raw); m.isRequest() {
			delete(s.pending, m.key)
			s.out(parse(errorResponse(m.id, codeInternal, err.Error())))
		}
	}
	s.queue = nil
}

// Close ends the session: the page forgets it, and nothing more is
// delivered.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.lane.close()
}
