package registry

import "github.com/modelcontext-go/modelcontext/wasm/abi"

// ID names one registration. The loader assigns it; IDs are never reused.
// IDs from FrameID on are a connected frame's resources, listed after the
// page's own.
type ID int32

// FrameID is the first ID of a frame's registrations (abi.FrameIDBase).
const FrameID ID = abi.FrameIDBase

// SubID names one consumer subscription (subscribeResource). Never reused.
type SubID int32

// Value is the host's handle of a JavaScript value: a getter's result or a
// thrown error. 0 is no value. The registry releases every handle it is
// given, but a push's value that it no longer holds when Push returns: the
// caller releases that one (see Outcome).
type Value int32

// Result is what the loader found when it compared the value of a push with
// the baseline, the key of the last value dispatched for the registration
// (the loader calls the getter and computes the key; Go decides what the
// push does).
type Result uint8

const (
	ResultSame      Result = iota // the key equals the baseline
	ResultDifferent               // a new key: the loader made it the baseline, and undoes that unless Push dispatches
	ResultNoKey                   // no key can be computed (cycle, BigInt, throwing toJSON): the loader dropped the baseline, likewise
	ResultThrew                   // the getter threw or its Promise rejected: the value is the error
)

// Outcome is what Push did with a result.
type Outcome uint8

const (
	// Dropped: the registration is gone, a newer push was handled first, or
	// the getter failed (and the error was reported). The loader restores
	// the baseline and releases the value.
	Dropped Outcome = iota
	// Suppressed: the value equals the last one dispatched.
	Suppressed
	// Dispatched: the value waits behind the delivery in progress (a push
	// made by a listener or a handler) and is delivered after it; the
	// registry releases it then.
	Dispatched
	// Delivered: the value was delivered before Push returned, and the
	// registry no longer holds it: the caller releases it (one call out of
	// Go fewer than the registry releasing it).
	Delivered
)

// Values are the page's values, held by the host.
type Values interface {
	// Release frees a value handle.
	Release(v Value)
}

// Consumers are the page's listeners and handlers.
type Consumers interface {
	// Dispatch fires resourceupdated for id with value v.
	Dispatch(id ID, v Value)
	// Deliver calls the handler of sub with v and the uri it subscribed to
	// (which stays its uri when its registration is replaced or gone), and
	// returns what it threw, or 0.
	Deliver(sub SubID, v Value) Value
	// EndSubscription forgets the handler of sub.
	EndSubscription(sub SubID)
}

// Console reports to the page's console. Error appends the value v.
type Console interface {
	Error(msg string, v Value)
	Debug(msg string)
}

// Host is everything the registry needs from JavaScript. Every method may
// re-enter the Registry.
type Host interface {
	Values
	Consumers
	Console
}

type entry struct {
	id        ID
	uri       string // the uri, or the uriTemplate of a template
	hash      uint32 // hashURI(uri), for a concrete resource
	mimeType  string
	template  *Template  // nil for a concrete resource
	consumers *consumers // the uri's consumer subscriptions; shared with the registrations it replaced
	live      bool       // the current registration of its uri (in byID)
	handled   uint32     // the newest push (the loader numbers them) whose result was dispatched or suppressed
	prev      *entry     // a current concrete resource's neighbours in the list
	next      *entry
}

// consumers are the consumer subscriptions of one uri, in the order they
// were made. The slice is copied on removal, so that a delivery in progress
// keeps iterating the one it started with.
type consumers struct {
	uri  string // for the report of a handler that threw
	subs []*sub
}

type sub struct {
	id   SubID
	live bool
	of   *consumers
}

// Watcher is told what the page's consumers are told, for the MCP server:
// Dispatched gets the pushed value, which the registry owns and releases
// after the call.
type Watcher interface {
	Dispatched(uri string, v Value)
	ListChanged()
}

