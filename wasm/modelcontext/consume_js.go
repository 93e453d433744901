//go:build js && wasm

package modelcontext

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// Read calls readResource and awaits its Promise; a Blob value is read
// into an ArrayBuffer first.
func (browser) Read(ctx context.Context, uri string) (page.Value, error) {
	mc, err := modelContext()
	if err != nil {
		return nil, err
	}
	p, err := call(mc, "readResource", uri)
	if err != nil {
		return nil, err
	}
	v, err := await(ctx, p)
	if err != nil {
		return nil, err
	}
	if isBlob(v) {
		if v, err = call(v, "arrayBuffer"); err == nil {
			v, err = await(ctx, v)
		}
		if err != nil {
			return nil, err
		}
	}
	return jsValue{v}, nil
}

// jsValue is a JavaScript value, decoded into Go on demand.
type jsValue struct{ v js.Value }

// Decode stores v in the Go value dst points to. A *js.Value receives v
// itself. Binary values (ArrayBuffer, typed arrays, DataView) are copied
// into a *[]byte, or an *any (as []byte). Any other value is read through
// its JSON text (JSON.stringify; undefined is null) with encoding/json's
// Unmarshal.
func (x jsValue) Decode(dst any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(p)
		}
	}()
	v := x.v
	if d, ok := dst.(*js.Value); ok {
		*d = v
		return nil
	}
	if isBinary(v) {
		var view js.Value
		if v.InstanceOf(jsArrayBuffer) {
			view = jsUint8Array.New(v)
		} else {
			view = jsUint8Array.New(v.Get("buffer"), v.Get("byteOffset"), v.Get("byteLength"))
		}
		b := make([]byte, view.Length())
		js.CopyBytesToGo(b, view)
		switch d := dst.(type) {
		case *[]byte:
			*d = b
			return nil
		case *any:
			*d = b
			return nil
		}
		return errors.New("a binary value (" + v.Get("constructor").Get("name").String() + ") decodes only into a []byte or an any, not a " + reflect.TypeOf(dst).Elem().String())
	}
	if isBlob(v) {
		return errors.New("a Blob must be read first (Read does that)")
	}
	text, err := invoke(jsonStringify, v)
	if err != nil {
		return errors.New("JSON.stringify failed: " + err.Error())
	}
	s := "null" // undefined, a function or a symbol: no JSON text
	if text.Type() == js.TypeString {
		s = text.String()
	}
	return json.Unmarshal([]byte(s), dst)
}

func isBlob(v js.Value) bool {
	blob := global.Get("Blob")
	return blob.Type() == js.TypeFunction && v.Type() == js.TypeObject && v.InstanceOf(blob)
}

func isBinary(v js.Value) bool {
	if v.Type() != js.TypeObject {
		return false
	}
	return v.InstanceOf(jsArrayBuffer) || jsArrayBuffer.Call("isView", v).Bool()
}

// List calls getResources or getResourceTemplates.
func (browser) List(templates bool) (page.Value, error) {
	mc, err := modelContext()
	if err != nil {
		return nil, err
	}
	method := "getResources"
	if templates {
		method = "getResourceTemplates"
	}
	v, err := call(mc, method)
	if err != nil {
		return nil, err
	}
	return jsValue{v}, nil
}

// Subscribe calls subscribeResource with a handler that lives until stop:
// with {patch: true} when opts asks for patches (the handler's third
// argument is then {revision, patch}); a revision without a patch is the
// page's as the handler is called, which is what the third argument says.
func (browser) Subscribe(uri string, opts page.SubscribeOptions, handler func(page.Push)) (stop func(), err error) {
	mc, err := modelContext()
	if err != nil {
		return noop, err
	}
	f := newFunc(func(_ js.Value, args []js.Value) any {
		defer report("a Subscribe handler of " + strconv.Quote(uri))
		push := page.Push{Value: jsValue{arg(args, 0)}}
		switch {
		case opts.Patch:
			info := arg(args, 2)
			if info.Type() == js.TypeObject {
				push.Revision = revisionOf(info)
				if p := info.Get("patch"); p.Type() == js.TypeObject {
					push.Patch = jsValue{p}
				}
			}
		case opts.Revision:
			push.Revision = revisionOf(mc)
		}
		handler(push)
		return nil
	})
	var options any
	if opts.Patch {
		options = map[string]any{"patch": true}
	}
	unsubscribe, err := call(mc, "subscribeResource", uri, f, options)
	if err != nil {
		releaseFunc(f)
		return noop, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if _, err := invoke(unsubscribe); err != nil {
				consoleError("modelcontext: unsubscribing from " + strconv.Quote(uri) + " failed: " + err.Error())
			}
			releaseFunc(f)
		})
	}, nil
}

// Listen adds an event listener to document.modelContext that lives until
// stop.
func (browser) Listen(event string, handler func(page.Event)) (stop func(), err error) {
	mc, err := modelContext()
	if err != nil {
		return noop, err
	}
	f := newFunc(func(_ js.Value, args []js.Value) any {
		defer report("a " + event + " handler")
		e := arg(args, 0)
		detail := e.Get("detail")
		pe := page.Event{Underlying: e, Revision: revisionOf(detail)}
		if event == updated {
			pe.URI, pe.Value = detail.Get("uri").String(), jsValue{detail.Get("value")}
		} else {
			pe.Value = jsValue{detail.Get("resources")}
		}
		handler(pe)
		return nil
	})
	if _, err := call(mc, "addEventListener", event, f); err != nil {
		releaseFunc(f)
		return noop, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			if _, err := call(mc, "removeEventListener", event, f); err != nil {
				consoleError("modelcontext: removing the " + event + " listener failed: " + err.Error())
			}
			releaseFunc(f)
		})
	}, nil
}

// Report writes msg to the console.
func (browser) Report(msg string) { consoleError(msg) }

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// report, deferred in a function JavaScript calls, turns a panic into a
// console error, so that it never stops the Go runtime.
func report(who string) {
	if p := recover(); p != nil {
		consoleError("modelcontext: " + who + " panicked: " + page.Describe(p))
	}
}
