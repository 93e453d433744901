//go:build js && wasm

package modelcontext

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"syscall/js"
)

// Read reads the resource uri, registered by Go or by the page's JavaScript,
// and returns its value as JavaScript holds it (use [Decode] for a Go
// value, or [ReadInto]). It waits for the resource's getter if that returns
// a Promise, and for the module if it is still starting.
//
// An unknown uri is an [*Error] for which errors.Is(err, ErrNotFound)
// holds; a getter that threw or rejected is an *Error with its name and
// message. Read blocks: call it from a goroutine, never from a Get, a
// handler or another function JavaScript calls.
func Read(ctx context.Context, uri string) (js.Value, error) {
	mc, err := modelContext()
	if err != nil {
		return js.Value{}, err
	}
	p, err := call(mc, "readResource", uri)
	if err != nil {
		return js.Value{}, err
	}
	return await(ctx, p)
}

// ReadInto reads the resource uri like [Read] and stores its value in the
// Go value dst points to, as [Decode] does. A Blob value is read first.
func ReadInto(ctx context.Context, uri string, dst any) error {
	v, err := Read(ctx, uri)
	if err != nil {
		return err
	}
	if isBlob(v) {
		if v, err = call(v, "arrayBuffer"); err == nil {
			v, err = await(ctx, v)
		}
		if err != nil {
			return err
		}
	}
	return Decode(v, dst)
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

// Decode stores the JavaScript value v in the Go value dst points to.
//
// A *js.Value receives v itself. Binary values (ArrayBuffer, typed arrays,
// DataView) are copied into a *[]byte, or an *any (as []byte). Any other
// value is read through its JSON text (JSON.stringify) with the rules of
// encoding/json's Unmarshal: object keys match `json` tags or field names,
// ignoring case; unknown keys are ignored; an *any receives
// map[string]any, []any, float64, string, bool or nil. Decode stops at
// the first value that does not fit, and its error says where
// (".items[2].price: a JSON string does not fit int").
func Decode(v js.Value, dst any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(p)
		}
	}()
	switch d := dst.(type) {
	case *js.Value:
		*d = v
		return nil
	}
	if isBinary(v) {
		view := v
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
		return errors.New("modelcontext: a binary value (" + v.Get("constructor").Get("name").String() + ") decodes only into *[]byte or *any, not " + typeOf(dst))
	}
	if isBlob(v) {
		return errors.New("modelcontext: a Blob must be read first (ReadInto does that)")
	}
	text, err := invoke(jsonStringify, v)
	if err != nil {
		return errors.New("modelcontext: JSON.stringify failed: " + err.Error())
	}
	s := "null" // undefined, a function or a symbol: no JSON text
	if text.Type() == js.TypeString {
		s = text.String()
	}
	return json.Unmarshal([]byte(s), dst)
}

// Resources lists the page's resources, in registration order, as
// document.modelContext.getResources() does.
func Resources() ([]Info, error) {
	var list []Info
	return list, listInto("getResources", &list)
}

// Templates lists the page's URI templates, in registration order.
func Templates() ([]TemplateInfo, error) {
	var list []TemplateInfo
	return list, listInto("getResourceTemplates", &list)
}

func listInto(method string, dst any) error {
	mc, err := modelContext()
	if err != nil {
		return err
	}
	v, err := call(mc, method)
	if err != nil {
		return err
	}
	return Decode(v, dst)
}

// Subscribe calls handler with the value of every push of uri that the
// module dispatches (after de-duplication: only changed values), in order,
// until stop is called, as document.modelContext.subscribeResource does.
// The subscription survives a replacement of the resource and ends when it
// is unregistered; stop must still be called to release the js.Func it
// holds. stop may be called more than once, from any goroutine.
//
// handler runs inside a call from JavaScript: it must not block (start a
// goroutine for slow work). A panic in it is reported on the console and
// stops nothing else. An unknown uri is an error for which
// errors.Is(err, ErrNotFound) holds.
func Subscribe(uri string, handler func(value js.Value)) (stop func(), err error) {
	mc, err := modelContext()
	if err != nil {
		return noop, err
	}
	f := newFunc(func(_ js.Value, args []js.Value) any {
		defer report("a Subscribe handler of " + strconv.Quote(uri))
		handler(arg(args, 0))
		return nil
	})
	unsubscribe, err := call(mc, "subscribeResource", uri, f)
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

// OnUpdated calls handler for every resourceupdated event: every push the
// module dispatches, of any resource, with its uri and value. The rules of
// Subscribe's handler and stop apply.
func OnUpdated(handler func(uri string, value js.Value)) (stop func(), err error) {
	return listen("resourceupdated", func(detail js.Value) {
		handler(detail.Get("uri").String(), detail.Get("value"))
	})
}

// OnListChanged calls handler with the new list of resources for every
// resourcelistchanged event: every register, replace and unregister. The
// rules of Subscribe's handler and stop apply.
func OnListChanged(handler func(resources []Info)) (stop func(), err error) {
	return listen("resourcelistchanged", func(detail js.Value) {
		var list []Info
		if err := Decode(detail.Get("resources"), &list); err != nil {
			consoleError("modelcontext: reading a resourcelistchanged event failed: " + err.Error())
			return
		}
		handler(list)
	})
}

// listen adds an event listener to document.modelContext that hands the
// event's detail to handle.
func listen(event string, handle func(detail js.Value)) (stop func(), err error) {
	mc, err := modelContext()
	if err != nil {
		return noop, err
	}
	f := newFunc(func(_ js.Value, args []js.Value) any {
		defer report("a " + event + " handler")
		handle(arg(args, 0).Get("detail"))
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
		consoleError("modelcontext: " + who + " panicked: " + describe(p))
	}
}
