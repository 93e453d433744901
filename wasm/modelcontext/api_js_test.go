//go:build js && wasm

package modelcontext

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"honnef.co/go/js/dom/v2"
)

// TestBeforeTheModule: with the app first, every call made before the
// module's script has run says so (ErrNotLoaded) and holds nothing; with the
// module first, it was there before the app started.
func TestBeforeTheModule(t *testing.T) {
	if moduleFirst() {
		if !atStart.installed {
			t.Fatal("in the module-first frame the module was not installed when the app started")
		}
		return
	}
	if atStart.installed {
		t.Fatal("with the app first the module was already installed when the app started")
	}
	for name, err := range map[string]error{"Register": atStart.register, "Read": atStart.read, "Subscribe": atStart.subscribe, "Resources": atStart.list} {
		if !errors.Is(err, ErrNotLoaded) {
			t.Errorf("%s before the module: %v, want ErrNotLoaded", name, err)
		}
	}
	if atStart.funcs != 0 {
		t.Errorf("%d js.Funcs live after the failed calls, want 0", atStart.funcs)
	}
}

type cartLine struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
	Note  string  `json:"note,omitempty"`
}

type cart struct {
	Lines    []cartLine        `json:"lines"`
	Count    int               `json:"count"`
	Currency string            `json:"currency"`
	Coupons  map[string]string `json:"coupons"`
	internal int
}

