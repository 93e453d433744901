// Package modelcontexttest provides a stand-in for the page's
// document.modelContext, so that code that uses package modelcontext can be
// unit-tested with go test on the host, without a browser:
//
//	func TestCart(t *testing.T) {
//		p := modelcontexttest.NewPage(t)
//		unregister, err := registerCart() // the app's own code, calling modelcontext.Register
//		...
//		got, err := modelcontext.Read[Cart](ctx, "state://cart")
//		...
//		p.Wait() // until every push in progress is delivered
//	}
//
// While a test's Page is installed, every function of package modelcontext
// acts on it, with the module's rules: a push is delivered only when its
// value's JSON differs from the last one delivered for that registration;
// registering a uri again replaces the registration in its place, with no
// baseline (its next push is always delivered), and stops the old Watch;
// an unregister is idempotent and only ever removes its own registration;
// consumer subscriptions survive a replacement and end with the
// unregistration; a GetContext runs in a goroutine, and its value is
// dropped when a newer push was delivered first; a failed or panicking Get
// fails the read and reports the push on [Page.Errors]; descriptors are
// refused with the module's own messages.
//
// Those rules are not written here a second time: the Page holds the
// module's own registry (package wasm/registry, which the module runs in
// the browser), which decides which registration is current, the list and
// its order, what a push does (de-duplicated, dropped as late, reported as
// failed, delivered) and who a value is delivered to. The Page plays what
// JavaScript plays around it, as the loader does: it numbers the pushes,
// calls the getters, computes each value's comparison key (its JSON) and
// keeps the baseline, runs the Settle timers and the Watch sources, and
// fires the events. Its validation of descriptors follows the loader's,
// and a test runs the loader's own on the same descriptors (under Node.js)
// to hold the messages to it.
//
// It follows changes as the module does too: the page's revision
// ([Page.Revision], modelcontext.Revision) steps once per resourceupdated
// and resourcelistchanged, each event carries it, modelcontext.ChangesSince
// answers from the revisions each registration was added and changed at and
// from the last 1,024 removals (reset beyond), and modelcontext.Follow with
// WithPatches gets the patches the module would make (a Go twin of its
// differ makes them), with the same rules for when there is none.
//
// Two differences from the browser follow from Go: handlers run on the
// goroutine that completed the push (the one that called onChange, for a
// Get; the GetContext's, for a GetContext), never two at a time, so an
// event a handler causes (a register in an OnUpdated handler) is delivered
// after it returns; and the page is always started, there is no lazy boot.
// [Page.Wait] waits for pushes in progress.
package modelcontexttest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Page stands in for the page's document.modelContext while its test runs:
// the module's registry, with a Go host around it that package modelcontext
// acts on. Make one with [NewPage].
type Page struct {
	mu        sync.Mutex
	idle      *sync.Cond         // signalled when busy falls to 0 or a drain ends
	reg       *registry.Registry // calls back into the Page's host (host.go), with mu held
	lastID    registry.ID
	byID      map[registry.ID]*registration // the current registrations, as the registry answered (the loader's cache)
	byURI     map[string]*registration      // the current concrete resources, by uri
	vals      map[registry.Value]any        // what the registry names by handle: a *value, or a thrown error's text
	lastVal   registry.Value
	subs      map[registry.SubID]*handler // the consumer subscriptions' handlers
	listeners map[string][]*handler       // by event type
	event     page.Event                  // the resourceupdated being delivered, for its subscriptions
	queue     []func()                    // tasks waiting for the drain, run with mu held
	draining  bool
	busy      int // GetContexts running and settle timers pending
	errors    []string
	revision  int64     // one step per event dispatched (changes.go)
	removals  []removal // the last removalsKept, oldest first
	forgotten int64     // the revision of the last removal forgotten
}

// NewPage makes a Page and installs it for the rest of the test: until the
// test ends, package modelcontext acts on it. Then every registration it
// holds ends (its Watch is stopped, its GetContext's context cancelled).
//
// Only one Page can be installed at a time: tests that call NewPage must
// not run in parallel with each other (t.Parallel).
func NewPage(t testing.TB) *Page {
	t.Helper()
	p := newPage()
	restore, ok := page.Install(installed{p})
	if !ok {
		t.Fatal("modelcontexttest: another test's Page is installed; tests that call NewPage must not run in parallel")
	}
	t.Cleanup(func() {
		restore()
		for _, r := range p.close() {
			r.unbind()
		}
	})
	return p
}

// newPage makes a Page, not installed.
func newPage() *Page {
	p := &Page{byID: map[registry.ID]*registration{}, byURI: map[string]*registration{}, vals: map[registry.Value]any{},
		subs: map[registry.SubID]*handler{}, listeners: map[string][]*handler{}}
	p.idle = sync.NewCond(&p.mu)
	p.reg = registry.New((*host)(p))
	return p
}

