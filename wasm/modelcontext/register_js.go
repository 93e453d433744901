//go:build js && wasm

package modelcontext

import (
	"strconv"
	"sync"
	"syscall/js"
)

// Register registers r on the page's document.modelContext and returns the
// function that unregisters it. If the module is still starting, the
// registration is queued by the module and takes effect once it is ready;
// if r.URI is already registered (by Go or by the page's JavaScript), r
// replaces it in its place.
//
// r.Subscribe, if set, is called before Register returns; if it panics,
// Register returns an error and registers nothing.
//
// Register returns ErrNotLoaded if the module's script has not run yet (see
// [Ready]), and an [*Error] with Name "TypeError" and Field set if the
// module refuses the descriptor (an empty or scheme-less URI, an empty
// Name, a nil Get, annotations out of range). On error, unregister does
// nothing.
//
// unregister ends the registration, stops r.Subscribe's source and
// releases every js.Func Register created. It may be called more than
// once, and from any goroutine; once the uri has been registered again by
// someone else it only releases what this registration held.
func Register(r Resource) (unregister func(), err error) {
	desc := resourceDescriptor{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType, Annotations: r.Annotations}
	reg := &registration{uri: r.URI}
	if r.Get != nil {
		reg.getFunc = newFunc(func(js.Value, []js.Value) any {
			return reg.value(r.Get)
		})
	}
	return reg.register(desc, r.Subscribe)
}

// RegisterTemplate registers t, a URI template resource, on the page's
// document.modelContext: reads of uris that match t.URITemplate (and that
// no concrete resource answers) call t.Get with the template's parameters.
// Errors and unregister are as in [Register]; errors name "uriTemplate"
// where Register's name "uri".
func RegisterTemplate(t Template) (unregister func(), err error) {
	desc := templateDescriptor{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MimeType: t.MimeType, Annotations: t.Annotations}
	reg := &registration{uri: t.URITemplate}
	if t.Get != nil {
		reg.getFunc = newFunc(func(_ js.Value, args []js.Value) any {
			return reg.value(func() (any, error) {
				params := map[string]string{}
				if len(args) > 0 {
					if err := Decode(args[0], &params); err != nil {
						return nil, err
					}
				}
				return t.Get(params)
			})
		})
	}
	return reg.register(desc, nil)
}

func noop() {}

// registration is one Register or RegisterTemplate call: the js.Funcs it
// handed the module (released together by unregister) and the state of its
// push source.
type registration struct {
	uri           string
	getFunc       js.Func // get(): calls Get
	subscribeFunc js.Func // subscribe(onChange): keeps onChange, returns teardownFunc
	teardownFunc  js.Func // the teardown subscribe returns: stops the source
	unregisterJS  js.Value

	mu       sync.Mutex
	onChange js.Value // the module's onChange, between subscribe and teardown
	stop     func()   // the source's stop, until it has been called
	once     sync.Once
}

func (reg *registration) register(desc any, subscribe func(onChange func()) func()) (func(), error) {
	mc, err := modelContext()
	if err != nil {
		reg.release()
		return noop, err
	}
	d, err := toJS(desc)
	if err != nil {
		reg.release()
		return noop, err
	}
	if reg.getFunc.Truthy() {
		d.Set("get", reg.getFunc)
	}
	if subscribe != nil {
		stop, err := startSource(reg.uri, subscribe, reg.changed)
		if err != nil {
			reg.release()
			return noop, err
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

// startSource calls the resource's Subscribe, turning a panic into an error.
func startSource(uri string, subscribe func(onChange func()) func(), onChange func()) (stop func(), err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Message: "modelcontext: Subscribe of " + strconv.Quote(uri) + " panicked: " + describe(p)}
		}
	}()
	return subscribe(onChange), nil
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

// unbind forgets the module's onChange and stops the source, once.
func (reg *registration) unbind() {
	reg.mu.Lock()
	reg.onChange = js.Undefined()
	stop := reg.stop
	reg.stop = nil
	reg.mu.Unlock()
	if stop == nil {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			consoleError("modelcontext: the stop function of " + strconv.Quote(reg.uri) + "'s Subscribe panicked: " + describe(p))
		}
	}()
	stop()
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
}

// value is what the module's get() returns: the value of get, converted
// for JavaScript, or a rejected Promise whose Error says why there is none.
// A panic in get is caught here and never reaches the runtime.
func (reg *registration) value(get func() (any, error)) (result any) {
	who := "modelcontext: Get of " + strconv.Quote(reg.uri)
	defer func() {
		if p := recover(); p != nil {
			result = rejected(who + " panicked: " + describe(p))
		}
	}()
	v, err := get()
	if err != nil {
		return rejected(who + " failed: " + err.Error())
	}
	jv, err := toJS(v)
	if err != nil {
		if _, ok := err.(*Error); ok { // JSON.parse threw
			return rejected(who + " failed: " + err.Error())
		}
		return rejected(who + " returned a value JSON cannot hold: " + err.Error())
	}
	return jv
}

func rejected(msg string) js.Value {
	return jsPromise.Call("reject", newJSError(msg))
}