// Registry holds the registrations of one page. The zero value is not
// usable; call New.
type Registry struct {
	host      Host
	byID      table  // the current registrations
	byURI     table  // the current concrete resources, by uri
	first     *entry // the current concrete resources in list order, through next
	last      *entry
	templates []*entry // the current templates, in list order, which is the order they match in
	subs      map[SubID]*sub
	watchers  []Watcher
	lastSub   SubID
	debugging bool

	free       []*entry   // unregistered entries for Register to reuse (see newEntry)
	outbox     []delivery // dispatched pushes not yet delivered
	delivering bool
}

// New returns an empty registry that calls out to host.
func New(host Host) *Registry {
	return &Registry{host: host, subs: map[SubID]*sub{}, byURI: table{uris: true}}
}

// SetDebug turns the debug lines on or off; the loader reads the page's
// debug switch at every call into Go.
func (r *Registry) SetDebug(on bool) { r.debugging = on }

// Watch adds a watcher, told of every dispatched push and list change after
// the page's own listeners.
func (r *Registry) Watch(w Watcher) { r.watchers = append(r.watchers, w) }

// Unwatch removes a watcher.
func (r *Registry) Unwatch(w Watcher) {
	for i, x := range r.watchers {
		if x == w {
			r.watchers = append(r.watchers[:i:i], r.watchers[i+1:]...)
			break
		}
	}
}

// ListChanged tells the watchers that the list of resources changed. The
// loader calls it after it fired resourcelistchanged, when an MCP server
// watches.
func (r *Registry) ListChanged() {
	for _, w := range r.watchers {
		w.ListChanged()
	}
}

// ErrRegistration is returned for a registration the loader should never
// have sent: an ID in use, or no key.
var ErrRegistration error = wireError("registry: inconsistent registration")

// Register adds registration id as the current registration of its key (a
// uri, or a uriTemplate: the two are separate lists) and returns the
// registration it replaced, or 0. A replacement takes the place of the one
// it replaces in the list and in the matching order (but the page's that
// replaces a frame's goes last, see FrameID); it starts with no
// baseline, and the consumer subscriptions of the uri stay. The loader runs
// the lifecycle around it (the old teardown, subscribe,
// resourcelistchanged); Register calls nothing of the page's.
func (r *Registry) Register(id ID, reg Registration) (ID, error) {
	if id <= 0 || reg.Key == "" {
		return 0, ErrRegistration
	}
	e := r.newEntry(id, reg)
	if !r.byID.putNew(e) {
		r.recycle(e)
		return 0, ErrRegistration
	}
	old := r.currentOf(e)
	// A page's registration that replaces a frame's (or the reverse) goes
	// last, as a new one: its place was the other's.
	moves := old != nil && (old.id >= FrameID) != (id >= FrameID)
	switch {
	case e.template != nil && old == nil:
		r.templates = append(r.templates, e)
	case e.template != nil && moves:
		i := indexOf(r.templates, old)
		r.templates = append(append(r.templates[:i:i], r.templates[i+1:]...), e)
	case e.template != nil:
		r.templates[indexOf(r.templates, old)] = e
	case old == nil || moves:
		if moves {
			r.byURI.remove(old)
			r.relink(old, nil)
		}
		r.byURI.put(e)
		e.prev = r.last
		if r.last != nil {
			r.last.next = e
		} else {
			r.first = e
		}
		r.last = e
	default:
		r.byURI.replace(old, e)
		r.relink(old, e)
	}
	if old == nil {
		return 0, nil
	}
	r.byID.remove(old)
	old.live = false
	e.consumers = old.consumers
	return old.id, nil
}

// currentOf returns the current registration of e's key (a uri, or a
// uriTemplate), which e is not yet.
func (r *Registry) currentOf(e *entry) *entry {
	if e.template == nil {
		return r.byURI.find(e.uri, e.hash)
	}
	for _, x := range r.templates {
		if x.uri == e.uri {
			return x
		}
	}
	return nil
}

