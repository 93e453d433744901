// Package registry is the pure-Go core of the resource registry that the
// WebAssembly module installs on document.modelContext.
//
// It holds the registrations in registration order, validates descriptors,
// decides what every push does (de-duplication against the last dispatched
// value, fail-open, dropping late asynchronous results) and keeps the
// consumer subscriptions. It never touches JavaScript: page values, errors and
// functions stay on the JavaScript side, addressed by small integer handles,
// and everything only JavaScript can do (call a getter, compute a comparison
// key, dispatch an event) is asked of a [Host]. That keeps this package
// testable on the host with go test -race.
//
// # Threading
//
// A Registry is used from one goroutine: the browser's event loop. Host
// methods may call straight back into the Registry (a listener that registers
// a resource, a getter that pushes), so the Registry never holds a lock and
// re-reads its state after every call out.
//
// # Identity
//
// Every registration gets an [ID] that is never reused, so an unregister or
// onChange of a registration that was since replaced finds nothing and does
// nothing.
package registry
