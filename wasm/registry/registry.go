package registry

import (
	"slices"
	"strings"
)

// ID names one registration. IDs are never reused.
type ID int32

// SubID names one consumer subscription (subscribeResource). Never reused.
type SubID int32

// Value is the host's handle of a JavaScript value: a getter's result or a
// thrown error. 0 is no value. The registry releases every handle it is given.
type Value int32

// GetStatus says what calling a getter gave.
type GetStatus uint8

const (
	GetValue   GetStatus = iota // the value is ready
	GetPending                  // a Promise: the host calls Registry.Settle later
	GetThrew                    // the getter threw; the handle holds the error
)

// KeyResult says how a value's comparison key relates to the baseline.
type KeyResult uint8

const (
	KeySame      KeyResult = iota // equal to the last dispatched value's key
	KeyDifferent                  // different: the host keeps it as the candidate baseline
	KeyNone                       // no key can be computed (cycle, BigInt, throwing toJSON)
)

// SubscribeStatus says what calling a descriptor's subscribe gave.
type SubscribeStatus uint8

const (
	SubscribeTeardown   SubscribeStatus = iota // returned a teardown function
	SubscribeNoTeardown                        // returned something else; the kind says what
	SubscribeThrew                             // threw; the handle holds the error
)

// Host is everything the registry needs from JavaScript. Every method may
// re-enter the Registry.
type Host interface {
	// Bind attaches the functions and public descriptor of the registration
	// being made to id. It is called once, before any other call naming id.
	Bind(id ID)
	// Subscribe calls the subscribe function of id with an onChange that
	// calls Registry.Push(id).
	Subscribe(id ID) (SubscribeStatus, Kind, Value)
	// Retire runs the teardown of id, if it has one, and forgets id. It
	// returns the error the teardown threw, or 0.
	Retire(id ID) Value
	// Get calls the getter of id. For GetPending the host later calls
	// Registry.Settle(id, push, ...).
	Get(id ID, push uint32) (GetStatus, Value)
	// Compare computes the comparison key of v and compares it with the
	// baseline of id.
	Compare(id ID, v Value) KeyResult
	// SetBaseline makes the key of the last Compare of id its baseline when
	// keep is true, and drops the baseline otherwise.
	SetBaseline(id ID, keep bool)
	// Dispatch fires resourceupdated for id with value v.
	Dispatch(id ID, v Value)
	// Deliver calls the handler of sub with v and the uri of id, and returns
	// what it threw, or 0.
	Deliver(sub SubID, id ID, v Value) Value
	// EndSubscription forgets the handler of sub.
	EndSubscription(sub SubID)
	// Release frees a value handle.
	Release(v Value)
	// ListChanged fires resourcelistchanged.
	ListChanged()
	// Warn and Error report to the console; Error appends the value v.
	Warn(msg string)
	Error(msg string, v Value)
	// Debugging reports whether debug mode is on now; Debug logs a line.
	Debugging() bool
	Debug(msg string)
}

type entry struct {
	id       ID
	uri      string // the uri, or the uriTemplate of a template
	mimeType string
	template *Template // nil for a concrete resource
	list     *list     // the list the entry is in
	teardown bool      // subscribe returned a teardown function
	pullOnly bool      // subscribe threw: its onChange does nothing
	pushes   uint32    // onChange calls so far
	handled  uint32    // the newest push whose result was dispatched or suppressed
}

// list is an ordered set of registrations keyed by uri (or uriTemplate): a
// replacement keeps its slot.
type list struct {
	order []*entry
	byKey map[string]*entry
}

func (l *list) indexOf(e *entry) int {
	for i, x := range l.order {
		if x == e {
			return i
		}
	}
	panic("registry: registration missing from its list")
}

// Watcher is told what the page's consumers are told, for the MCP server.
type Watcher interface {
	Dispatched(uri string)
	ListChanged()
}

// Registry holds the registrations of one page. The zero value is not
// usable; call New.
type Registry struct {
	host      Host
	resources list
	templates list
	byID      map[ID]*entry
	subURI    map[SubID]string
	subs      map[string][]SubID // consumer subscriptions by uri, in order
	watchers  []Watcher
	lastID    ID
	lastSub   SubID

	outbox     []delivery // dispatched pushes not yet delivered
	delivering bool
}

// New returns an empty registry that calls out to host.
func New(host Host) *Registry {
	return &Registry{
		host:      host,
		resources: list{byKey: map[string]*entry{}},
		templates: list{byKey: map[string]*entry{}},
		byID:      map[ID]*entry{},
		subURI:    map[SubID]string{},
		subs:      map[string][]SubID{},
	}
}

// Watch adds a watcher, told of every dispatched push and list change after
// the page's own listeners.
func (r *Registry) Watch(w Watcher) { r.watchers = append(r.watchers, w) }

// Unwatch removes a watcher.
func (r *Registry) Unwatch(w Watcher) {
	if i := slices.Index(r.watchers, w); i >= 0 {
		r.watchers = slices.Delete(r.watchers, i, i+1)
	}
}

func (r *Registry) listChanged() {
	r.host.ListChanged()
	for _, w := range r.watchers {
		w.ListChanged()
	}
}

// DefaultMIMEType is the mimeType of a resource whose descriptor has none.
const DefaultMIMEType = "application/json"

