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
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Page stands in for the page's document.modelContext while its test runs:
// an in-memory registry that package modelcontext acts on. Make one with
// [NewPage].
type Page struct {
	mu        sync.Mutex
	idle      *sync.Cond // signalled when busy falls to 0 or a drain ends
	resources []*registration
	templates []*registration
	consumers map[string][]*handler // by uri
	listeners map[string][]*handler // by event type
	queue     []func()              // handler calls waiting for the drain
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
	p := &Page{consumers: map[string][]*handler{}, listeners: map[string][]*handler{}}
	p.idle = sync.NewCond(&p.mu)
	restore, ok := page.Install(installed{p})
	if !ok {
		t.Fatal("modelcontexttest: another test's Page is installed; tests that call NewPage must not run in parallel")
	}
	t.Cleanup(func() {
		restore()
		p.mu.Lock()
		all := append(slices.Clone(p.resources), p.templates...)
		p.resources, p.templates = nil, nil
		p.consumers, p.listeners = map[string][]*handler{}, map[string][]*handler{}
		for _, r := range all {
			r.current = false
			r.stopTimer()
		}
		p.mu.Unlock()
		for _, r := range all {
			r.unbind()
		}
	})
	return p
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

// registration is one registration, current or ended.
type registration struct {
	p        *Page
	key      string
	template *registry.Template // nil for a concrete resource
	info     info
	get      page.Getter
	complete func(ctx context.Context, variable, value string, args map[string]string) ([]string, error)
	settle   time.Duration
	ctx      context.Context
	cancel   context.CancelFunc

	// Guarded by p.mu.
	current   bool
	watching  bool   // its Watch calls onChange, until unbind
	stop      func() // the Watch's stop, until called
	pushes    int    // onChange calls, numbered
	handled   int    // the newest push delivered or suppressed
	base      string // the key of the last value delivered
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

// register validates r's descriptor as the module does, then registers it,
// in the place of the current registration of its key if there is one.
func (p *Page) register(r page.Registration) (func(), error) {
	var d descriptor
	if err := json.Unmarshal(r.Descriptor, &d); err != nil {
		return func() {}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	reg := &registration{p: p, key: r.Key, get: r.Get, complete: r.Complete, ctx: ctx, cancel: cancel}
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
	if err := d.validate(r.Get.Get != nil, r.Watch != nil, reg); err != nil {
		reg.unbind()
		return func() {}, err
	}
	p.mu.Lock()
	list := &p.resources
	if reg.template != nil {
		list = &p.templates
	}
	var old *registration
	if i := slices.IndexFunc(*list, func(x *registration) bool { return x.key == reg.key }); i >= 0 {
		old = (*list)[i]
		(*list)[i] = reg
		old.current = false
		old.stopTimer()
	} else {
		*list = append(*list, reg)
	}
	reg.current = true
	teardown := old != nil && old.watching // the module runs the old teardown: it stops the Go source
	reg.stamp(old, p.listChanged())
	p.mu.Unlock()
	if teardown {
		old.unbind()
	}
	p.drain()
	return reg.unregister, nil
}

// unregister is the function Register returns.
func (r *registration) unregister() {
	r.unregOnce.Do(func() {
		p := r.p
		p.mu.Lock()
		removed := r.current
		if removed {
			if r.template != nil {
				p.templates = slices.DeleteFunc(p.templates, func(x *registration) bool { return x == r })
			} else {
				p.resources = slices.DeleteFunc(p.resources, func(x *registration) bool { return x == r })
				for _, s := range p.consumers[r.key] {
					s.live = false
				}
				delete(p.consumers, r.key)
			}
			r.current = false
			r.stopTimer()
			// With the list change, so that ChangesSince never sees one
			// without the other.
			if at := p.listChanged(); r.template == nil {
				p.remember(removal{uri: r.key, addedAt: r.addedAt, at: at})
			}
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

// stopTimer drops a pending Settle push. Called with p.mu held.
func (r *registration) stopTimer() {
	if !r.timing {
		return
	}
	r.timing = false
	r.timerGen++
	r.timer.Stop()
	r.timer = nil
	r.p.busy--
	r.p.idle.Broadcast()
}

// changed is the registration's onChange.
func (r *registration) changed() {
	p := r.p
	p.mu.Lock()
	if !r.current || !r.watching {
		p.mu.Unlock()
		return
	}
	if r.settle > 0 {
		r.schedule()
		p.mu.Unlock()
		return
	}
	r.pushes++
	n := r.pushes
	p.mu.Unlock()
	r.push(n)
}

// schedule (re)starts the Settle timer of a burst of onChange calls.
// Called with p.mu held.
func (r *registration) schedule() {
	now := time.Now()
	if !r.timing {
		r.timing, r.burst = true, now
		r.p.busy++
	} else {
		r.timer.Stop()
	}
	r.timerGen++
	gen := r.timerGen
	wait := min(r.settle, r.burst.Add(4*r.settle).Sub(now))
	r.timer = time.AfterFunc(max(0, wait), func() {
		p := r.p
		p.mu.Lock()
		if r.timerGen != gen || !r.timing {
			p.mu.Unlock()
			return
		}
		r.timing, r.timer = false, nil
		r.pushes++
		n := r.pushes
		p.mu.Unlock()
		r.push(n)
		p.mu.Lock()
		p.busy--
		p.idle.Broadcast()
		p.mu.Unlock()
	})
}

// push is push number n: it gets the value (a GetContext in a goroutine)
// and hands it to result.
func (r *registration) push(n int) {
	if !r.get.Blocking {
		v, failure := r.value(nil)
		r.result(n, v, failure)
		return
	}
	p := r.p
	p.mu.Lock()
	p.busy++
	p.mu.Unlock()
	go func() {
		v, failure := r.value(nil)
		r.result(n, v, failure)
		p.mu.Lock()
		p.busy--
		p.idle.Broadcast()
		p.mu.Unlock()
	}()
}

// result decides push n, as the module does: a registration that ended
// drops it, a failed Get is reported, a push older than one already
// handled is dropped, a value equal to the last one delivered is
// suppressed, and any other is delivered.
func (r *registration) result(n int, v *value, failure string) {
	p := r.p
	p.mu.Lock()
	switch {
	case !r.current:
	case failure != "":
		p.errors = append(p.errors, "modelcontext: get() of "+strconv.Quote(r.key)+" failed; nothing was pushed: Error: "+failure)
	case n <= r.handled:
	default:
		r.handled = n
		if r.hasBase && r.base == v.key() {
			break
		}
		r.base, r.hasBase = v.key(), true
		p.revision++
		rev := p.revision
		r.changedAt = rev
		p.enqueue(func() { p.deliver(r, v, rev) })
	}
	p.mu.Unlock()
	p.drain()
}

// deliver fires resourceupdated, the page's revision rev, then calls the
// consumer subscriptions of r's uri, as they are after the event's
// handlers ran.
func (p *Page) deliver(r *registration, v *value, rev int64) {
	p.mu.Lock()
	if !r.current { // unregistered or replaced by an earlier handler
		p.mu.Unlock()
		return
	}
	r.last = v
	listeners := slices.Clone(p.listeners["resourceupdated"])
	p.mu.Unlock()
	e := page.Event{URI: r.key, Value: v, Revision: rev}
	for _, l := range listeners {
		p.call(l, e)
	}
	p.mu.Lock()
	subs := slices.Clone(p.consumers[r.key])
	p.mu.Unlock()
	for _, s := range subs {
		p.call(s, e)
	}
}

// listChanged steps the revision and queues resourcelistchanged with the
// list as it is now; it returns the new revision. Called with p.mu held.
func (p *Page) listChanged() int64 {
	p.revision++
	rev := p.revision
	list := p.list(false)
	for _, l := range p.listeners["resourcelistchanged"] {
		p.enqueue(func() { p.call(l, page.Event{Value: list, Revision: rev}) })
	}
	return rev
}

func (p *Page) enqueue(f func()) { p.queue = append(p.queue, f) }

// drain runs the queued handler calls in order, unless another goroutine
// is running them: handlers never run two at a time.
func (p *Page) drain() {
	p.mu.Lock()
	if p.draining {
		p.mu.Unlock()
		return
	}
	p.draining = true
	for len(p.queue) > 0 {
		f := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.mu.Unlock()
		f()
		p.mu.Lock()
	}
	p.draining = false
	p.idle.Broadcast()
	p.mu.Unlock()
}

// handler is a consumer subscription or an event listener.
type handler struct {
	who  string // for the report of a panic
	live bool   // guarded by p.mu
	f    func(page.Event)
}

// call runs h unless it was stopped, reporting a panic.
func (p *Page) call(h *handler, e page.Event) {
	p.mu.Lock()
	live := h.live
	p.mu.Unlock()
	if !live {
		return
	}
	defer func() {
		if x := recover(); x != nil {
			p.report("modelcontext: " + h.who + " panicked: " + page.Describe(x))
		}
	}()
	h.f(e)
}

// subscribe adds a consumer subscription to the pushes of uri, a current
// concrete resource.
func (p *Page) subscribe(uri string, opts page.SubscribeOptions, f func(page.Push)) (stop func(), err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.IndexFunc(p.resources, func(x *registration) bool { return x.key == uri })
	if i < 0 {
		return func() {}, notFound(uri)
	}
	h := &handler{who: "a Subscribe handler of " + strconv.Quote(uri), live: true, f: pushes(p.resources[i], opts, f)}
	p.consumers[uri] = append(p.consumers[uri], h)
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		h.live = false
		if l, ok := p.consumers[uri]; ok {
			p.consumers[uri] = slices.DeleteFunc(slices.Clone(l), func(x *handler) bool { return x == h })
		}
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

// listAll returns the resources, or the templates, in registration order.
func (p *Page) listAll(templates bool) (page.Value, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.list(templates), nil
}

// list is List's value. Called with p.mu held.
func (p *Page) list(templates bool) *value {
	l := p.resources
	if templates {
		l = p.templates
	}
	infos := make([]info, len(l))
	for i, r := range l {
		infos[i] = r.info
	}
	v, err := encode(infos)
	if err != nil {
		panic(err) // strings, numbers and booleans only
	}
	return v
}
