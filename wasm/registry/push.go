package registry

// Push is onChange of registration id: it calls the getter now and, once the
// value is there, dispatches it unless it equals the last dispatched value.
// A Push for a registration that is gone does nothing.
func (r *Registry) Push(id ID) {
	e := r.byID.get(id)
	if e == nil {
		return
	}
	e.pushes++
	push := e.pushes
	status, v := r.host.Get(id, push)
	if status != GetPending {
		r.settle(e, id, push, v, status == GetValue)
	}
}

// Settle finishes push number push of registration id with the getter's
// value v (ok) or the error it threw or rejected with (!ok). The handle v is
// released once delivered. A result older than one already handled is
// dropped.
func (r *Registry) Settle(id ID, push uint32, v Value, ok bool) {
	e := r.byID.get(id)
	if e == nil {
		r.host.Release(v)
		return
	}
	r.settle(e, id, push, v, ok)
}

// settle finishes a push of registration id, whose entry e was when the
// push began.
func (r *Registry) settle(e *entry, id ID, push uint32, v Value, ok bool) {
	if e.id != id || !e.live { // unregistered or replaced while its getter ran
		r.host.Release(v)
		return
	}
	uri := e.uri
	if !ok {
		r.host.Error("modelcontext: get() of "+quote(uri)+" failed; nothing was pushed:", v)
		r.host.Release(v)
		return
	}
	if push <= e.handled {
		r.debug(`resource "`, uri, `": late result dropped (a newer push was already handled)`)
		r.host.Release(v)
		return
	}
	e.handled = push
	switch r.host.Compare(id, v) {
	case KeySame:
		r.debug(`resource "`, uri, `": push suppressed (value unchanged)`)
		r.host.Release(v)
		return
	case KeyDifferent:
		r.debug(`resource "`, uri, `" changed`)
	case KeyNone:
		r.debug(`resource "`, uri, `": value has no comparison key; pushed anyway (fail-open)`)
	}
	r.outbox = append(r.outbox, delivery{e, id, v})
	if !r.delivering {
		r.deliverAll()
	}
}

// delivery is a dispatched push waiting for its listeners.
type delivery struct {
	e  *entry
	id ID // e's ID when it was dispatched
	v  Value
}

// deliverAll empties the outbox in order. A push made by a listener or a
// handler is queued behind the delivery in progress, so that every consumer
// sees every resource's values in the order they were dispatched.
func (r *Registry) deliverAll() {
	r.delivering = true
	i := 0
	defer func() {
		// After a panic in the middle of a delivery, drop that delivery (its
		// slot is already cleared), keep the rest, and reuse the array.
		r.delivering = false
		if i < len(r.outbox) && r.outbox[i].e == nil {
			i++
		}
		r.outbox = r.outbox[:copy(r.outbox, r.outbox[i:])]
	}()
	for ; i < len(r.outbox); i++ {
		d := r.outbox[i]
		r.outbox[i] = delivery{}
		if d.e.id == d.id && d.e.live { // not unregistered or replaced by an earlier listener
			r.deliver(d.e, d.v)
		}
		r.host.Release(d.v)
	}
}

// deliver fires resourceupdated, then calls the consumer subscriptions of the
// uri in the order they were made. A subscription ended by an earlier handler
// is skipped; one made during the delivery waits for the next push.
func (r *Registry) deliver(e *entry, v Value) {
	id, uri := e.id, e.uri
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
				r.host.Error("modelcontext: a subscribeResource handler of "+quote(uri)+" threw:", err)
				r.host.Release(err)
			}
		}
	}
	for _, w := range r.watchers {
		w.Dispatched(uri)
	}
}