// Register validates d and registers it, replacing a registration of the
// same uri (or uriTemplate) in place: the old teardown runs first, the new
// registration starts with no baseline, and the list keeps its order. It
// returns the new ID, or a *ValidationError and changes nothing.
func (r *Registry) Register(d *Descriptor) (ID, error) {
	if err := Validate(d); err != nil {
		return 0, err
	}
	r.lastID++
	e := &entry{id: r.lastID, uri: d.URI.Str, mimeType: DefaultMIMEType, list: &r.resources}
	if d.URITemplate.Present() {
		e.uri, e.list = d.URITemplate.Str, &r.templates
		e.template, _ = ParseTemplate(e.uri)
	}
	if d.MIMEType.Present() {
		e.mimeType = d.MIMEType.Str
	}
	r.host.Bind(e.id)
	l := e.list
	old := l.byKey[e.uri]
	l.byKey[e.uri] = e
	r.byID[e.id] = e
	if old != nil {
		l.order[l.indexOf(old)] = e
		delete(r.byID, old.id)
		r.retire(old)
	} else {
		l.order = append(l.order, e)
	}
	if d.Subscribe.Present() {
		r.subscribe(e)
	}
	if old != nil {
		r.debug(`replaced "`, e.uri, `"`)
	} else {
		r.debug(`registered "`, e.uri, `"`)
	}
	r.listChanged()
	return e.id, nil
}

func (r *Registry) subscribe(e *entry) {
	status, kind, v := r.host.Subscribe(e.id)
	switch status {
	case SubscribeTeardown:
		e.teardown = true
	case SubscribeNoTeardown:
		r.host.Warn("modelcontext: subscribe() of " + quote(e.uri) + " returned " + kind.String() +
			", not a teardown function; this subscription can never be torn down and leaks")
	case SubscribeThrew:
		e.pullOnly = true
		r.host.Error("modelcontext: subscribe() of "+quote(e.uri)+" threw; the resource stays registered as pull-only:", v)
		r.host.Release(v)
	}
}

// retire runs the teardown of a registration that has left the list.
func (r *Registry) retire(e *entry) {
	if e.teardown {
		r.debug(`teardown of "`, e.uri, `"`)
	}
	if v := r.host.Retire(e.id); v != 0 {
		r.host.Error("modelcontext: the teardown of "+quote(e.uri)+" threw:", v)
		r.host.Release(v)
	}
}

// Unregister removes the registration id if it is still the current one for
// its uri: it runs the teardown, ends the consumer subscriptions of the uri
// and fires resourcelistchanged. Otherwise it does nothing.
func (r *Registry) Unregister(id ID) {
	e := r.byID[id]
	if e == nil {
		return
	}
	l := e.list
	delete(r.byID, id)
	delete(l.byKey, e.uri)
	l.order = slices.Delete(l.order, l.indexOf(e), l.indexOf(e)+1)
	if e.template == nil {
		subs := r.subs[e.uri]
		delete(r.subs, e.uri)
		for _, s := range subs {
			delete(r.subURI, s)
			r.host.EndSubscription(s)
		}
	}
	r.retire(e)
	r.debug(`unregistered "`, e.uri, `"`)
	r.listChanged()
}

// Lookup returns the registration that serves uri: a concrete resource
// first, then the first template, in registration order, that matches it,
// with the template's parameters. It returns 0 when none does.
func (r *Registry) Lookup(uri string) (ID, []Param) {
	if e := r.resources.byKey[uri]; e != nil {
		return e.id, nil
	}
	for _, e := range r.templates.order {
		if p, ok := e.template.Match(uri); ok {
			return e.id, p
		}
	}
	return 0, nil
}

// Order appends the IDs of the concrete resources, or of the templates, in
// list order, to dst.
func (r *Registry) Order(dst []ID, templates bool) []ID {
	l := &r.resources
	if templates {
		l = &r.templates
	}
	for _, e := range l.order {
		dst = append(dst, e.id)
	}
	return dst
}

// Len returns the number of concrete resources.
func (r *Registry) Len() int { return len(r.resources.order) }

// MIMEType returns the mimeType of a live registration.
func (r *Registry) MIMEType(id ID) (string, bool) {
	e := r.byID[id]
	if e == nil {
		return "", false
	}
	return e.mimeType, true
}

// NotFoundMessage is the message of the NotFoundError for uri.
func NotFoundMessage(uri string) string {
	return "modelcontext: no resource is registered for uri " + quote(uri)
}

// Subscribe adds a consumer subscription to the pushes of uri. It returns 0
// when no concrete resource is registered under uri: templates are pull-only.
func (r *Registry) Subscribe(uri string) SubID {
	if r.resources.byKey[uri] == nil {
		return 0
	}
	r.lastSub++
	r.subs[uri] = append(r.subs[uri], r.lastSub)
	r.subURI[r.lastSub] = uri
	return r.lastSub
}

// Unsubscribe ends a consumer subscription. Ending one that has ended does
// nothing.
func (r *Registry) Unsubscribe(s SubID) {
	uri, ok := r.subURI[s]
	if !ok {
		return
	}
	delete(r.subURI, s)
	list := r.subs[uri]
	for i, x := range list {
		if x == s {
			// A fresh slice: a dispatch in progress keeps iterating the old one.
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(r.subs, uri)
	} else {
		r.subs[uri] = list
	}
	r.host.EndSubscription(s)
}

// Stats counts what the registry holds, for leak checks.
type Stats struct{ Registrations, Subscriptions int }

// Stats returns the current counts.
func (r *Registry) Stats() Stats {
	return Stats{Registrations: len(r.byID), Subscriptions: len(r.subURI)}
}

// debug logs the concatenation of parts in debug mode. The parts are joined
// only then: a push in normal mode builds no string.
func (r *Registry) debug(parts ...string) {
	if r.host.Debugging() {
		r.host.Debug("[modelcontext] " + strings.Join(parts, ""))
	}
}
