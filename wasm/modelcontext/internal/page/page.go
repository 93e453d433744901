// Package page is the interface between package modelcontext's API and what
// carries it out: the page's document.modelContext in the browser
// (modelcontext's js && wasm files), or modelcontexttest's Page on the host.
// Everything here is plain Go, so that the API builds, and its test double
// runs, outside the browser.
//
// Values cross it as Go values on the way in (a Getter's result, which the
// Page encodes) and as a [Value] on the way out (which the API decodes into
// the caller's type), so that the browser's Page never copies a JavaScript
// value into Go that nobody asked for.
package page

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Page is what the API's functions act on.
type Page interface {
	// Ready waits until the page's registry is ready; Load adds its script
	// first.
	Ready(ctx context.Context) error
	Load(ctx context.Context, src string, attrs map[string]string) error
	// Register registers r and returns its unregister.
	Register(r Registration) (unregister func(), err error)
	// Read reads the resource uri.
	Read(ctx context.Context, uri string) (Value, error)
	// Subscribe calls handler with every dispatched value of uri, with
	// what opts asks for.
	Subscribe(uri string, opts SubscribeOptions, handler func(Push)) (stop func(), err error)
	// Listen calls handler for every event of this type
	// ("resourceupdated", "resourcelistchanged").
	Listen(event string, handler func(Event)) (stop func(), err error)
	// Revision returns the page's revision
	// (document.modelContext.revision).
	Revision() (int64, error)
	// ChangesSince answers document.modelContext.changesSince(revision):
	// a Value that decodes into a modelcontext.Changes.
	ChangesSince(ctx context.Context, revision int64) (Value, error)
	// List returns the resources, or the templates, as a Value that
	// decodes into a []modelcontext.Info or []modelcontext.TemplateInfo.
	List(templates bool) (Value, error)
	// Report tells the page author of a failure nobody else would hear of
	// (the browser's console).
	Report(msg string)
}

// Registration is one Register or RegisterTemplate call.
type Registration struct {
	// Key is the uri, or the uriTemplate of a template, as given.
	Key      string
	Template bool
	// Descriptor is the JSON of the fields the registry reads (uri or
	// uriTemplate, name, title, description, mimeType, annotations,
	// settle), empty required fields included, so that the registry's
	// own validation names them.
	Descriptor []byte
	Get        Getter
	// Watch is the resource's push source, or nil.
	Watch func(onChange func()) (stop func())
	// Complete is a template's completer (Template.Complete), or nil.
	Complete func(ctx context.Context, variable, value string, args map[string]string) ([]string, error)
}

// Variables returns the names of a URI template's {variables}, in order.
func Variables(uriTemplate string) []string {
	var names []string
	for rest := uriTemplate; ; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return names
		}
		close := strings.IndexByte(rest[open:], '}')
		if close < 0 {
			return names
		}
		names = append(names, rest[open+1:open+close])
		rest = rest[open+close+1:]
	}
}

// Complete calls a completer and turns a panic into a failure naming the
// template and the variable.
func Complete(uriTemplate, variable string, complete func() ([]string, error)) (values []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			values, err = nil, fmt.Errorf("modelcontext: Complete of %q (variable %q) panicked: %s", uriTemplate, variable, Describe(p))
		}
	}()
	values, err = complete()
	if values == nil && err == nil {
		values = []string{}
	}
	return values, err
}

// Getter returns a registration's value: Get is nil when none was given.
// A Blocking getter may take time (Resource.GetContext): it runs in a
// goroutine of its own, never inside a call from JavaScript, and ctx ends
// with its registration. One that does not block (Resource.Get) runs where
// it is called and ignores ctx.
type Getter struct {
	Get      func(ctx context.Context, params map[string]string) (any, error)
	Blocking bool
}

// Value is a resource's value as the page holds it.
type Value interface {
	// Decode stores the value in the Go value dst points to, with
	// encoding/json's rules (binary values into a *[]byte).
	Decode(dst any) error
}

// SubscribeOptions say what a consumer subscription is handed besides
// each value.
type SubscribeOptions struct {
	// Revision: the page's revision as the value is handed over.
	Revision bool
	// Patch: the revision, and the RFC 6902 patch from the value the
	// subscription was handed before (subscribeResource's {patch: true}).
	Patch bool
}

// Push is one value a consumer subscription is handed.
type Push struct {
	Value Value
	// Revision is the page's revision as it was handed over, when
	// SubscribeOptions asked for it; else 0.
	Revision int64
	// Patch is the patch, a Value that decodes into a
	// []modelcontext.PatchOp, or nil when there is none (not asked for,
	// no previous value, a value that is not plain JSON, or a patch
	// longer than the value).
	Patch Value
}

