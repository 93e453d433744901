//go:build js && wasm

package modelcontext

import (
	"context"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// Register hands r to the module's registerResource: a descriptor parsed
// from r's JSON, with get (and subscribe, when r has a Watch) functions
// that call back into Go.
func (b browser) Register(r page.Registration) (func(), error) {
	mc, err := modelContext()
	if err != nil {
		return noop, err
	}
	reg := &registration{uri: r.Key, get: r.Get}
	reg.ctx, reg.cancel = context.WithCancel(context.Background())
	if r.Get.Get != nil {
		reg.getFunc = newFunc(reg.read)
	}
	d, err := invoke(jsonParse, string(r.Descriptor))
	if err != nil {
		reg.cancel()
		reg.release()
		return noop, err
	}
	if reg.getFunc.Truthy() {
		d.Set("get", reg.getFunc)
	}
	if r.Template && r.Complete != nil {
		complete := jsObject.New()
		for _, name := range page.Variables(r.Key) {
			f := newFunc(reg.completer(name, r.Complete))
			reg.completeFuncs = append(reg.completeFuncs, f)
			complete.Set(name, f)
		}
		d.Set("complete", complete)
	}
	if r.Watch != nil {
		stop, failure := page.StartWatch(reg.uri, r.Watch, reg.changed)
		if failure != "" {
			reg.cancel()
			reg.release()
			return noop, &Error{Message: failure}
		}
		reg.stop = stop
		reg.teardownFunc = newFunc(func(js.Value, []js.Value) any {
			reg.unbind()
			return nil
		})
		reg.subscribeFunc = newFunc(func(_ js.Value, args []js.Value) any {
			if len(args) > 0 && args[0].Type() == js.TypeFunction {
				reg.mu.Lock()
				reg.onChange = args[0]
				reg.mu.Unlock()
			}
			return reg.teardownFunc.Value
		})
		d.Set("subscribe", reg.subscribeFunc)
	}
	un, err := call(mc, "registerResource", d)
	if err != nil {
		reg.unbind()
		reg.release()
		return noop, err
	}
	reg.unregisterJS = un
	return reg.unregister, nil
}

// registration is one Register or RegisterTemplate call: the js.Funcs it
// handed the module (released together by unregister) and the state of its
// push source.
type registration struct {
	uri           string
	get           page.Getter
	ctx           context.Context // GetContext's: ends with the registration
	cancel        context.CancelFunc
	getFunc       js.Func   // get(): calls Get
	subscribeFunc js.Func   // subscribe(onChange): keeps onChange, returns teardownFunc
	teardownFunc  js.Func   // the teardown subscribe returns: stops the source
	completeFuncs []js.Func // a template's complete[variable](value, context): call Complete
	unregisterJS  js.Value

	mu       sync.Mutex
	onChange js.Value // the module's onChange, between subscribe and teardown
	stop     func()   // the source's stop, until it has been called
	once     sync.Once
}

// changed is the onChange the resource's source calls: it tells the
// module, which calls Get and pushes the value if it changed.
func (reg *registration) changed() {
	reg.mu.Lock()
	f := reg.onChange
	reg.mu.Unlock()
	if f.Type() != js.TypeFunction {
		return // not (or no longer) subscribed by the module
	}
	if _, err := invoke(f); err != nil {
		consoleError("modelcontext: the push of " + strconv.Quote(reg.uri) + " failed: " + err.Error())
	}
}

// unbind forgets the module's onChange, stops the source and ends
// GetContext's context, once.
func (reg *registration) unbind() {
	reg.mu.Lock()
	reg.onChange = js.Undefined()
	stop := reg.stop
	reg.stop = nil
	reg.mu.Unlock()
	reg.cancel()
	page.Stop(browser{}, reg.uri, stop)
}

func (reg *registration) unregister() {
	reg.once.Do(func() {
		if _, err := invoke(reg.unregisterJS); err != nil {
			consoleError("modelcontext: unregistering " + strconv.Quote(reg.uri) + " failed: " + err.Error())
		}
		reg.unbind()
		reg.release()
	})
}

// release frees the registration's js.Funcs.
func (reg *registration) release() {
	for _, f := range []*js.Func{&reg.getFunc, &reg.subscribeFunc, &reg.teardownFunc} {
		if f.Truthy() {
			releaseFunc(*f)
			*f = js.Func{}
		}
	}
	for _, f := range reg.completeFuncs {
		releaseFunc(f)
	}
	reg.completeFuncs = nil
}

// completer is the module's complete[variable](value, context) of a
// template: it returns a Promise that Complete, run in a goroutine,
// settles with its values (or rejects with its error).
func (reg *registration) completer(variable string, complete func(context.Context, string, string, map[string]string) ([]string, error)) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) any {
		value, chosen := "", map[string]string{}
		if len(args) > 0 && args[0].Type() == js.TypeString {
			value = args[0].String()
		}
		if len(args) > 1 && args[1].Type() == js.TypeObject {
			if a := args[1].Get("arguments"); a.Type() == js.TypeObject {
				chosen = stringsOf(a)
			}
		}
		p, resolve, reject := newPromise()
		go func() {
			values, err := page.Complete(reg.uri, variable, func() ([]string, error) { return complete(reg.ctx, variable, value, chosen) })
			if err != nil {
				reject.Invoke(newJSError(err.Error()))
				return
			}
			items := make([]any, len(values))
			for i, v := range values {
				items[i] = v
			}
			resolve.Invoke(js.ValueOf(items))
		}()
		return p
	}
}