// close ends every registration (for the registry too, so that a push still
// in progress is dropped) and listener, drops the tasks not yet run, and
// returns the registrations, to unbind.
func (p *Page) close() []*registration {
	p.mu.Lock()
	defer p.mu.Unlock()
	var all []*registration
	for _, id := range append(p.reg.List(false, nil), p.reg.List(true, nil)...) {
		r := p.byID[id]
		p.reg.Unregister(id)
		r.current = false
		r.stopTimer()
		all = append(all, r)
	}
	clear(p.byID)
	clear(p.byURI)
	for _, hs := range p.listeners {
		for _, h := range hs {
			h.live = false
		}
	}
	clear(p.listeners)
	p.queue = nil
	return all
}

// Wait waits until every push in progress has been delivered or dropped:
// the GetContexts running, the Settle timers pending and the handlers
// waiting for them. It returns only once each GetContext has returned.
func (p *Page) Wait() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.busy > 0 || p.draining || len(p.queue) > 0 {
		p.idle.Wait()
	}
}

// Errors returns what the browser's console would show as errors so far:
// pushes whose Get failed, panicked or returned what JSON cannot hold, and
// handlers that panicked.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.errors)
}

// installed is the Page as package modelcontext sees it once NewPage has
// installed it: its page.Page.
type installed struct{ p *Page }

// Ready reports the page ready: it always is.
func (installed) Ready(context.Context) error { return nil }

// Load does nothing but report the page ready: there is no script to add.
func (installed) Load(context.Context, string, map[string]string) error { return nil }

func (s installed) Register(r page.Registration) (func(), error) { return s.p.register(r) }
func (s installed) Read(ctx context.Context, uri string) (page.Value, error) {
	return s.p.read(ctx, uri)
}
func (s installed) Subscribe(uri string, opts page.SubscribeOptions, f func(page.Push)) (func(), error) {
	return s.p.subscribe(uri, opts, f)
}
func (s installed) Listen(event string, f func(page.Event)) (func(), error) {
	return s.p.listen(event, f)
}
func (s installed) List(templates bool) (page.Value, error) { return s.p.listAll(templates) }
func (s installed) Report(msg string)                       { s.p.report(msg) }
func (s installed) Revision() (int64, error)                { return s.p.Revision(), nil }
func (s installed) ChangesSince(_ context.Context, since int64) (page.Value, error) {
	return s.p.changesSince(since)
}

// report records msg as an error.
func (p *Page) report(msg string) {
	p.mu.Lock()
	p.errors = append(p.errors, msg)
	p.mu.Unlock()
}

// registration is one registration, current or ended: what the loader
// keeps of it (the registry keeps the rest).
type registration struct {
	p        *Page
	id       registry.ID
	key      string             // the uri, or the uriTemplate
	template *registry.Template // nil for a concrete resource
	info     info
	get      page.Getter
	complete func(ctx context.Context, variable, value string, args map[string]string) ([]string, error)
	settle   time.Duration
	ctx      context.Context
	cancel   context.CancelFunc

	// Guarded by p.mu.
	current   bool   // the current registration of its key, as the registry answered
	watching  bool   // its Watch calls onChange, until unbind
	stop      func() // the Watch's stop, until called
	pushes    uint32 // onChange calls, which number the pushes
	base      string // the comparison key of the last value dispatched (the baseline)
	hasBase   bool
	timer     *time.Timer // a Settle burst's
	timerGen  int
	timing    bool
	burst     time.Time
	unregOnce sync.Once
	addedAt   int64  // the revision it entered the list at (a replacement: its predecessor's)
	changedAt int64  // the revision of its last push dispatched, or of its replacing another
	last      *value // the last value dispatched, where a subscription's first patch starts
}

// info is a registration as getResources and getResourceTemplates list it.
type info struct {
	URI          string                    `json:"uri,omitempty"`
	URITemplate  string                    `json:"uriTemplate,omitempty"`
	Name         string                    `json:"name"`
	Title        string                    `json:"title,omitempty"`
	Description  string                    `json:"description,omitempty"`
	MimeType     string                    `json:"mimeType"`
	Annotations  *modelcontext.Annotations `json:"annotations,omitempty"`
	Icons        []modelcontext.Icon       `json:"icons,omitempty"`
	Subscribable *bool                     `json:"subscribable,omitempty"`
}

