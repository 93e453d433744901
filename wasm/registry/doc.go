// Package registry is the pure-Go core of the resource registry that the
// WebAssembly module installs on document.modelContext.
//
// It decides what every push does (de-duplication against the last dispatched
// value, fail-open, dropping late asynchronous results), delivers pushes to
// the page's consumers in order, keeps the consumer subscriptions (which
// survive a replacement of their resource and end with its unregistration),
// and matches URI templates. It never
// touches JavaScript: page values, errors and functions stay on the
// JavaScript side, addressed by small integer handles. What only JavaScript
// can do before a push is decided (call the getter, compute the value's
// comparison key and compare it with the baseline) the loader has done when
// it calls [Registry.Push], which gets the push's number and that
// comparison's [Result]; what it can do after (dispatch an event, call a
// handler, release a value) is asked of a [Host]. That keeps this package testable on the host
// with go test -race; the registrytest package holds the one fake Host the
// tests share.
//
// # What the loader decides
//
// The loader (js/loader) must answer registerResource, getResources and
// readResource before the Go runtime has started, so it owns the
// registration table: it reads and validates each descriptor, assigns its
// [ID], keeps the list in registration order, knows which registration is the
// current one for a uri, and looks concrete uris up. It also runs each
// registration's lifecycle: it calls subscribe, runs teardowns (the old one
// before the new subscribe when a uri is registered again) and fires
// resourcelistchanged, so that registering and unregistering cost at most
// one call into Go each and no call out. It tells the registry what happened
// ([Registry.Register] names the registration a new one replaces), once the
// registry needs to know: a template at once, a concrete resource at its
// first push or consumer subscription, when it replaces one the registry
// knows, or while an MCP server runs. A concrete resource comes without its
// uri and mimeType: the registry asks for them ([Table.Describe]) the first
// time it needs them (a debug line, an error, a consumer subscription, an
// MCP server), so that a resource that only pushes to the page never sends
// them. The registry trusts the loader.
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
// since replaced or unregistered finds nothing and is dropped. Entries are: an
// unregistered one serves the next registration, so that a page that
// registers and unregisters (a component mounted again) allocates nothing.
// Code that holds an entry across a call out therefore checks, after the
// call, that the entry still has the ID it had.
package registry
