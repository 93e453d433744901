package modelcontext

import (
	"context"
	"encoding/json"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// current returns the page the package talks to: the browser's
// document.modelContext, or a test's (modelcontexttest.NewPage).
func current() (page.Page, error) {
	if p := page.Current(); p != nil {
		return p, nil
	}
	return nil, noPage{}
}

func noop() {}

// Ready waits until the module is ready: its script has run and its
// WebAssembly has started (document.modelContext.ready resolved). If the
// script has not run yet and the page is still loading, Ready waits for the
// page to finish loading (a script tag later in the page, async and defer
// scripts); if the page has loaded without it, Ready returns ErrNotLoaded.
// If the module failed to start, Ready returns its error (an [*Error]
// whose message says what to fix).
//
// The module starts when something reads or follows the page's resources;
// Ready is such a contact (it awaits document.modelContext.ready), so on a
// page that starts the module lazily, Ready starts it. An app that only
// registers resources, on a page whose modelcontext.js comes before the
// app, does not need to call it: registrations made before the module runs
// are kept, and take effect when it starts.
//
// Ready blocks: call it from main or another goroutine, never from a
// function JavaScript calls.
func Ready(ctx context.Context) error {
	p, err := current()
	if err != nil {
		return err
	}
	return p.Ready(ctx)
}

// Load adds the module's script tag to the page, <script src="src"> with
// the attributes attrs (for example {"data-wasm": "/static/modelcontext.wasm"}
// when the .wasm is not beside the script, or {"data-debug": ""}), waits
// for it to run and then for the module to be ready, as [Ready] does. If
// the module is already on the page, Load only waits for it to be ready.
// Load blocks: call it from main or another goroutine.
func Load(ctx context.Context, src string, attrs map[string]string) error {
	p, err := current()
	if err != nil {
		return err
	}
	return p.Load(ctx, src, attrs)
}

// Register registers r on the page's document.modelContext and returns the
// function that unregisters it. If the module has not started yet, the
// module keeps the registration and it takes effect once the module runs;
// if r.URI is already registered (by Go or by the page's JavaScript), r
// replaces it in its place.
//
// r.Watch, if set, is called before Register returns; if it panics,
// Register returns an error and registers nothing.
//
// Register returns ErrNotLoaded if the module's script has not run yet (see
// [Ready]), and an [*Error] with Name "TypeError" and Field set if the
// module refuses the descriptor (an empty or scheme-less URI, an empty
// Name, neither Get nor GetContext, annotations out of range, an icon whose
// Src is not an https: or data: URL or a path, a negative Settle). On
// error, unregister does nothing.
//
// unregister ends the registration, stops r.Watch's source, cancels the
// context of r.GetContext and releases every js.Func Register created. It
// may be called more than once, and from any goroutine; once the uri has
// been registered again by someone else it only releases what this
// registration held.
func Register(r Resource) (unregister func(), err error) {
	p, err := current()
	if err != nil {
		return noop, err
	}
	desc := resourceDescriptor{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MimeType: r.MimeType, Annotations: r.Annotations, Icons: r.Icons}
	if r.Settle != 0 {
		ms := float64(r.Settle) / 1e6
		desc.Settle = &ms
	}
	reg := page.Registration{Key: r.URI, Watch: r.Watch}
	switch {
	case r.GetContext != nil:
		get := r.GetContext
		reg.Get = page.Getter{Blocking: true, Get: func(ctx context.Context, _ map[string]string) (any, error) { return get(ctx) }}
	case r.Get != nil:
		get := r.Get
		reg.Get = page.Getter{Get: func(context.Context, map[string]string) (any, error) { return get() }}
	}
	if reg.Descriptor, err = json.Marshal(desc); err != nil {
		return noop, err
	}
	return p.Register(reg)
}

// RegisterTemplate registers t, a URI template resource, on the page's
// document.modelContext: reads of uris that match t.URITemplate (and that
// no concrete resource answers) call t.Get with the template's parameters.
// Errors and unregister are as in [Register]; errors name "uriTemplate"
// where Register's name "uri".
func RegisterTemplate(t Template) (unregister func(), err error) {
	p, err := current()
	if err != nil {
		return noop, err
	}
	desc := templateDescriptor{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MimeType: t.MimeType, Annotations: t.Annotations, Icons: t.Icons}
	reg := page.Registration{Key: t.URITemplate, Template: true, Complete: t.Complete}
	switch {
	case t.GetContext != nil:
		reg.Get = page.Getter{Blocking: true, Get: t.GetContext}
	case t.Get != nil:
		get := t.Get
		reg.Get = page.Getter{Get: func(_ context.Context, params map[string]string) (any, error) { return get(params) }}
	}
	if reg.Descriptor, err = json.Marshal(desc); err != nil {
		return noop, err
	}
	return p.Register(reg)
}

// Read reads the resource uri, registered by Go or by the page's
// JavaScript, and returns its value as a T, decoded with encoding/json's
// rules from the value's JSON (a JavaScript value's JSON.stringify).
// A binary value (an ArrayBuffer, a typed array, a Blob, a Go []byte)
// reads as a []byte. In the browser, Read[js.Value] returns the value as
// JavaScript holds it, and Read[json.RawMessage] its JSON text, for a
// decoder of your own (DisallowUnknownFields, UseNumber). Read waits for
// the resource's getter if that returns a Promise (or is a GetContext),
// and for the module if it is still starting.
//
// An unknown uri is an [*Error] for which errors.Is(err, ErrNotFound)
// holds; a getter that threw or rejected is an *Error with its name and
// message; a value that does not fit T is a [*DecodeError]. Read blocks:
// call it from a goroutine, never from a Get, a handler or another
// function JavaScript calls.
func Read[T any](ctx context.Context, uri string) (T, error) {
	var v T
	p, err := current()
	if err != nil {
		return v, err
	}
	val, err := p.Read(ctx, uri)
	if err != nil {
		return v, err
	}
	if err := val.Decode(&v); err != nil {
		return v, &DecodeError{URI: uri, Err: err}
	}
	return v, nil
}

// Subscribe calls handler with every value of uri that the module
// dispatches (after de-duplication: only changed values), in order, until
// stop is called, as document.modelContext.subscribeResource does. Each
// value is decoded into a T as [Read] decodes it; a value that does not
// fit T is handed over as the zero T with a [*DecodeError]. ([Follow] also
// hands over each value's revision and patch.)
//
// The subscription survives a replacement of the resource and ends when it
// is unregistered; stop must still be called to release the js.Func it
// holds. stop may be called more than once, from any goroutine.
//
// handler runs inside a call from JavaScript: it must not block (start a
// goroutine for slow work). A panic in it is reported on the console and
// stops nothing else. An unknown uri is an error for which
// errors.Is(err, ErrNotFound) holds.
func Subscribe[T any](uri string, handler func(value T, err error)) (stop func(), err error) {
	p, err := current()
	if err != nil {
		return noop, err
	}
	return p.Subscribe(uri, page.SubscribeOptions{}, func(push page.Push) {
		var v T
		err := push.Value.Decode(&v)
		if err != nil {
			var zero T
			v, err = zero, &DecodeError{URI: uri, Err: err}
		}
		handler(v, err)
	})
}

// OnUpdated calls handler for every resourceupdated event: every push the
// module dispatches, of any resource. The rules of Subscribe's handler and
// stop apply.
func OnUpdated(handler func(e *UpdatedEvent)) (stop func(), err error) {
	p, err := current()
	if err != nil {
		return noop, err
	}
	return p.Listen(updated, func(e page.Event) {
		handler(&UpdatedEvent{URI: e.URI, Revision: e.Revision, value: e.Value, underlying: e.Underlying})
	})
}

// OnListChanged calls handler with the new list of resources for every
// resourcelistchanged event: every register, replace and unregister. The
// rules of Subscribe's handler and stop apply.
func OnListChanged(handler func(e *ListChangedEvent)) (stop func(), err error) {
	p, err := current()
	if err != nil {
		return noop, err
	}
	return p.Listen(listChanged, func(e page.Event) {
		var list []Info
		if err := e.Value.Decode(&list); err != nil {
			p.Report("modelcontext: reading a resourcelistchanged event failed: " + err.Error())
			return
		}
		handler(&ListChangedEvent{Resources: list, Revision: e.Revision, underlying: e.Underlying})
	})
}

// Resources lists the page's resources, in registration order, as
// document.modelContext.getResources() does.
func Resources() ([]Info, error) {
	var list []Info
	return list, listInto(false, &list)
}

// Templates lists the page's URI templates, in registration order.
func Templates() ([]TemplateInfo, error) {
	var list []TemplateInfo
	return list, listInto(true, &list)
}

func listInto(templates bool, dst any) error {
	p, err := current()
	if err != nil {
		return err
	}
	v, err := p.List(templates)
	if err != nil {
		return err
	}
	return v.Decode(dst)
}
