//go:build js && wasm

package modelcontext

import (
	"context"
	"slices"
	"strconv"
	"syscall/js"
)

// Ready waits for the module's script, then awaits
// document.modelContext.ready (which starts a lazily booted module).
func (browser) Ready(ctx context.Context) error {
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

// Load adds the module's script tag, unless the module is on the page,
// and waits for it as Ready does.
func (b browser) Load(ctx context.Context, src string, attrs map[string]string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(p)
		}
	}()
	if _, err := modelContext(); err == nil {
		return b.Ready(ctx)
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
	return b.Ready(ctx)
}