// relink puts e in old's place in the list of concrete resources (or takes
// old out when e is nil).
func (r *Registry) relink(old, e *entry) {
	prev, next := old.prev, old.next
	old.prev, old.next = nil, nil
	if e != nil {
		e.prev, e.next = prev, next
	}
	link := e
	if link == nil {
		link = next
	}
	if prev != nil {
		prev.next = link
	} else {
		r.first = link
	}
	if e == nil {
		link = prev
	}
	if next != nil {
		next.prev = link
	} else {
		r.last = link
	}
}

// maxFree bounds the entries kept for reuse.
const maxFree = 16

// newEntry returns the entry of registration id: one an unregistration left
// behind, or a new one, so that registering and unregistering allocates
// nothing once a page has done it before. A reused entry keeps its uri's
// string when the new registration has the same uri; otherwise the key is
// copied (it may point into the loader's buffer).
//
// Go code that holds an entry across a call out to the page must check,
// after it, that the entry still has the ID it had: the page may have
// unregistered it and registered another into the same entry.
func (r *Registry) newEntry(id ID, reg Registration) *entry {
	var e *entry
	if n := len(r.free); n > 0 {
		e = r.free[n-1]
		r.free[n-1] = nil
		r.free = r.free[:n-1]
	} else {
		e = new(entry)
	}
	// A recycled entry keeps its uri and that uri's hash: a uri registered
	// again (a route's resource, as the visitor comes back to it) is neither
	// copied nor hashed again.
	if e.uri != reg.Key || e.uri == "" {
		e.uri, e.hash = clone(reg.Key), 0
	}
	switch {
	case reg.Template != nil:
		e.hash = 0
	case e.hash == 0:
		e.hash = hashURI(e.uri)
	}
	// The rest is zero: new, or cleared by recycle.
	e.id, e.mimeType, e.template, e.live = id, reg.MIMEType, reg.Template, true
	return e
}

// recycle keeps an unregistered entry for newEntry, dropping what it
// pointed to but its uri.
func (r *Registry) recycle(e *entry) {
	if len(r.free) < maxFree {
		*e = entry{uri: e.uri, hash: e.hash}
		r.free = append(r.free, e)
	}
}

// Unregister removes registration id and reports whether it was a current
// one; it ends the consumer subscriptions of its uri. (The loader runs its
// teardown and fires resourcelistchanged.)
func (r *Registry) Unregister(id ID) bool {
	e := r.byID.get(id)
	if e == nil {
		return false
	}
	r.byID.remove(e)
	e.live = false
	if e.template != nil {
		i := indexOf(r.templates, e)
		r.templates = append(r.templates[:i:i], r.templates[i+1:]...)
	} else {
		r.byURI.remove(e)
		r.relink(e, nil)
		if c := e.consumers; c != nil {
			e.consumers = nil
			for _, s := range c.subs {
				s.live = false
				delete(r.subs, s.id)
				r.host.EndSubscription(s.id)
			}
		}
	}
	r.recycle(e)
	return true
}

// List appends to dst the IDs of the current concrete resources, or of the
// current templates, in list order: the page's own (IDs below FrameID), then
// the frames' (connectFrame's), each in registration order, a replacement
// in the place of the registration it replaced.
func (r *Registry) List(templates bool, dst []ID) []ID {
	framed := false
	if templates {
		for _, e := range r.templates {
			if e.id >= FrameID {
				framed = true
				continue
			}
			dst = append(dst, e.id)
		}
		if framed {
			for _, e := range r.templates {
				if e.id >= FrameID {
					dst = append(dst, e.id)
				}
			}
		}
		return dst
	}
	for e := r.first; e != nil; e = e.next {
		if e.id >= FrameID {
			framed = true
			continue
		}
		dst = append(dst, e.id)
	}
	if framed {
		for e := r.first; e != nil; e = e.next {
			if e.id >= FrameID {
				dst = append(dst, e.id)
			}
		}
	}
	return dst
}

