// Package registry is the pure-Go core of the resource registry that the
// WebAssembly module installs on document.modelContext.
//
// It decides what every push does (de-duplication against the last dispatched
// value, fail-open, dropping late asynchronous results), delivers pushes to
// the page's consumers in order, keeps the consumer subscriptions (which
// survive a replacement of their resource and end with its unregistration),
// and matches URI templates. It never touches JavaScript: page values,
// errors and functions stay on the JavaScript side, addressed by small
// integer handles. What only JavaScript can do before a push is decided
// (call the getter, compute the value's comparison key and compare it with
// the baseline) the loader has done when it calls [Registry.Push], which
// gets the push's number and that comparison's [Result]; what it can do
// after (dispatch an event, call a handler, release a value) is asked of a
// [Host]. That keeps this package testable on the host with go test -race;
// the registrytest package holds the one fake Host the tests share.
//
// # What the registry decides, what the loader does
//
// The registry holds the registrations: which one is current for a uri (or
// a uriTemplate), the list in its order (a replacement in the place of the
// one it replaces), and what an unregistration ends. [Registry.Register]
// answers which registration a new one replaced and [Registry.Unregister]
// whether it ended a current one; the loader applies those answers to a
// cache it lists from, in the order of [Registry.List] (its test build
// checks the two agree). The loader reads and validates each descriptor and
// assigns its [ID] (the page's objects stay in JavaScript),
// stands in for the registry before the Go runtime has started (its table
// answers then, and it queues the calls for the registry), and runs each
// registration's lifecycle: it calls subscribe, runs teardowns (the old one
// before the new subscribe when a uri is registered again) and fires
// resourcelistchanged, so that registering and unregistering cost one call
// into Go each and none out.
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
// IDs are never reused, so the result of a push of a registration that was
// since replaced or unregistered finds nothing and is dropped. Entries, the
// registry's records of registrations, are reused, so that a page that
// registers and unregisters (a component mounted again) allocates nothing;
// code that holds one across a call out checks its ID afterwards (see
// newEntry).
package registry