// read is the module's get(): for a template, args[0] holds the
// parameters. A Get's value is returned at once (or a rejected Promise
// saying why there is none); a GetContext runs in a goroutine, and get()
// returns a Promise that its outcome settles. A panic in either is caught
// and never reaches the runtime.
func (reg *registration) read(_ js.Value, args []js.Value) any {
	var params map[string]string
	if len(args) > 0 && args[0].Type() == js.TypeObject {
		params = stringsOf(args[0])
	}
	if !reg.get.Blocking {
		v, failure := reg.value(params)
		if failure != "" {
			return rejected(failure)
		}
		return v
	}
	p, resolve, reject := newPromise()
	go func() {
		defer func() {
			if x := recover(); x != nil { // never the Get's (value recovers those): this package's
				reject.Invoke(newJSError("modelcontext: the read of " + strconv.Quote(reg.uri) + " failed: " + page.Describe(x)))
			}
		}()
		v, failure := reg.value(params)
		if failure != "" {
			reject.Invoke(newJSError(failure))
			return
		}
		resolve.Invoke(v)
	}()
	return p
}

// value calls the getter and converts its value for JavaScript, or says
// why there is none.
func (reg *registration) value(params map[string]string) (js.Value, string) {
	return page.Call(reg.uri, func() (any, error) { return reg.get.Get(reg.ctx, params) }, reg.convert)
}

func (reg *registration) convert(v any) (js.Value, string) {
	jv, err := toJS(v)
	if err != nil {
		if e, ok := err.(*Error); ok { // JSON.parse threw
			return js.Value{}, "modelcontext: Get of " + strconv.Quote(reg.uri) + " failed: " + e.Error()
		}
		return js.Value{}, page.EncodeFailure(reg.uri, err)
	}
	return jv, ""
}

// stringsOf copies an object of strings (a template's parameters) into Go.
func stringsOf(o js.Value) map[string]string {
	keys := jsObject.Call("keys", o)
	m := make(map[string]string, keys.Length())
	for i := range keys.Length() {
		k := keys.Index(i).String()
		m[k] = o.Get(k).String()
	}
	return m
}

func rejected(msg string) js.Value {
	return jsPromise.Call("reject", newJSError(msg))
}