// Event is one resourceupdated or resourcelistchanged event.
type Event struct {
	URI      string // resourceupdated: the uri
	Value    Value  // resourceupdated: the value; resourcelistchanged: the resources
	Revision int64  // the page's revision the event stepped it to
	// Underlying is the browser's CustomEvent (a js.Value), or nil.
	Underlying any
}

var (
	installed atomic.Pointer[Page] // a test's Page (modelcontexttest)
	fallback  Page                 // the browser's, set by modelcontext's init in js && wasm builds
)

// SetDefault sets the Page used when no test installed one. It is called
// once, from an init function.
func SetDefault(p Page) { fallback = p }

// Current returns the Page the API acts on, or nil outside the browser
// when no test installed one.
func Current() Page {
	if p := installed.Load(); p != nil {
		return *p
	}
	return fallback
}

// Install makes p the current Page until restore is called. It fails when
// another Page is installed.
func Install(p Page) (restore func(), ok bool) {
	if !installed.CompareAndSwap(nil, &p) {
		return nil, false
	}
	return func() { installed.Store(nil) }, true
}

// Call calls get, then convert with its value (which encodes it for the
// page, and may call the value's MarshalJSON), and turns a panic in either
// into a failure. failure is the message of a read that fails, "" when
// result is the value: it names the uri and says what went wrong.
func Call[T any](uri string, get func() (any, error), convert func(v any) (result T, failure string)) (result T, failure string) {
	who := "modelcontext: Get of " + strconv.Quote(uri)
	defer func() {
		if p := recover(); p != nil {
			var zero T
			result, failure = zero, who+" panicked: "+Describe(p)
		}
	}()
	v, err := get()
	if err != nil {
		var zero T
		return zero, who + " failed: " + err.Error()
	}
	return convert(v)
}

// Describe renders a recovered panic value.
func Describe(p any) string {
	if err, ok := p.(error); ok {
		return err.Error()
	}
	return fmt.Sprint(p)
}

// EncodeFailure is the failure of a read whose Get returned v that JSON
// cannot hold (err is encoding/json's).
func EncodeFailure(uri string, err error) string {
	return "modelcontext: Get of " + strconv.Quote(uri) + " returned a value JSON cannot hold: " + err.Error()
}

// StartWatch calls a resource's Watch, turning a panic into an error
// message (nothing is registered then).
func StartWatch(uri string, watch func(onChange func()) func(), onChange func()) (stop func(), failure string) {
	defer func() {
		if p := recover(); p != nil {
			stop, failure = nil, "modelcontext: Watch of "+strconv.Quote(uri)+" panicked: "+Describe(p)
		}
	}()
	return watch(onChange), ""
}

// Stop calls the stop function of a Watch, reporting a panic in it.
func Stop(p Page, uri string, stop func()) {
	if stop == nil {
		return
	}
	defer func() {
		if x := recover(); x != nil {
			p.Report("modelcontext: the stop function of " + strconv.Quote(uri) + "'s Watch panicked: " + Describe(x))
		}
	}()
	stop()
}

// encoder is a JSON encoder that does not escape HTML, with its buffer.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// JSON returns the JSON text of v as encoding/json writes it (map keys
// sorted, struct tags, Marshaler and TextMarshaler methods), without
// escaping <, > and &: equal values always give equal text, which is what
// lets the registry recognise an unchanged value.
func JSON(v any) (string, error) {
	e := encoders.Get().(*encoder)
	defer func() {
		if e.buf.Cap() <= 64<<10 {
			e.buf.Reset()
			encoders.Put(e)
		}
	}()
	if err := e.enc.Encode(v); err != nil {
		return "", err
	}
	b := e.buf.Bytes()
	return string(b[:len(b)-1]), nil // without Encode's newline
}

// FieldNamed returns the descriptor field or the argument that one of the
// module's TypeError or RangeError messages names: `modelcontext:
// registerResource: "uri" must not be empty`, `... reading "title" threw:
// ...`, or `modelcontext: changesSince: "revision" must be ...`; "" for
// other messages. It is how an *modelcontext.Error's Field is found.
func FieldNamed(message string) string {
	rest, ok := strings.CutPrefix(message, "modelcontext: ")
	if !ok {
		return ""
	}
	_, rest, ok = strings.Cut(rest, ": ")
	if !ok {
		return ""
	}
	rest = strings.TrimPrefix(rest, "reading ")
	if !strings.HasPrefix(rest, `"`) {
		return ""
	}
	name, _, ok := strings.Cut(rest[1:], `"`)
	if !ok {
		return ""
	}
	return name
}
