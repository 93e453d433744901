//go:build js && wasm

package modelcontext

import (
	"context"
	"slices"
	"strconv"
	"syscall/js"
)

// Ready waits until the module is ready: its script has run and its
// WebAssembly has started (document.modelContext.ready resolved). If the
// script has not run yet and the page is still loading, Ready waits for the
// page to finish loading (a script tag later in the page, async and defer
// scripts); if the page has loaded without it, Ready returns ErrNotLoaded.
// If the module failed to start, Ready returns its error (an [*Error]
// whose message says what to fix).
//
// Register works before Ready (the module queues registrations made while
// it starts) but not before the module's script has run: an app that may
// start first calls Ready before Register. Ready blocks: call it from main
// or another goroutine, never from a function JavaScript calls.
func Ready(ctx context.Context) error {
	mc, err := installed(ctx)
	if err != nil {
		return err
	}
	_, err = await(ctx, mc.Get("ready"))
	return err
}

// installed returns document.modelContext once the module's script has run,
// waiting for DOMContentLoaded and load while the page is loading.
func installed(ctx context.Context) (js.Value, error) {
	if mc, err := modelContext(); err == nil {
		return mc, nil
	}
	doc := global.Get("document")
	if doc.Type() != js.TypeObject {
		return js.Value{}, ErrNotLoaded
	}
	wake := make(chan struct{}, 1)
	f := newFunc(func(js.Value, []js.Value) any {
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	})
	defer func() {
		doc.Call("removeEventListener", "DOMContentLoaded", f)
		global.Call("removeEventListener", "load", f)
		releaseFunc(f)
	}()
	doc.Call("addEventListener", "DOMContentLoaded", f)
	global.Call("addEventListener", "load", f)
	for {
		if mc, err := modelContext(); err == nil {
			return mc, nil
		}
		if doc.Get("readyState").String() == "complete" {
			return js.Value{}, ErrNotLoaded
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return js.Value{}, ctx.Err()
		}
	}
}

// Load adds the module's script tag to the page, <script src="src"> with
// the attributes attrs (for example {"data-wasm": "/static/modelcontext.wasm"}
// when the .wasm is not beside the script, or {"data-debug": ""}), waits
// for it to run and then for the module to be ready, as [Ready] does. If
// the module is already on the page, Load only waits for it to be ready.
// Load blocks: call it from main or another goroutine.
func Load(ctx context.Context, src string, attrs map[string]string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(p)
		}
	}()
	if _, err := modelContext(); err == nil {
		return Ready(ctx)
	}
	doc := global.Get("document")
	if doc.Type() != js.TypeObject {
		return ErrNotLoaded
	}
	script := doc.Call("createElement", "script")
	script.Call("setAttribute", "src", src)
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if _, err := call(script, "setAttribute", name, attrs[name]); err != nil {
			return err
		}
	}
	loaded := make(chan bool, 1)
	onLoad := newFunc(func(js.Value, []js.Value) any { loaded <- true; return nil })
	onError := newFunc(func(js.Value, []js.Value) any { loaded <- false; return nil })
	defer func() {
		script.Call("removeEventListener", "load", onLoad)
		script.Call("removeEventListener", "error", onError)
		releaseFunc(onLoad)
		releaseFunc(onError)
	}()
	script.Call("addEventListener", "load", onLoad)
	script.Call("addEventListener", "error", onError)
	parent := doc.Get("head")
	if parent.Type() != js.TypeObject {
		parent = doc.Get("documentElement")
	}
	if _, err := call(parent, "appendChild", script); err != nil {
		return err
	}
	select {
	case ok := <-loaded:
		if !ok {
			return &Error{Name: "Error", Message: "modelcontext: could not load the script " + strconv.Quote(src) + "; check the URL (and the page's Content-Security-Policy)"}
		}
	case <-ctx.Done():
		return ctx.Err()
	}
	if _, err := modelContext(); err != nil {
		return &Error{Name: "Error", Message: "modelcontext: the script " + strconv.Quote(src) + " ran but did not install document.modelContext; is it modelcontext.js?"}
	}
	return Ready(ctx)
}
