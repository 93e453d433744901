//go:build js && wasm

package modelcontext

import (
	"context"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// browser is the page the package talks to in the browser: the
// document.modelContext that modelcontext.js installs.
type browser struct{}

func init() { page.SetDefault(browser{}) }

// The JavaScript values the package uses, looked up once.
var (
	global        = js.Global()
	jsonParse     = global.Get("JSON").Get("parse")
	jsonStringify = global.Get("JSON").Get("stringify")
	jsPromise     = global.Get("Promise")
	jsError       = global.Get("Error")
	jsString      = global.Get("String")
	jsUint8Array  = global.Get("Uint8Array")
	jsArrayBuffer = global.Get("ArrayBuffer")
	jsObject      = global.Get("Object")
)

// liveFuncs counts the js.Funcs this package holds. Each has one of three
// lifetimes: the program's (the Promise settler), one registration's
// (released by its unregister) or one subscription's or listener's
// (released by its stop).
var liveFuncs atomic.Int64

func newFunc(fn func(this js.Value, args []js.Value) any) js.Func {
	liveFuncs.Add(1)
	return js.FuncOf(fn)
}

func releaseFunc(f js.Func) {
	liveFuncs.Add(-1)
	f.Release()
}

// modelContext returns document.modelContext once the module's script has
// installed its members on it, else ErrNotLoaded.
func modelContext() (js.Value, error) {
	doc := global.Get("document")
	if doc.Type() != js.TypeObject {
		return js.Value{}, ErrNotLoaded
	}
	mc := doc.Get("modelContext")
	if t := mc.Type(); t != js.TypeObject && t != js.TypeFunction {
		return js.Value{}, ErrNotLoaded
	}
	if mc.Get("registerResource").Type() != js.TypeFunction {
		return js.Value{}, ErrNotLoaded
	}
	return mc, nil
}

// call calls method m of v and returns what JavaScript threw as an *Error.
func call(v js.Value, m string, args ...any) (result js.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(p)
		}
	}()
	return v.Call(m, args...), nil
}

// invoke calls the function f and returns what JavaScript threw as an *Error.
func invoke(f js.Value, args ...any) (result js.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(p)
		}
	}()
	return f.Invoke(args...), nil
}

// recovered turns a panic of syscall/js into an error: a js.Error (an
// exception JavaScript threw) into an *Error, anything else into an error
// that says what it was.
func recovered(p any) error {
	if je, ok := p.(js.Error); ok {
		return errorOf(je.Value)
	}
	if err, ok := p.(error); ok {
		return &Error{Message: "modelcontext: " + err.Error()}
	}
	return &Error{Message: "modelcontext: " + page.Describe(p)}
}

// errorOf is the *Error of a value JavaScript threw or rejected with.
func errorOf(v js.Value) *Error {
	if t := v.Type(); t == js.TypeObject || t == js.TypeFunction {
		name, msg := v.Get("name"), v.Get("message")
		if name.Type() == js.TypeString && msg.Type() == js.TypeString {
			return newError(name.String(), msg.String())
		}
	}
	return newError("", safeString(v))
}

// safeString is String(v), or a placeholder if that throws.
func safeString(v js.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "an unprintable value"
		}
	}()
	return jsString.Invoke(v).String()
}

// newJSError makes a JavaScript Error with message msg.
func newJSError(msg string) js.Value {
	return jsError.New(msg)
}

// consoleError reports on the page's console, never failing.
func consoleError(args ...any) {
	defer func() { _ = recover() }()
	global.Get("console").Call("error", args...)
}

