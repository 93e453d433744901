package modelcontext

import (
	"slices"
	"sync"
)

// Notifier is a ready-made push source: pass its Watch method as
// Resource.Watch and call Notify after every change of the state the
// resource shows. The zero Notifier is ready to use; it must not be copied
// after first use. Its methods may be called from any goroutine.
//
// Notify may be called when nothing changed: the module sends a value on
// only when it differs from the last one sent.
type Notifier struct {
	mu   sync.Mutex
	next uint64
	subs map[uint64]func()
}

// Watch adds onChange to the functions Notify calls, until stop is called.
// stop may be called more than once.
func (n *Notifier) Watch(onChange func()) (stop func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.subs == nil {
		n.subs = map[uint64]func(){}
	}
	n.next++
	id := n.next
	n.subs[id] = onChange
	return func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.subs, id)
	}
}

// Notify calls every watching onChange, in the order they started
// watching. It holds no lock while calling them, so they may watch, stop
// or notify again.
func (n *Notifier) Notify() {
	n.mu.Lock()
	ids := make([]uint64, 0, len(n.subs))
	for id := range n.subs {
		ids = append(ids, id)
	}
	n.mu.Unlock()
	slices.Sort(ids)
	for _, id := range ids {
		n.mu.Lock()
		f := n.subs[id]
		n.mu.Unlock()
		if f != nil {
			f()
		}
	}
}