// Match returns the first template, in list order (the page's own, then the
// frames'), that uri is an instance of, with its parameters, or 0. (The
// loader looks a concrete uri up in its cache of the current resources
// first: see js/loader/table.js.)
func (r *Registry) Match(uri string) (ID, []Param) {
	framed := false
	for _, e := range r.templates {
		if e.id >= FrameID {
			framed = true
			continue
		}
		if p, ok := e.template.Match(uri); ok {
			return e.id, p
		}
	}
	if framed {
		for _, e := range r.templates {
			if e.id < FrameID {
				continue
			}
			if p, ok := e.template.Match(uri); ok {
				return e.id, p
			}
		}
	}
	return 0, nil
}

// TemplateID returns the current template registered under uriTemplate, or
// 0.
func (r *Registry) TemplateID(uriTemplate string) ID {
	for _, e := range r.templates {
		if e.uri == uriTemplate {
			return e.id
		}
	}
	return 0
}

// Len returns the number of concrete resources, or of templates.
func (r *Registry) Len(templates bool) int {
	if templates {
		return len(r.templates)
	}
	return r.byID.n - len(r.templates)
}

// Info returns the uri (or uriTemplate) and mimeType of a current
// registration, and whether it is a template.
func (r *Registry) Info(id ID) (key, mimeType string, template, ok bool) {
	e := r.byID.get(id)
	if e == nil {
		return "", "", false, false
	}
	return e.uri, e.mimeType, e.template != nil, true
}

// Subscribe adds a consumer subscription to the pushes of the uri of the
// concrete resource id. It returns 0 when id is not a current concrete
// resource.
func (r *Registry) Subscribe(id ID) SubID {
	e := r.byID.get(id)
	if e == nil || e.template != nil {
		return 0
	}
	if e.consumers == nil {
		e.consumers = &consumers{uri: e.uri}
	}
	r.lastSub++
	s := &sub{id: r.lastSub, live: true, of: e.consumers}
	e.consumers.subs = append(e.consumers.subs, s)
	r.subs[s.id] = s
	return s.id
}

// Unsubscribe ends a consumer subscription. Ending one that has ended does
// nothing.
func (r *Registry) Unsubscribe(id SubID) {
	s := r.subs[id]
	if s == nil {
		return
	}
	delete(r.subs, id)
	s.live = false
	c := s.of
	for i, x := range c.subs {
		if x == s {
			// A fresh slice: a delivery in progress keeps iterating the old one.
			c.subs = append(c.subs[:i:i], c.subs[i+1:]...)
			break
		}
	}
	r.host.EndSubscription(id)
}

// Stats counts what the registry holds, for leak checks.
type Stats struct{ Registrations, Subscriptions int }

// Stats returns the current counts.
func (r *Registry) Stats() Stats {
	return Stats{Registrations: r.byID.n, Subscriptions: len(r.subs)}
}

// debug logs before + the uri of e + after in debug mode. The line is built
// only then, and debug is small enough to be inlined, so that a push in
// normal mode pays one test.
func (r *Registry) debug(before string, e *entry, after string) {
	if r.debugging {
		r.debugLine(before, e, after)
	}
}

// debugLine is debug's line, apart so that debug stays small enough to
// inline.
func (r *Registry) debugLine(before string, e *entry, after string) {
	r.host.Debug("[modelcontext] " + before + e.uri + after)
}

// indexOf returns where e is in es; it must be there.
func indexOf(es []*entry, e *entry) int {
	for i, x := range es {
		if x == e {
			return i
		}
	}
	panic("registry: a registration missing from its list")
}

// Quote writes s as a double-quoted string for a message, the way the page
// author typed it (without escaping), as the loader's messages do.
func Quote(s string) string { return `"` + s + `"` }
