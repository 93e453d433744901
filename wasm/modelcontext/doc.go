// Package modelcontext lets a Go WebAssembly app (GOOS=js GOARCH=wasm)
// publish its state as live resources on the page's document.modelContext,
// and read and follow the page's other resources, without JavaScript.
//
// It does not contain a registry: it talks to the one that modelcontext.js
// installs on the page, so a Go app and the page's JavaScript share one list
// of resources, and an agent (in the page, or an MCP client) sees both.
// Outside the browser it talks to a test's stand-in for the page, from
// package modelcontexttest, so that an app's code builds and is tested with
// go test on the host.
//
// # Getting started
//
// Load modelcontext.js on the page (a script tag, or [Load]), wait for it
// with [Ready], and register a resource:
//
//	var cart = Cart{Items: map[string]int{}}
//	var changed modelcontext.Notifier
//
//	func main() {
//		if err := modelcontext.Ready(context.Background()); err != nil {
//			println(err.Error())
//			return
//		}
//		modelcontext.Register(modelcontext.Resource{
//			URI: "state://cart", Name: "cart",
//			Get:   func() (any, error) { return cart, nil },
//			Watch: changed.Watch,
//		})
//		select {}
//	}
//
// and call changed.Notify() after every change of cart. The module calls Get
// and sends the value to agents only if it differs from the last one sent.
// Read it back, or any resource of the page, as a Go type with [Read]
// (cart, err := modelcontext.Read[Cart](ctx, "state://cart")), and follow
// its changes with [Subscribe].
//
// # Values
//
// What Get returns reaches JavaScript as its JSON text, written by
// encoding/json (without HTML escaping) and parsed there with JSON.parse:
// struct fields under their `json` tag names, MarshalJSON and MarshalText
// methods, time.Time as RFC 3339. Map keys are sorted, so equal values
// always give equal text and objects with the same key order: that is what
// lets the module recognise an unchanged value (js.ValueOf builds objects
// in Go's random map order, which defeats it).
//
// A few values are sent as they are: nil as null, a string as a string, a
// js.Value (or js.Func) unchanged, and a top-level []byte as a new
// Uint8Array: a binary resource, which MCP clients receive as a blob.
//
// [Read], [Subscribe] and [UpdatedEvent.Decode] go the other way, with
// encoding/json's Unmarshal, from the value's JSON.stringify text; a value
// that does not fit is a [*DecodeError] wrapping encoding/json's error.
//
// # Calls from JavaScript
//
// Get, Template.Get and the handlers of [Subscribe], [Follow], [OnUpdated]
// and [OnListChanged] run inside a call from JavaScript: the page waits for
// them. They must return promptly and must not block on anything that needs
// the event loop (a channel another callback would fill, a network call).
// A value that takes time to get goes in Resource.GetContext instead: it
// runs in a goroutine of its own for each read and push, and the page gets
// a Promise that its result settles, in order (a push whose value arrives
// after a newer one was delivered is dropped). [Ready], [Load], [Read] and
// [ChangesSince] block until JavaScript answers, so they are called from main or another
// goroutine, never from inside such a call.
//
// A Get that returns an error, panics, or returns a value JSON cannot hold
// makes that read fail (a rejected Promise whose Error names the uri); a
// push made with it is dropped and reported on the console. Panics in
// handlers are reported on the console. Nothing a resource or a handler
// does stops the Go program.
//
// # Events
//
// [OnUpdated] and [OnListChanged] hand over an [*UpdatedEvent] and a
// [*ListChangedEvent], shaped like honnef.co/go/js/dom/v2's events: Type,
// and in the browser Underlying, the CustomEvent of document.modelContext
// (dom.WrapEvent(e.Underlying()) is a *dom.CustomEvent).
//
// # Following changes
//
// The page counts its changes: [Revision] is one more for each
// resourceupdated and resourcelistchanged it dispatched (the events carry
// it, [UpdatedEvent.Revision] and [ListChangedEvent.Revision]). An agent
// that keeps the revision it last looked at asks [ChangesSince] which
// resources were added, updated and removed since, and reads only those
// ([Changes.Reset] says it must read everything again). [Follow] is
// [Subscribe] with each value's revision and, with [WithPatches], an
// RFC 6902 patch from the value it handed over before ([PatchOp]; nil
// where there is none or it would be longer than the value):
//
//	stop, err := modelcontext.Follow("state://cart", func(u modelcontext.Update[json.RawMessage], err error) {
//		if u.Patch != nil {
//			send(u.Revision, u.Patch) // only what changed
//		} else {
//			send(u.Revision, u.Value) // the whole value
//		}
//	}, modelcontext.WithPatches())
//
// and the other end applies each patch to the value it holds ([ApplyPatch]
// does, on a value's JSON form).
//
// # Errors
//
// Errors from the module are an [*Error] with its JavaScript name and
// message: a descriptor the module refuses is a TypeError whose Field names
// the field ("uri", "name", "annotations.priority"); an unknown uri is a
// NotFoundError, for which errors.Is(err, ErrNotFound) holds; a revision
// [ChangesSince] refuses is a RangeError whose Field is "revision". Calls made
// before the module's script has run return [ErrNotLoaded], as do calls
// outside the browser without a test's page.
//
// # Releasing
//
// Every js.Func the package creates has an owner that releases it: the
// unregister function of [Register] and [RegisterTemplate] (its getter, its
// subscribe and teardown functions), and the stop function of [Subscribe],
// [Follow], [OnUpdated] and [OnListChanged] (their handler). Call them when
// done.
//
// # Size
//
// The package uses syscall/js, context and encoding/json (with what that
// brings: reflect, strconv, fmt), not DOM bindings such as
// honnef.co/go/js/dom/v2 (which an app may of course use itself): see
// README.md beside this file for the measured sizes.
package modelcontext
