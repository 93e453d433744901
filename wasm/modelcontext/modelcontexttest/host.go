package modelcontexttest

import (
	"slices"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// host is the Page as the registry's host (registry.Host), in the place of
// the loader's host functions (runtime/host.js): the registry calls it with
// p.mu held, from a task (see do), and it calls the page's handlers with
// p.mu released, so that a handler may act on the page.
type host Page

// hold gives v a handle the registry names it by. Called with p.mu held.
func (p *Page) hold(v any) registry.Value {
	p.lastVal++
	p.vals[p.lastVal] = v
	return p.lastVal
}

// free forgets the value of handle v. Called with p.mu held.
func (p *Page) free(v registry.Value) { delete(p.vals, v) }

// Release implements registry.Values.
func (h *host) Release(v registry.Value) { (*Page)(h).free(v) }

// Dispatch implements registry.Consumers: it steps the revision, as the
// module's runtime/changes.js does for each resourceupdated, and fires the
// event.
func (h *host) Dispatch(id registry.ID, v registry.Value) {
	p := (*Page)(h)
	r := p.byID[id]
	val := p.vals[v].(*value)
	p.revision++
	r.changedAt, r.last = p.revision, val
	p.event = page.Event{URI: r.key, Value: val, Revision: p.revision}
	e := p.event
	for _, l := range slices.Clone(p.listeners["resourceupdated"]) {
		p.call(l, e)
	}
}

// Deliver implements registry.Consumers: it calls the handler of sub with
// the event being delivered. The handler never throws: a panic is reported
// as package modelcontext reports it in the browser.
func (h *host) Deliver(sub registry.SubID, v registry.Value) registry.Value {
	p := (*Page)(h)
	if s := p.subs[sub]; s != nil {
		p.call(s, p.event)
	}
	return 0
}

// EndSubscription implements registry.Consumers.
func (h *host) EndSubscription(sub registry.SubID) {
	if s := h.subs[sub]; s != nil {
		s.live = false
		delete(h.subs, sub)
	}
}

// thrown is what a getter threw, as the console shows it.
type thrown string

// Error implements registry.Console: the browser's console.error(msg, v).
func (h *host) Error(msg string, v registry.Value) {
	if t, ok := h.vals[v].(thrown); ok {
		msg += " " + string(t)
	}
	h.errors = append(h.errors, msg)
}

// Debug implements registry.Console. The page's debug mode is never on.
func (h *host) Debug(string) {}

// do queues task, to run with p.mu held after the tasks queued before it,
// and runs them, unless another goroutine is running them: it then runs
// this one too. Every call into the registry that may deliver is a task,
// so that handlers never run two at a time. Called without p.mu.
func (p *Page) do(task func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queue = append(p.queue, task)
	p.drainLocked()
}

// drain runs the queued tasks, unless another goroutine is.
func (p *Page) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drainLocked()
}

// drainLocked is drain, with p.mu held.
func (p *Page) drainLocked() {
	if p.draining {
		return
	}
	p.draining = true
	// Deferred, so that a handler that ends its goroutine (t.Fatal) does
	// not leave the page draining for ever.
	defer func() {
		p.draining = false
		p.idle.Broadcast()
	}()
	for len(p.queue) > 0 {
		f := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		f()
	}
}

// call runs h unless it was stopped, reporting a panic. Called with p.mu
// held, which it releases while h runs.
func (p *Page) call(h *handler, e page.Event) {
	if !h.live {
		return
	}
	p.mu.Unlock()
	defer p.mu.Lock()
	defer func() {
		if x := recover(); x != nil {
			p.report("modelcontext: " + h.who + " panicked: " + page.Describe(x))
		}
	}()
	h.f(e)
}
