package registry

// Push is the result of push number push of registration id: the loader
// numbered the onChange call, called the getter (and, for a Promise, waited
// for it) and compared the value v with the baseline (res). Push decides:
// a result for a registration that is gone, or older than one already
// handled, is dropped; one whose getter failed is reported; one equal to the
// last dispatched value is suppressed; any other is dispatched: delivered
// at once (Delivered: v is the caller's again), or, pushed by a listener or
// a handler of the delivery in progress, after it (Dispatched: the registry
// owns v until then). Calling nothing of the page's for a dropped or
// suppressed push, Push costs one call into Go.
//
// With ResultSame and the debug lines off, Push calls nothing of the host's
// and cannot panic, whatever id and push are: it only compares and records
// numbers. The bridge relies on that to decide such a push without a panic
// guard (mc_push); TestAnUnchangedPushCallsNothingAndCannotPanic holds Push
// to it.
func (r *Registry) Push(id ID, push uint32, res Result, v Value) Outcome {
	if res > ResultThrew {
		panic(errResult)
	}
	e := r.byID.get(id)
	if e == nil { // unregistered or replaced while its getter ran
		return Dropped
	}
	if res == ResultThrew {
		r.host.Error("modelcontext: get() of "+Quote(e.uri)+" failed; nothing was pushed:", v)
		return Dropped
	}
	if push <= e.handled {
		r.debug(`resource "`, e, `": late result dropped (a newer push was already handled)`)
		return Dropped
	}
	e.handled = push
	switch res {
	case ResultSame:
		r.debug(`resource "`, e, `": push suppressed (value unchanged)`)
		return Suppressed
	case ResultDifferent:
		r.debug(`resource "`, e, `" changed`)
	case ResultNoKey:
		r.debug(`resource "`, e, `": value has no comparison key; pushed anyway (fail-open)`)
	}
	r.outbox = append(r.outbox, delivery{e, id, v})
	if r.delivering {
		return Dispatched
	}
	r.deliverAll(v)
	return Delivered
}

// errResult is Push's panic for a result the loader should never send.
var errResult error = wireError("registry: unknown push result")

// delivery is a dispatched push waiting for its listeners.
type delivery struct {
	e  *entry
	id ID // e's ID when it was dispatched
	v  Value
}

// deliverAll empties the outbox in order. A push made by a listener or a
// handler is queued behind the delivery in progress, so that every consumer
// sees every resource's values in the order they were dispatched. It
// releases each value once delivered, but keep, the value of the push that
// called it, which Push hands back to its caller (Delivered). After a panic
// it releases the value of the delivery it was in, keep or not, and the
// caller gets the panic instead.
func (r *Registry) deliverAll(keep Value) {
	r.delivering = true
	i := 0
	var held Value // the value of the delivery in progress, until it is released
	defer func() {
		// After a panic in the middle of a delivery, drop that delivery (its
		// slot is already cleared) and release its value, keep the rest, and
		// reuse the array.
		r.delivering = false
		if i < len(r.outbox) && r.outbox[i].e == nil {
			i++
		}
		r.outbox = r.outbox[:copy(r.outbox, r.outbox[i:])]
		if held != 0 {
			r.host.Release(held)
		}
	}()
	for ; i < len(r.outbox); i++ {
		d := r.outbox[i]
		r.outbox[i] = delivery{}
		held = d.v
		if d.e.id == d.id && d.e.live { // not unregistered or replaced by an earlier listener
			r.deliver(d.e, d.v)
		}
		held = 0
		if d.v != keep {
			r.host.Release(d.v)
		}
	}
}

// deliver fires resourceupdated, then calls the consumer subscriptions of the
// uri in the order they were made. A subscription ended by an earlier handler
// is skipped; one made during the delivery waits for the next push.
func (r *Registry) deliver(e *entry, v Value) {
	id, uri := e.id, ""
	if len(r.watchers) > 0 {
		uri = e.uri // read now: a listener may unregister e
	}
	r.host.Dispatch(id, v)
	// The consumers are read after the event: a listener may have subscribed,
	// or unregistered the resource (then there are none, and its entry may
	// already serve another registration).
	var c *consumers
	if e.id == id {
		c = e.consumers
	}
	if c != nil {
		for _, s := range c.subs {
			if !s.live {
				continue
			}
			if err := r.host.Deliver(s.id, v); err != 0 {
				r.host.Error("modelcontext: a subscribeResource handler of "+Quote(c.uri)+" threw:", err)
				r.host.Release(err)
			}
		}
	}
	// A watcher added by a listener (an MCP server started) has no
	// subscription yet: only those that were there are told.
	if uri != "" {
		for _, w := range r.watchers {
			w.Dispatched(uri, v)
		}
	}
}
