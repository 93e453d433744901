// Package modelcontext lets a Go WebAssembly app (GOOS=js GOARCH=wasm)
// publish its state as live resources on the page's document.modelContext,
// and read and follow the page's other resources, without JavaScript.
//
// It does not contain a registry: it talks to the one that modelcontext.js
// installs on the page, so a Go app and the page's JavaScript share one list
// of resources, and an agent (in the page, or an MCP client) sees both.
//
// # Getting started
//
// Load modelcontext.js on the page (a script tag, or [Load]), wait for it
// with [Ready], and register a resource:
//
//	var cart = map[string]int{}
//	var changed modelcontext.Notifier
//
//	func main() {
//		if err := modelcontext.Ready(context.Background()); err != nil {
//			println(err.Error())
//			return
//		}
//		modelcontext.Register(modelcontext.Resource{
//			URI: "state://cart", Name: "cart",
//			Get:       func() (any, error) { return cart, nil },
//			Subscribe: changed.Subscribe,
//		})
//		select {}
//	}
//
// and call changed.Notify() after every change of cart. The module calls Get
// and sends the value to agents only if it differs from the last one sent.
//
// # Values
//
// What Get returns reaches JavaScript as its JSON text, written by
// encoding/json (an Encoder that does not escape HTML) and parsed there with
// JSON.parse. Map keys are sorted, so equal values always give equal text
// and objects with the same key order: that is what lets the module
// recognise an unchanged value (js.ValueOf builds objects in Go's random map
// order, which defeats it).
//
// A few values are sent as they are: nil as null, a string as a string, a
// js.Value (or js.Func) unchanged, and a top-level []byte as a new
// Uint8Array: a binary resource, which MCP clients receive as a blob.
//
// [Decode], [ReadInto] and handlers go the other way, with encoding/json's
// Unmarshal.
//
// # Calls from JavaScript
//
// Get, Template.Get and the handlers of [Subscribe], [OnUpdated] and
// [OnListChanged] run inside a call from JavaScript: the page waits for
// them. They must return promptly and must not block on anything that needs
// the event loop (a channel another callback would fill, a network call);
// start a goroutine for slow work. [Ready], [Load], [Read] and [ReadInto]
// block until JavaScript answers, so they are called from main or another
// goroutine, never from inside such a call.
//
// A Get that returns an error, panics, or returns a value JSON cannot hold
// makes that read fail (a rejected Promise whose Error names the uri and
// where in the value the problem is); a push made with it is dropped and
// reported on the console. Panics in handlers are reported on the console.
// Nothing a resource or a handler does stops the Go program.
//
// # Errors
//
// Errors from the module are an [*Error] with its JavaScript name and
// message: a descriptor the module refuses is a TypeError whose Field names
// the field ("uri", "name", "annotations.priority"); an unknown uri is a
// NotFoundError, for which errors.Is(err, ErrNotFound) holds. Calls made
// before the module's script has run return [ErrNotLoaded].
//
// # Releasing
//
// Every js.Func the package creates has an owner that releases it: the
// unregister function of [Register] and [RegisterTemplate] (its getter, its
// subscribe and teardown functions), and the stop function of [Subscribe],
// [OnUpdated] and [OnListChanged] (their handler). Call them when done.
//
// # Size
//
// The package uses syscall/js, context and encoding/json, not DOM bindings
// such as honnef.co/go/js/dom/v2 (which an app may of course use itself):
// see README.md beside this file for the measured sizes.
package modelcontext