// toJS turns a Go value into the JavaScript value the module receives:
// nil is null, a js.Value or js.Func is passed as it is, a string is a
// string, a []byte is a new Uint8Array (a binary resource), and every other
// value is its JSON text (encoding/json's, see page.JSON) parsed with
// JSON.parse, so that equal values always give objects with the same key
// order. An error is encoding/json's.
func toJS(v any) (js.Value, error) {
	switch x := v.(type) {
	case nil:
		return js.Null(), nil
	case js.Value:
		return x, nil
	case js.Func:
		return x.Value, nil
	case string:
		return js.ValueOf(x), nil
	case []byte:
		a := jsUint8Array.New(len(x))
		js.CopyBytesToJS(a, x)
		return a, nil
	}
	text, err := page.JSON(v)
	if err != nil {
		return js.Value{}, err
	}
	return invoke(jsonParse, text)
}

// Making Promises. newPromise returns a new Promise and the functions that
// settle it, without a js.Func per Promise: the executor, a js.Func that
// lives as long as the program, hands them over while new Promise runs it
// (synchronously, on this goroutine).

var promises struct {
	once            sync.Once
	mu              sync.Mutex
	executor        js.Func
	resolve, reject js.Value
}

func newPromise() (p, resolve, reject js.Value) {
	promises.once.Do(func() {
		promises.executor = newFunc(func(_ js.Value, args []js.Value) any {
			promises.resolve, promises.reject = args[0], args[1]
			return nil
		})
	})
	promises.mu.Lock()
	defer promises.mu.Unlock()
	p = jsPromise.New(promises.executor)
	resolve, reject = promises.resolve, promises.reject
	promises.resolve, promises.reject = js.Value{}, js.Value{}
	return p, resolve, reject
}

// Awaiting Promises. A Promise is awaited only from a goroutine: the
// settler below, a js.Func that lives as long as the program, is bound to
// the await's number (Function.prototype.bind, no new js.Func per await)
// and hands the outcome to that goroutine through a channel. An await
// whose context ends first forgets its number, so a late outcome finds
// nobody and is dropped.

type outcome struct {
	value js.Value
	ok    bool
}

var awaits struct {
	once    sync.Once
	settler js.Func
	mu      sync.Mutex
	next    int
	waiting map[int]chan outcome
}

func settler() js.Func {
	awaits.once.Do(func() {
		awaits.waiting = map[int]chan outcome{}
		awaits.settler = newFunc(func(_ js.Value, args []js.Value) any {
			// args: the await's number, fulfilled or not, the outcome.
			if len(args) < 3 {
				return nil
			}
			id := args[0].Int()
			awaits.mu.Lock()
			ch := awaits.waiting[id]
			delete(awaits.waiting, id)
			awaits.mu.Unlock()
			if ch != nil {
				ch <- outcome{value: args[2], ok: args[1].Bool()}
			}
			return nil
		})
	})
	return awaits.settler
}

// await waits for the Promise (or plain value) p to settle, or for ctx to
// end. A rejection comes back as an *Error. It must be called from a
// goroutine, never from inside a call from JavaScript: it blocks, and the
// Promise cannot settle while JavaScript waits for Go.
func await(ctx context.Context, p js.Value) (js.Value, error) {
	f := settler()
	ch := make(chan outcome, 1)
	awaits.mu.Lock()
	awaits.next++
	id := awaits.next
	awaits.waiting[id] = ch
	awaits.mu.Unlock()
	onOK, err := call(f.Value, "bind", nil, id, true)
	if err == nil {
		var onErr, promise js.Value
		if onErr, err = call(f.Value, "bind", nil, id, false); err == nil {
			if promise, err = call(jsPromise, "resolve", p); err == nil {
				_, err = call(promise, "then", onOK, onErr)
			}
		}
	}
	if err != nil {
		forget(id)
		return js.Value{}, err
	}
	select {
	case o := <-ch:
		if !o.ok {
			return js.Value{}, errorOf(o.value)
		}
		return o.value, nil
	case <-ctx.Done():
		forget(id)
		return js.Value{}, ctx.Err()
	}
}

func forget(id int) {
	awaits.mu.Lock()
	delete(awaits.waiting, id)
	awaits.mu.Unlock()
}
