package modelcontexttest

import (
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Pushes, up to the registry's decision, as the loader runs them
// (runtime/host.js's push, settled and result): onChange numbers the push
// (after a Settle burst, when its timer fires), the getter gives the value
// (a GetContext in a goroutine), and the value's comparison key against the
// baseline is the result the registry decides on.

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

// schedule (re)starts the Settle timer of a burst of onChange calls: one
// push, settle after the last call, and at the latest 4 × settle after the
// first. Called with p.mu held.
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

// push is push number n: it gets the value (a GetContext in a goroutine)
// and hands it to result.
func (r *registration) push(n uint32) {
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

// result hands the registry push n's value v, or its failure, once the
// tasks before it have run.
func (r *registration) result(n uint32, v *value, failure string) {
	r.p.do(func() { r.decide(n, v, failure) })
}

// decide tells the registry how push n compares with the baseline, and
// keeps the baseline the registry's outcome leaves: a new key becomes the
// baseline before the registry is called, and is undone unless it
// dispatched the value. The registry decides the rest (a registration
// gone, a late push, a failure reported, the value delivered). Called
// with p.mu held, from a task.
//
// A Go value always has a key: one JSON cannot hold fails its getter
// (ResultThrew), so ResultNoKey, the module's for a JavaScript value that
// has none (a cycle, a BigInt), never comes from here.
func (r *registration) decide(n uint32, v *value, failure string) {
	p := r.p
	if failure != "" {
		h := p.hold(thrown("Error: " + failure))
		p.reg.Push(r.id, n, registry.ResultThrew, h)
		p.free(h)
		return
	}
	key := v.key()
	if r.hasBase && r.base == key {
		p.reg.Push(r.id, n, registry.ResultSame, 0)
		return
	}
	old, had := r.base, r.hasBase
	r.base, r.hasBase = key, true
	h := p.hold(v)
	switch p.reg.Push(r.id, n, registry.ResultDifferent, h) {
	case registry.Dispatched: // the registry releases it once delivered
	case registry.Delivered:
		p.free(h)
	default:
		p.free(h)
		r.base, r.hasBase = old, had
	}
	p.event = page.Event{} // the value is no longer held for it
}