// register validates r's descriptor as the module does, then registers it
// with the registry, which says which registration it replaced.
func (p *Page) register(r page.Registration) (func(), error) {
	var d descriptor
	if err := json.Unmarshal(r.Descriptor, &d); err != nil {
		return func() {}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	reg := &registration{p: p, get: r.Get, complete: r.Complete, ctx: ctx, cancel: cancel, key: r.Key}
	// As in the browser, the Go source starts before the module sees the
	// descriptor, and stops if the module refuses it.
	if r.Watch != nil {
		stop, failure := page.StartWatch(r.Key, r.Watch, reg.changed)
		if failure != "" {
			cancel()
			return func() {}, &modelcontext.Error{Message: failure}
		}
		reg.stop, reg.watching = stop, true
	}
	if msg := d.validate(r.Get.Get != nil); msg != "" {
		reg.unbind()
		return func() {}, refused(msg)
	}
	d.fill(reg, r.Watch != nil)
	p.mu.Lock()
	old := p.enter(reg)
	teardown := old != nil && old.watching // the module runs the old teardown: it stops the Go source
	p.mu.Unlock()
	if teardown {
		old.unbind()
	}
	p.drain()
	return reg.unregister, nil
}

// enter registers r with the registry under a new ID, and keeps the
// registry's answer: r is current, and the registration it replaced, which
// it returns, no longer is. It queues resourcelistchanged. Called with p.mu
// held (released before a panic: the registry and the page disagree).
func (p *Page) enter(r *registration) (old *registration) {
	p.lastID++
	r.id = p.lastID
	replaced, err := p.reg.Register(r.id, registry.Registration{Key: r.key, MIMEType: r.info.MimeType, Template: r.template})
	if err != nil {
		p.mu.Unlock()
		panic("modelcontexttest: " + err.Error())
	}
	if replaced != 0 {
		old = p.byID[replaced]
		if old == nil || old.key != r.key || (old.template == nil) != (r.template == nil) {
			p.mu.Unlock()
			panic(fmt.Sprintf("modelcontexttest: the registry says %d replaced %d, which the page does not hold for %q", r.id, replaced, r.key))
		}
		delete(p.byID, replaced)
		old.current = false
		old.stopTimer()
	}
	p.byID[r.id] = r
	if r.template == nil {
		p.byURI[r.key] = r
	}
	r.current = true
	r.addedAt = p.revision + 1 // until its resourcelistchanged stamps it (changes.go)
	if old != nil {
		r.addedAt = old.addedAt
	}
	p.listChanged(listChange{r: r, old: old})
	return old
}

// unregister is the function Register returns: the registry says whether
// it ended the current registration of its key.
func (r *registration) unregister() {
	r.unregOnce.Do(func() {
		p := r.p
		p.mu.Lock()
		removed := p.reg.Unregister(r.id)
		if removed != r.current {
			p.mu.Unlock()
			panic(fmt.Sprintf("modelcontexttest: the registry's unregister of %d (%q) says %v; the page holds it as current: %v", r.id, r.key, removed, r.current))
		}
		if removed {
			delete(p.byID, r.id)
			if r.template == nil {
				delete(p.byURI, r.key)
			}
			r.current = false
			r.stopTimer()
			p.listChanged(listChange{removed: r})
		}
		p.mu.Unlock()
		r.unbind()
		if removed {
			p.drain()
		}
	})
}

// unbind stops the Watch and ends GetContext's context, once.
func (r *registration) unbind() {
	r.p.mu.Lock()
	stop := r.stop
	r.stop, r.watching = nil, false
	r.p.mu.Unlock()
	r.cancel()
	page.Stop(installed{r.p}, r.key, stop)
}

// handler is a consumer subscription or an event listener.
type handler struct {
	who  string // for the report of a panic
	live bool   // guarded by p.mu
	f    func(page.Event)
}

// subscribe adds a consumer subscription, with the registry, to the pushes
// of uri, a current concrete resource.
func (p *Page) subscribe(uri string, opts page.SubscribeOptions, f func(page.Push)) (stop func(), err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.byURI[uri]
	if r == nil {
		return func() {}, notFound(uri)
	}
	sub := p.reg.Subscribe(r.id)
	if sub == 0 { // p.mu is released by the deferred Unlock
		panic(fmt.Sprintf("modelcontexttest: the registry has no concrete resource %d, the page's current one of %q", r.id, uri))
	}
	h := &handler{who: "a Subscribe handler of " + registry.Quote(uri), live: true, f: pushes(r, opts, f)}
	p.subs[sub] = h
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		h.live = false
		p.reg.Unsubscribe(sub) // ending one that ended does nothing
	}, nil
}

// listen adds an event listener.
func (p *Page) listen(event string, f func(page.Event)) (stop func(), err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := &handler{who: "a " + event + " handler", live: true, f: f}
	p.listeners[event] = append(p.listeners[event], h)
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		h.live = false
		p.listeners[event] = slices.DeleteFunc(slices.Clone(p.listeners[event]), func(x *handler) bool { return x == h })
	}, nil
}

// listAll returns the resources, or the templates, in the registry's
// order.
func (p *Page) listAll(templates bool) (page.Value, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.list(templates), nil
}

// list is List's value: the registry's list. Called with p.mu held.
func (p *Page) list(templates bool) *value {
	ids := p.reg.List(templates, nil)
	infos := make([]info, len(ids))
	for i, id := range ids {
		infos[i] = p.byID[id].info
	}
	v, err := encode(infos)
	if err != nil {
		panic(err) // strings, numbers and booleans only
	}
	return v
}