// TestRegisterAndRead: a Go resource is listed, read from JavaScript (with
// the JSON member names and the sorted map keys of encoding/json) and read
// back into Go.
func TestRegisterAndRead(t *testing.T) {
	setup(t)
	c := cart{Lines: []cartLine{{SKU: "MUG", Qty: 2, Price: 18}}, Count: 2, Currency: "EUR", Coupons: map[string]string{"z": "Z10", "a": "A5"}}
	unregister, err := Register(Resource{
		URI: "state://go-cart", Name: "cart", Title: "Cart", Description: "What the visitor is buying",
		Annotations: &Annotations{Audience: []string{"assistant"}, Priority: new(0.5), LastModified: "2026-01-02T03:04:05Z"},
		Get:         func() (any, error) { return c, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()

	list, err := Resources()
	if err != nil {
		t.Fatal(err)
	}
	want := Info{URI: "state://go-cart", Name: "cart", Title: "Cart", Description: "What the visitor is buying", MimeType: "application/json",
		Annotations: &Annotations{Audience: []string{"assistant"}, Priority: new(0.5), LastModified: "2026-01-02T03:04:05Z"}}
	i := slices.IndexFunc(list, func(r Info) bool { return r.URI == want.URI })
	if i < 0 || !reflect.DeepEqual(list[i], want) {
		t.Fatalf("Resources() = %+v, want it to hold %+v", list, want)
	}

	// From JavaScript: the page's own readResource, and its JSON text.
	text := jsFunc(`return document.modelContext.readResource("state://go-cart").then((v) => JSON.stringify(v));`).Invoke()
	got, err := await(ctx(t), text)
	if err != nil {
		t.Fatal(err)
	}
	if w := `{"lines":[{"sku":"MUG","qty":2,"price":18}],"count":2,"currency":"EUR","coupons":{"a":"A5","z":"Z10"}}`; got.String() != w {
		t.Errorf("readResource from JavaScript gives\n%s\nwant\n%s", got.String(), w)
	}

	back, err := Read[cart](ctx(t), "state://go-cart")
	if err != nil {
		t.Fatal(err)
	}
	if c.internal = 0; !reflect.DeepEqual(back, c) {
		t.Errorf("Read[cart] = %+v, want %+v", back, c)
	}
	v, err := Read[js.Value](ctx(t), "state://go-cart")
	if err != nil || v.Get("coupons").Get("z").String() != "Z10" {
		t.Errorf("Read[js.Value] = %v, %v", v, err)
	}
	raw, err := Read[json.RawMessage](ctx(t), "state://go-cart")
	if err != nil || string(raw) != `{"lines":[{"sku":"MUG","qty":2,"price":18}],"count":2,"currency":"EUR","coupons":{"a":"A5","z":"Z10"}}` {
		t.Errorf("Read[json.RawMessage] = %s, %v", raw, err)
	}
	// A value that does not fit: encoding/json's error, through errors.As.
	_, err = Read[struct{ Count string }](ctx(t), "state://go-cart")
	var ute *json.UnmarshalTypeError
	var de *DecodeError
	if !errors.As(err, &ute) || !errors.As(err, &de) || de.URI != "state://go-cart" || ute.Field != "Count" {
		t.Errorf("Read into a type that does not fit: %#v", err)
	}
}

// TestPushesAreDeduplicated: an unchanged map or struct, pushed 50 times,
// is dispatched once; each real change once more. A Get that hands the
// module js.ValueOf of the same map (Go's random key order) is the control:
// its unchanged pushes are not recognised.
func TestPushesAreDeduplicated(t *testing.T) {
	setup(t)
	keys := []string{"sku", "name", "qty", "price", "tags", "meta", "alpha", "zulu", "mike", "kilo", "echo", "golf"}
	state := map[string]any{}
	for i, k := range keys {
		state[k] = map[string]any{"i": i, "k": k}
	}
	type summary struct {
		Count int      `json:"count"`
		Items []string `json:"items"`
		Total float64  `json:"total"`
	}
	sum := summary{Count: 2, Items: []string{"a", "b"}, Total: 3.5}

	var mapChanged, structChanged, naiveChanged Notifier
	uris := []string{"state://dedup-map", "state://dedup-struct", "state://dedup-naive"}
	for i, r := range []Resource{
		{Get: func() (any, error) { return state, nil }, Watch: mapChanged.Watch},
		{Get: func() (any, error) { return sum, nil }, Watch: structChanged.Watch},
		{Get: func() (any, error) { return js.ValueOf(state), nil }, Watch: naiveChanged.Watch},
	} {
		r.URI, r.Name = uris[i], "dedup"
		unregister, err := Register(r)
		if err != nil {
			t.Fatal(err)
		}
		defer unregister()
	}

	// Two independent counts: the package's OnUpdated, and a plain dom/v2
	// listener on document.modelContext (its CustomEvent has no Detail, so
	// the detail is read through Underlying). The package's event is the
	// same CustomEvent to dom/v2.
	seen := map[string]int{}
	wrapped := 0
	stop, err := OnUpdated(func(e *UpdatedEvent) {
		seen[e.URI]++
		if ce, ok := dom.WrapEvent(e.Underlying()).(*dom.CustomEvent); ok && ce.Type() == e.Type() {
			wrapped++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	mc, _ := modelContext()
	target := &dom.BasicNode{Value: mc}
	domSeen := map[string]int{}
	listener := target.AddEventListener("resourceupdated", false, func(e dom.Event) {
		domSeen[e.Underlying().Get("detail").Get("uri").String()]++
	})
	defer target.RemoveEventListener("resourceupdated", false, listener)

	for i := 0; i < 50; i++ {
		mapChanged.Notify()
		structChanged.Notify()
		naiveChanged.Notify()
	}
	if seen[uris[0]] != 1 || seen[uris[1]] != 1 {
		t.Errorf("50 pushes of an unchanged map and struct dispatched %d and %d times, want 1 each", seen[uris[0]], seen[uris[1]])
	}
	if seen[uris[2]] < 2 {
		t.Errorf("control: 50 pushes of js.ValueOf(the same map) dispatched %d times; want more than 1 (random key order), or this test proves nothing", seen[uris[2]])
	}
	t.Logf("50 unchanged pushes: map %d, struct %d, js.ValueOf(map) %d dispatched", seen[uris[0]], seen[uris[1]], seen[uris[2]])

	// A real change is dispatched once; pushing it 50 more times adds nothing.
	state["qty"] = 3
	sum.Items = append(sum.Items, "c")
	for i := 0; i < 50; i++ {
		mapChanged.Notify()
		structChanged.Notify()
	}
	if seen[uris[0]] != 2 || seen[uris[1]] != 2 {
		t.Errorf("after one change and 50 pushes: map %d, struct %d dispatches, want 2 each", seen[uris[0]], seen[uris[1]])
	}
	if total := seen[uris[0]] + seen[uris[1]] + seen[uris[2]]; wrapped != total {
		t.Errorf("dom.WrapEvent(e.Underlying()) was a resourceupdated *dom.CustomEvent for %d of %d events", wrapped, total)
	}
	for _, uri := range uris {
		if domSeen[uri] != seen[uri] {
			t.Errorf("%s: dom/v2 listener saw %d events, OnUpdated %d", uri, domSeen[uri], seen[uri])
		}
	}
}

// TestSubscribeAndEvents: Subscribe gets every dispatched value in order,
// decoded, OnListChanged every register and unregister, and stop ends each.
func TestSubscribeAndEvents(t *testing.T) {
	setup(t)
	n := 0
	var changed Notifier
	unregister, err := Register(Resource{URI: "state://counter", Name: "counter", Get: func() (any, error) { return map[string]int{"n": n}, nil }, Watch: changed.Watch})
	if err != nil {
		t.Fatal(err)
	}
	var values []int
	stop, err := Subscribe("state://counter", func(v struct{ N int }, err error) {
		if err != nil {
			t.Error(err)
		}
		values = append(values, v.N)
	})
	if err != nil {
		t.Fatal(err)
	}
	var second []int
	stopSecond, err := Subscribe("state://counter", func(v js.Value, _ error) { second = append(second, v.Get("n").Int()) })
	if err != nil {
		t.Fatal(err)
	}
	defer stopSecond()
	for _, x := range []int{1, 1, 2, 3, 3, 2} {
		n = x
		changed.Notify()
	}
	if want := []int{1, 2, 3, 2}; !slices.Equal(values, want) {
		t.Errorf("Subscribe got %v, want %v", values, want)
	}
	stop()
	stop() // twice is fine
	n = 9
	changed.Notify() // the sentinel: the second subscriber hears it, the stopped one must not
	if !slices.Equal(second, []int{1, 2, 3, 2, 9}) || len(values) != 4 {
		t.Errorf("after stop: stopped handler got %v, live one %v", values, second)
	}

	var lists [][]string
	stopList, err := OnListChanged(func(e *ListChangedEvent) {
		if e.Type() != "resourcelistchanged" || e.Underlying().Get("detail").Get("resources").Length() != len(e.Resources) {
			t.Errorf("a ListChangedEvent of type %q whose CustomEvent lists %d resources, not %d", e.Type(), e.Underlying().Get("detail").Get("resources").Length(), len(e.Resources))
		}
		var uris []string
		for _, r := range e.Resources {
			uris = append(uris, r.URI)
		}
		lists = append(lists, uris)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stopList()
	un2, err := Register(Resource{URI: "state://counter-2", Name: "counter2", Get: func() (any, error) { return 2, nil }})
	if err != nil {
		t.Fatal(err)
	}
	un2()
	unregister()
	if len(lists) != 3 || !slices.Contains(lists[0], "state://counter-2") || slices.Contains(lists[1], "state://counter-2") || slices.Contains(lists[2], "state://counter") {
		t.Errorf("OnListChanged got %v, want register, unregister, unregister", lists)
	}
}

// TestUnregister: unregister removes the resource, stops its source and
// makes later onChange calls do nothing; a replacement by the page's
// JavaScript stops the Go source and survives the Go unregister.
func TestUnregister(t *testing.T) {
	setup(t)
	stopped := 0
	var onChange func()
	unregister, err := Register(Resource{URI: "state://gone", Name: "gone", Get: func() (any, error) { return "v", nil },
		Watch: func(f func()) func() { onChange = f; return func() { stopped++ } }})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	stopEvents, _ := OnUpdated(func(*UpdatedEvent) { seen++ })
	defer stopEvents()
	onChange()
	unregister()
	unregister()
	onChange() // does nothing, throws nothing
	if stopped != 1 || seen != 1 {
		t.Errorf("after unregister: stop called %d times, %d pushes dispatched; want 1, 1", stopped, seen)
	}
	if _, err := Read[string](ctx(t), "state://gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Read after unregister: %v, want ErrNotFound", err)
	}

	// Replaced by the page's JavaScript: the Go source is stopped, and the
	// Go unregister leaves the page's registration alone.
	stopped = 0
	unregister, err = Register(Resource{URI: "state://shared", Name: "shared", Get: func() (any, error) { return "go", nil },
		Watch: func(f func()) func() { onChange = f; return func() { stopped++ } }})
	if err != nil {
		t.Fatal(err)
	}
	jsUnregister := jsFunc(`return document.modelContext.registerResource({uri: "state://shared", name: "shared", get: () => "page"});`).Invoke()
	defer jsUnregister.Invoke()
	onChange() // the replaced registration's onChange: nothing
	unregister()
	got, err := Read[string](ctx(t), "state://shared")
	if err != nil || got != "page" || stopped != 1 || seen != 1 {
		t.Errorf("after the page replaced the Go resource and Go unregistered: read %q, %v; stop called %d times, %d dispatches", got, err, stopped, seen)
	}
}

// TestErrors: what the module refuses comes back as an *Error naming the
// field; unknown uris as ErrNotFound; a Get that errors, panics or returns
// what JSON cannot hold is a failed read; none of it stops the runtime, and
// none of it leaves a js.Func behind.
func TestErrors(t *testing.T) {
	setup(t)
	funcs := liveFuncs.Load()
	get := func() (any, error) { return 1, nil }
	for _, c := range []struct {
		r     Resource
		field string
		msg   string
	}{
		{Resource{Name: "n", Get: get}, "uri", `modelcontext: registerResource: "uri" must not be empty`},
		{Resource{URI: "cart", Name: "n", Get: get}, "uri", `modelcontext: registerResource: "uri" "cart" has no scheme; write it like "state://cart"`},
		{Resource{URI: "state://e", Get: get}, "name", `modelcontext: registerResource: "name" must not be empty (uri "state://e")`},
		{Resource{URI: "state://e", Name: "n"}, "get", `modelcontext: registerResource: "get" is required, a function that returns the current value (uri "state://e")`},
		{Resource{URI: "state://e", Name: "n", Get: get, Annotations: &Annotations{Priority: new(2.0)}}, "annotations.priority", `modelcontext: registerResource: "annotations.priority" must be a number from 0 to 1 (uri "state://e")`},
		{Resource{URI: "state://e", Name: "n", Get: get, Annotations: &Annotations{Audience: []string{"robots"}}}, "annotations.audience[0]", `modelcontext: registerResource: "annotations.audience[0]" must be "user" or "assistant" (uri "state://e")`},
		{Resource{URI: "state://e", Name: "n", Get: get, Settle: -time.Millisecond}, "settle", `modelcontext: registerResource: "settle" must be a number of milliseconds, 0 or more, got -1 (uri "state://e")`},
	} {
		_, err := Register(c.r)
		var e *Error
		if !errors.As(err, &e) || e.Name != "TypeError" || e.Field != c.field || err.Error() != c.msg {
			t.Errorf("Register(%+v):\n got %#v\nwant TypeError, field %q, %s", c.r, err, c.field, c.msg)
		}
	}
	_, err := RegisterTemplate(Template{URITemplate: "app://x/{a}{b}", Name: "t", Get: func(map[string]string) (any, error) { return nil, nil }})
	if e := (*Error)(nil); !errors.As(err, &e) || e.Field != "uriTemplate" {
		t.Errorf("RegisterTemplate with a bad template: %v", err)
	}
	_, err = Register(Resource{URI: "state://e", Name: "n", Get: get, Watch: func(func()) func() { panic("no source today") }})
	if err == nil || err.Error() != `modelcontext: Watch of "state://e" panicked: no source today` {
		t.Errorf("Register with a panicking Watch: %v", err)
	}
	if got := liveFuncs.Load(); got != funcs {
		t.Errorf("%d js.Funcs live after refused registrations, want %d", got, funcs)
	}
	if list, _ := Resources(); slices.ContainsFunc(list, func(r Info) bool { return r.URI == "state://e" }) {
		t.Error("a refused registration is listed")
	}

	_, err = Read[any](ctx(t), "state://nowhere")
	var e *Error
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &e) || e.Name != "NotFoundError" || err.Error() != `modelcontext: no resource is registered for uri "state://nowhere"` {
		t.Errorf("Read of an unknown uri: %#v", err)
	}
	if _, err := Subscribe("state://nowhere", func(any, error) {}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Subscribe to an unknown uri: %v", err)
	}

	// Failing getters: the read fails with a message naming the uri; the
	// runtime lives on.
	type price struct{ Amount float64 }
	var changed Notifier
	fail := 0
	unregister, err := Register(Resource{URI: "state://failing", Name: "failing", Watch: changed.Watch, Get: func() (any, error) {
		switch fail {
		case 1:
			return nil, errors.New("the cart service is down")
		case 2:
			panic("nil cart")
		case 3:
			return map[string]any{"items": []any{price{Amount: 0}, price{Amount: 1 / zero()}}}, nil
		}
		return "fine", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	errs := captureConsoleError(t)
	for i, want := range []string{
		`modelcontext: Get of "state://failing" failed: the cart service is down`,
		`modelcontext: Get of "state://failing" panicked: nil cart`,
		`modelcontext: Get of "state://failing" returned a value JSON cannot hold: json: unsupported value: +Inf`,
	} {
		fail = i + 1
		_, err := Read[any](ctx(t), "state://failing")
		if err == nil || err.Error() != want {
			t.Errorf("Read with a failing Get (%d):\n got %v\nwant %s", fail, err, want)
		}
		changed.Notify() // a push: the module reports it and dispatches nothing
	}
	fail = 0
	if s, err := Read[string](ctx(t), "state://failing"); err != nil || s != "fine" {
		t.Errorf("after the failures: %q, %v", s, err)
	}
	// The pushes' failures are asynchronous (a rejected Promise): wait for
	// the third report, then check all three.
	deadline := 0
	for len(errs()) < 3 && deadline < 500 {
		if _, err := Read[string](ctx(t), "state://failing"); err != nil { // a round trip through the event loop
			t.Fatal(err)
		}
		deadline++
	}
	lines := errs()
	if len(lines) != 3 {
		t.Fatalf("console.error lines: %q, want 3 failed pushes", lines)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, `modelcontext: get() of "state://failing" failed; nothing was pushed: Error: modelcontext: Get of "state://failing"`) {
			t.Errorf("console.error: %s", l)
		}
	}
}

func zero() float64 { return 0 }

// TestTemplatesAndBinary: a template's Get receives the decoded parameters;
// a []byte value is a Uint8Array for JavaScript and bytes again for Go.
func TestTemplatesAndBinary(t *testing.T) {
	setup(t)
	unregister, err := RegisterTemplate(Template{URITemplate: "app://orders/{id}", Name: "order", Get: func(p map[string]string) (any, error) {
		if p["id"] == "none" {
			return nil, errors.New("no such order")
		}
		return map[string]string{"id": p["id"]}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	list, err := Templates()
	if err != nil || !slices.ContainsFunc(list, func(x TemplateInfo) bool {
		return reflect.DeepEqual(x, TemplateInfo{URITemplate: "app://orders/{id}", Name: "order", MimeType: "application/json"})
	}) {
		t.Errorf("Templates() = %+v, %v", list, err)
	}
	type orderID struct{ ID string }
	order, err := Read[orderID](ctx(t), "app://orders/a%20b")
	if err != nil || order.ID != "a b" {
		t.Errorf("read through the template: %+v, %v", order, err)
	}
	if _, err := Read[orderID](ctx(t), "app://orders/none"); err == nil || err.Error() != `modelcontext: Get of "app://orders/{id}" failed: no such order` {
		t.Errorf("a failing template read: %v", err)
	}

	png := []byte{0x89, 'P', 'N', 'G', 0, 255}
	un2, err := Register(Resource{URI: "state://logo", Name: "logo", MimeType: "image/png", Get: func() (any, error) { return png, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer un2()
	v, err := Read[js.Value](ctx(t), "state://logo")
	if err != nil || !v.InstanceOf(jsUint8Array) || v.Length() != len(png) {
		t.Fatalf("Read of a []byte value: %v, %v", v, err)
	}
	if b, err := Read[[]byte](ctx(t), "state://logo"); err != nil || !slices.Equal(b, png) {
		t.Errorf("Read[[]byte]: %v, %v", b, err)
	}
	if _, err := Read[orderID](ctx(t), "state://logo"); err == nil || !strings.Contains(err.Error(), "a binary value (Uint8Array) decodes only into a []byte or an any") {
		t.Errorf("Read of binary into a struct: %v", err)
	}
	// A Blob from the page's JavaScript is read as bytes too.
	unBlob := jsFunc(`return document.modelContext.registerResource({uri: "state://blob", name: "blob", mimeType: "text/plain", get: () => new Blob(["hi!"])});`).Invoke()
	defer unBlob.Invoke()
	if b, err := Read[[]byte](ctx(t), "state://blob"); err != nil || string(b) != "hi!" {
		t.Errorf("Read[[]byte] of a Blob: %q, %v", b, err)
	}
}

// TestPageResources: the page's own JavaScript resources are read, listed
// and followed from Go, in the same registry.
func TestPageResources(t *testing.T) {
	setup(t)
	page := jsFunc(`const route = {path: "/cart", view: "cart"}; const subs = new Set();
		const unregister = document.modelContext.registerResource({uri: "state://page-route", name: "route", get: () => route,
			subscribe: (f) => (subs.add(f), () => subs.delete(f))});
		return {unregister, go(path) { route.path = path; subs.forEach((f) => f()); }};`).Invoke()
	defer page.Call("unregister")
	type route struct{ Path, View string }
	r, err := Read[route](ctx(t), "state://page-route")
	if err != nil || r.Path != "/cart" || r.View != "cart" {
		t.Fatalf("Read a page resource: %+v, %v", r, err)
	}
	var paths []string
	stop, err := Subscribe("state://page-route", func(v route, err error) { paths = append(paths, v.Path) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, p := range []string{"/checkout", "/checkout", "/"} {
		page.Call("go", p)
	}
	if !slices.Equal(paths, []string{"/checkout", "/"}) {
		t.Errorf("pushes of the page's resource: %v", paths)
	}
	list, _ := Resources()
	if !slices.ContainsFunc(list, func(r Info) bool { return r.URI == "state://page-route" && r.Subscribable }) {
		t.Errorf("Resources() = %+v, want the page's route, subscribable", list)
	}
}

// TestGetContext: a GetContext that takes 50 ms runs off the JavaScript
// call: the page's readResource returns its Promise at once, and the value
// settles it; Read waits for it; pushes are delivered in order; a panic is
// a rejected read, and a push that fails is reported.
func TestGetContext(t *testing.T) {
	setup(t)
	type quote struct {
		SKU   string `json:"sku"`
		Cents int    `json:"cents"`
	}
	var changed Notifier
	var cents atomic.Int64
	var panics, finished atomic.Bool
	cents.Store(1800)
	unregister, err := Register(Resource{URI: "state://quote", Name: "quote", Watch: changed.Watch,
		GetContext: func(ctx context.Context) (any, error) {
			q := quote{"MUG", int(cents.Load())}
			time.Sleep(50 * time.Millisecond)
			if panics.Load() {
				panic("no price today")
			}
			finished.Store(true)
			return q, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()

	finished.Store(false)
	p := jsFunc(`const t0 = performance.now();
		return document.modelContext.readResource("state://quote").then((v) => ({value: JSON.stringify(v), settled: performance.now() - t0}));`).Invoke()
	// The getter finishes 50 ms after it starts: finished already set when
	// readResource returns means the call waited for the getter. (A Go
	// timer does fire inside a synchronous call: a getter run in the call
	// would sleep there, and set finished before the call returned.)
	if finished.Load() {
		t.Error("readResource returned only once GetContext had finished; want its Promise at once")
	}
	res, err := await(ctx(t), p)
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Get("value").String(); v != `{"sku":"MUG","cents":1800}` {
		t.Errorf("readResource from JavaScript: %s", v)
	}
	if settled := res.Get("settled").Float(); settled < 49 {
		t.Errorf("readResource settled after %.1f ms; want its value after GetContext's 50 ms", settled)
	}
	start := time.Now()
	if q, err := Read[quote](ctx(t), "state://quote"); err != nil || q.Cents != 1800 || time.Since(start) < 50*time.Millisecond {
		t.Errorf("Read = %+v, %v after %v", q, err, time.Since(start))
	}

	pushes := make(chan int, 10)
	stop, err := Subscribe("state://quote", func(q quote, err error) { pushes <- q.Cents })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, c := range []int64{1900, 2000} {
		cents.Store(c)
		changed.Notify()
	}
	for _, want := range []int{1900, 2000} {
		select {
		case got := <-pushes:
			if got != want {
				t.Errorf("pushed %d, want %d", got, want)
			}
		case <-ctx(t).Done():
			t.Fatalf("the push of %d never came", want)
		}
	}

	errs := captureConsoleError(t)
	panics.Store(true)
	if _, err := Read[quote](ctx(t), "state://quote"); err == nil || err.Error() != `modelcontext: Get of "state://quote" panicked: no price today` {
		t.Errorf("Read of a panicking GetContext: %v", err)
	}
	cents.Store(2100)
	changed.Notify()
	for i := 0; len(errs()) == 0 && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if lines := errs(); len(lines) != 1 || !strings.HasPrefix(lines[0], `modelcontext: get() of "state://quote" failed; nothing was pushed: Error: modelcontext: Get of "state://quote" panicked: no price today`) {
		t.Errorf("console.error after a failed push: %q", lines)
	}
	if len(pushes) != 0 {
		t.Errorf("a failed push delivered %d", <-pushes)
	}
}
