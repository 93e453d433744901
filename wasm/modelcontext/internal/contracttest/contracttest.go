// Package contracttest is one scenario of the module's rules, played
// through package modelcontext's API: de-duplication, replacement,
// unregistration, asynchronous getters, errors, templates, binary values,
// following the page at the least cost (the revision each event steps,
// ChangesSince's answers and its reset, Follow's patches), and what the
// registry decides of subscriptions and list places as registrations end.
// modelcontexttest's host tests play it against the test double, and
// modelcontext's browser tests against the real module and the double side
// by side, so that the double cannot drift from the module.
package contracttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// Want is what Run observes, line by line.
var Want = []string{
	"list [contract://a] @1",
	`updated contract://a {"v":"A","w":"<&>"} @2`,
	`updated contract://a {"v":"B","w":"<&>"} @3`,
	`updated contract://a {"v":"A","w":"<&>"} @4`,
	`updated contract://a {"v":"B","w":"<&>"} @5`,
	`updated contract://a {"v":"C","w":"<&>"} @6`,
	`updated contract://a {"v":"D","w":"<&>"} @7`,
	"subscription contract://a D <nil>",
	"list [contract://a contract://b] @8",
	"old Watch stopped",
	"list [contract://a contract://b] @9",
	`updated contract://a {"v":"D","w":"<&>"} @10`,
	"subscription contract://a D <nil>",
	"read D <nil>",
	"list [contract://b] @11",
	"read after unregister: not found true",
	"subscribe after unregister: not found true",
	"list [contract://b contract://slow] @12",
	"updated contract://slow 2 @13",
	"read slow 3 <nil>",
	"list [contract://b] @14",
	"GetContext's context ended: context canceled",
	"list [contract://b contract://draft] @15",
	`updated contract://draft "hello" @16`,
	"list [contract://b] @17",
	`refused TypeError uri modelcontext: registerResource: "uri" "cart" has no scheme; write it like "state://cart"`,
	`refused TypeError name modelcontext: registerResource: "name" must not be empty (uri "contract://e")`,
	`refused TypeError get modelcontext: registerResource: "get" is required, a function that returns the current value (uri "contract://e")`,
	`refused TypeError annotations.priority modelcontext: registerResource: "annotations.priority" must be a number from 0 to 1 (uri "contract://e")`,
	`refused TypeError annotations.audience[0] modelcontext: registerResource: "annotations.audience[0]" must be "user" or "assistant" (uri "contract://e")`,
	`refused TypeError settle modelcontext: registerResource: "settle" must be a number of milliseconds, 0 or more, got -5 (uri "contract://e")`,
	`refused TypeError icons[1].src modelcontext: registerResource: "icons[1].src" must be an https: or data: URL, or a path, got " javascript:alert(1)" (uri "contract://e")`,
	`refused TypeError icons[0].theme modelcontext: registerResource: "icons[0].theme" must be "light" or "dark" (uri "contract://e")`,
	`refused TypeError icons[0].src modelcontext: registerResource: "icons[0].src" must be an https: or data: URL, or a path, got "ftp://example.com/i.png" (uri "contract://e")`,
	`refused TypeError annotations.lastModified modelcontext: registerResource: "annotations.lastModified" must be an ISO 8601 date string (uri "contract://e")`,
	`refused TypeError uriTemplate modelcontext: registerResource: "uriTemplate" "contract://t/{a}{b}" has two expressions next to each other; separate them with a literal`,
	`refused   modelcontext: Watch of "contract://e" panicked: no source today`,
	"list [contract://b contract://failing] @18",
	`read failing: Error modelcontext: Get of "contract://failing" failed: the cart service is down`,
	`read failing: Error modelcontext: Get of "contract://failing" panicked: nil cart`,
	`read failing: Error modelcontext: Get of "contract://failing" returned a value JSON cannot hold: json: unsupported value: +Inf`,
	`read failing: Error modelcontext: Get of "contract://failing" panicked: a MarshalJSON that panics`,
	`decode: modelcontext: decoding the value of "contract://failing": json: cannot unmarshal object into Go value of type int (*json.UnmarshalTypeError true)`,
	"list [contract://b] @19",
	"list [contract://b] @20",
	"template map[id:a b] <nil>",
	`template failing: modelcontext: Get of "contract://t/{id}" failed: no such order`,
	"list [contract://b] @21",
	"list [contract://b contract://logo] @22",
	"binary [137 80 78 71 0 255] <nil>",
	`binary into a struct: modelcontext: decoding the value of "contract://logo": a binary value (Uint8Array) decodes only into a []byte or an any, not a struct { V string "json:\"v\"" }`,
	"list [contract://b] @23",
	"list [contract://b contract://c1] @24",
	"list [contract://b contract://c1 contract://c2] @25",
	"changes since the start: @25 updated [] added [contract://c1 contract://c2] removed []",
	`updated contract://c1 {"lines":[{"sku":"MUG","qty":1}],"note":"gift-wrap the mug, and put a card in"} @26`,
	`follow @26 {"lines":[{"sku":"MUG","qty":1}],"note":"gift-wrap the mug, and put a card in"} patch null <nil>`,
	"follow without patches @26 1 lines, patch null <nil>",
	`updated contract://c1 {"lines":[{"sku":"MUG","qty":2}],"note":"gift-wrap the mug, and put a card in"} @27`,
	`follow @27 {"lines":[{"sku":"MUG","qty":2}],"note":"gift-wrap the mug, and put a card in"} patch [{"op":"replace","path":"/lines/0/qty","value":2}] <nil>`,
	"follow without patches @27 1 lines, patch null <nil>",
	"updated contract://c1 {} @28",
	"follow @28 {} patch null <nil>",
	"follow without patches @28 0 lines, patch null <nil>",
	`updated contract://c1 {"lines":[{"sku":"MUG","qty":2}],"note":"gift-wrap the mug, and put a card in"} @29`,
	`follow @29 {"lines":[{"sku":"MUG","qty":2}],"note":"gift-wrap the mug, and put a card in"} patch null <nil>`,
	"follow without patches @29 1 lines, patch null <nil>",
	`updated contract://c1 {"lines":[{"sku":"MUG","qty":3}],"note":"gift-wrap the mug, and put a card in"} @30`,
	`follow @30 {"lines":[{"sku":"MUG","qty":3}],"note":"gift-wrap the mug, and put a card in"} patch [{"op":"replace","path":"/lines/0/qty","value":3}] <nil>`,
	"follow without patches @30 1 lines, patch null <nil>",
	"changes since the registrations: @30 updated [contract://c1] added [] removed []",
	"list [contract://b contract://c1 contract://c2] @31",
	`updated contract://c1 {"lines":[{"sku":"MUG","qty":3}],"note":"gift-wrap the mug, and put a card in"} @32`,
	`follow @32 {"lines":[{"sku":"MUG","qty":3}],"note":"gift-wrap the mug, and put a card in"} patch [] <nil>`,
	"follow without patches @32 1 lines, patch null <nil>",
	`updated contract://c1 {"lines":[{"sku":"MUG","qty":4}],"note":"gift-wrap the mug, and put a card in"} @33`,
	`follow @33 {"lines":[{"sku":"MUG","qty":4}],"note":"gift-wrap the mug, and put a card in"} patch [{"op":"replace","path":"/lines/0/qty","value":4}] <nil>`,
	"follow without patches @33 1 lines, patch null <nil>",
	`late follow @33 patch [{"op":"replace","path":"/lines/0/qty","value":4}] <nil>`,
	"changes since the middle: @33 updated [contract://c1] added [] removed []",
	"list [contract://b contract://c1] @34",
	"changes since the middle, c2 removed: @34 updated [contract://c1] added [] removed [contract://c2]",
	"list [contract://b contract://c1 contract://c2] @35",
	"changes since the middle, c2 back: @35 updated [contract://c1] added [contract://c2] removed []",
	"changes since now: @35 updated [] added [] removed []",
	`changes since before the start: RangeError revision modelcontext: changesSince: "revision" must be from N to the current revision, N; got -N`,
	`changes since after now: RangeError revision modelcontext: changesSince: "revision" must be from N to the current revision, N; got N`,
	"list [contract://b contract://c2] @36",
	"list [contract://b] @37",
	"list [contract://b contract://bin] @38",
	`updated contract://bin: modelcontext: decoding the value of "contract://bin": a binary value (Uint8Array) decodes only into a []byte or an any, not a json.RawMessage`,
	"follow binary @39 [1 2 0] patch null <nil>",
	`updated contract://bin: modelcontext: decoding the value of "contract://bin": a binary value (Uint8Array) decodes only into a []byte or an any, not a json.RawMessage`,
	"follow binary @40 [1 2 1] patch null <nil>",
	"list [contract://b] @41",
	"changes since before 1,024 removals: @2089 updated [] added [] removed []",
	"changes since before 1,025 removals: @2091 reset",
	"changes since after them: @2091 updated [] added [] removed []",
	"revision @2091",
	"list [contract://b contract://e1] @2092",
	"list [contract://b contract://e1 contract://e2] @2093",
	"updated contract://e1 1 @2094",
	"subscription contract://e1 1 <nil>",
	"list [contract://b contract://e1 contract://e2] @2095",
	"updated contract://e1 1 @2096",
	"subscription contract://e1 1 <nil>",
	"list [contract://b contract://e2] @2097",
	"list [contract://b contract://e2 contract://e1] @2098",
	"updated contract://e1 2 @2099",
	"list [contract://b contract://e2 contract://e1] @2100",
	"list [contract://b contract://e2 contract://e1] @2101",
	"list [contract://b contract://e2 contract://e1] @2102",
	`templates ["t1 again" "t2"]`,
	"list [contract://b contract://e2 contract://e1] @2103",
	"list [contract://b contract://e2 contract://e1] @2104",
	"list [contract://b contract://e2] @2105",
	"list [contract://b] @2106",
	"list [] @2107",
}

// play is one run of the scenario: what it observed, and what its phases
// share.
type play struct {
	t       testing.TB
	ctx     context.Context
	settle  func()
	updates chan string // the uris of the updates observed
	base    int64       // the page's revision at the start
	quiet   atomic.Bool // the list changes are not logged
	mu      sync.Mutex
	log     []string
}

// add logs a line of what the scenario observed.
func (p *play) add(format string, args ...any) {
	p.mu.Lock()
	p.log = append(p.log, fmt.Sprintf(format, args...))
	p.mu.Unlock()
}

// must ends the test on err.
func (p *play) must(err error) {
	p.t.Helper()
	if err != nil {
		p.t.Fatal(err)
	}
}

// ours reports whether uri is one of the scenario's.
func ours(uri string) bool { return strings.HasPrefix(uri, "contract://") }

// Run plays the scenario on the page package modelcontext acts on and
// returns what it observed. settle returns once every push in progress is
// over (the double's Wait; a pause in the browser).
func Run(t testing.TB, settle func()) []string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p := &play{t: t, ctx: ctx, settle: settle, updates: make(chan string, 100)}
	p.base = p.rev()
	defer p.listen()()
	stopSub, unB := p.dedupeAndReplace()
	defer stopSub()
	p.asyncGetters()
	p.settled()
	p.refused()
	p.failing()
	p.templates()
	p.binary()
	p.changes()
	p.ended()
	unB()
	settle()
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.log)
}

// listen logs the list changes and updates of the scenario's resources,
// until the function it returns is called.
func (p *play) listen() func() {
	stopList, err := modelcontext.OnListChanged(func(e *modelcontext.ListChangedEvent) {
		if p.quiet.Load() {
			return
		}
		var uris []string
		for _, r := range e.Resources {
			if ours(r.URI) {
				uris = append(uris, r.URI)
			}
		}
		p.add("list %v @%d", uris, e.Revision-p.base)
	})
	p.must(err)
	stopUpdated, err := modelcontext.OnUpdated(func(e *modelcontext.UpdatedEvent) {
		if !ours(e.URI) {
			return
		}
		var v json.RawMessage
		if err := e.Decode(&v); err != nil {
			p.add("updated %s: %v", e.URI, err)
			return
		}
		p.add("updated %s %s @%d", e.URI, v, e.Revision-p.base)
		select {
		case p.updates <- e.URI:
		default:
		}
	})
	p.must(err)
	return func() {
		stopUpdated()
		stopList()
	}
}

// dedupeAndReplace plays de-duplication, by the value's JSON, against the
// last value delivered (A A A is one push, A B A three, B B C two more),
// then replacement: in place, with no baseline (the same value is
// delivered again), the old Watch stopped and its onChange dead, the
// subscription kept; the old unregister does nothing. It returns the end of
// its subscription and the unregister of contract://b, which the scenario
// keeps to its end.
func (p *play) dedupeAndReplace() (func(), func()) {
	type value struct {
		V string `json:"v"`
		W string `json:"w"`
	}
	var changed modelcontext.Notifier
	var val atomic.Value
	val.Store("A")
	get := func() (any, error) { return map[string]string{"w": "<&>", "v": val.Load().(string)}, nil }
	watch := func(onChange func()) func() {
		stop := changed.Watch(onChange)
		return func() { p.add("old Watch stopped"); stop() }
	}
	unA, err := modelcontext.Register(modelcontext.Resource{URI: "contract://a", Name: "a", Get: get, Watch: watch})
	p.must(err)
	for _, v := range []string{"A", "A", "A", "B", "A", "B", "B", "C"} {
		val.Store(v)
		changed.Notify()
	}
	stopSub, err := modelcontext.Subscribe("contract://a", func(v value, err error) { p.add("subscription contract://a %s %v", v.V, err) })
	p.must(err)
	val.Store("D")
	changed.Notify()

	unB, err := modelcontext.Register(modelcontext.Resource{URI: "contract://b", Name: "b", Get: func() (any, error) { return 1, nil }})
	p.must(err)
	var again modelcontext.Notifier
	unA2, err := modelcontext.Register(modelcontext.Resource{URI: "contract://a", Name: "a again", Get: get, Watch: again.Watch})
	p.must(err)
	changed.Notify() // no one watches it any more
	again.Notify()
	unA()
	v, err := modelcontext.Read[value](p.ctx, "contract://a")
	p.add("read %s %v", v.V, err)
	unA2()
	unA2()
	_, err = modelcontext.Read[value](p.ctx, "contract://a")
	p.add("read after unregister: not found %v", errors.Is(err, modelcontext.ErrNotFound))
	_, err = modelcontext.Subscribe("contract://a", func(value, error) {})
	p.add("subscribe after unregister: not found %v", errors.Is(err, modelcontext.ErrNotFound))
	return stopSub, unB
}

// asyncGetters: the first push's GetContext (which reads
// version 1) takes longer than the second's, whose value is delivered;
// the first's, late, is dropped. (Whichever order their goroutines
// read the version in, one push delivers 2.) A read waits for its
// GetContext. Unregistering ends the context.
func (p *play) asyncGetters() {
	var version atomic.Int32
	slowDone := make(chan struct{}, 2)
	ended := make(chan error, 1)
	var slow modelcontext.Notifier
	unSlow, err := modelcontext.Register(modelcontext.Resource{URI: "contract://slow", Name: "slow", Watch: slow.Watch,
		GetContext: func(ctx context.Context) (any, error) {
			v := version.Load()
			switch v {
			case 1:
				time.Sleep(300 * time.Millisecond)
			case 3:
				time.Sleep(50 * time.Millisecond)
			case 4:
				<-ctx.Done()
				ended <- ctx.Err()
				return nil, ctx.Err()
			}
			if v < 3 {
				defer func() { slowDone <- struct{}{} }()
			}
			return v, nil
		}})
	p.must(err)
	version.Store(1)
	slow.Notify()
	version.Store(2)
	slow.Notify()
	<-slowDone
	<-slowDone
	p.settle()
	version.Store(3)
	n, err := modelcontext.Read[int](p.ctx, "contract://slow")
	p.add("read slow %d %v", n, err)
	version.Store(4)
	slow.Notify() // waits for its context
	unSlow()
	select {
	case err := <-ended:
		p.add("GetContext's context ended: %v", err)
	case <-p.ctx.Done():
		p.t.Fatal("the context of GetContext did not end with its registration")
	}
	p.settle()
}

// settled: a burst of onChange calls is one push, of the value at its end
// (Settle).
func (p *play) settled() {
	var typing modelcontext.Notifier
	var text atomic.Value
	unDraft, err := modelcontext.Register(modelcontext.Resource{URI: "contract://draft", Name: "draft", Settle: 50 * time.Millisecond, Watch: typing.Watch,
		Get: func() (any, error) { return text.Load(), nil }})
	p.must(err)
	for _, s := range []string{"h", "he", "hel", "hell", "hello"} {
		text.Store(s)
		typing.Notify()
	}
	for uri := ""; uri != "contract://draft"; {
		select {
		case uri = <-p.updates:
		case <-p.ctx.Done():
			p.t.Fatal("the settled push never came")
		}
	}
	p.settle()
	unDraft()
}

// refused: registrations refused, with the module's messages.
func (p *play) refused() {
	g := func() (any, error) { return 1, nil }
	refused := func(_ func(), err error) {
		var e *modelcontext.Error
		if errors.As(err, &e) {
			p.add("refused %s %s %s", e.Name, e.Field, e.Message)
			return
		}
		p.add("refused? %v", err)
	}
	for _, r := range []modelcontext.Resource{
		{URI: "cart", Name: "n", Get: g},
		{URI: "contract://e", Get: g},
		{URI: "contract://e", Name: "n"},
		{URI: "contract://e", Name: "n", Get: g, Annotations: &modelcontext.Annotations{Priority: new(2.0)}},
		{URI: "contract://e", Name: "n", Get: g, Annotations: &modelcontext.Annotations{Audience: []string{"robots"}}},
		{URI: "contract://e", Name: "n", Get: g, Settle: -5 * time.Millisecond},
		{URI: "contract://e", Name: "n", Get: g, Icons: []modelcontext.Icon{{Src: "https://example.com/i.png"}, {Src: " javascript:alert(1)"}}},
		{URI: "contract://e", Name: "n", Get: g, Icons: []modelcontext.Icon{{Src: "data:image/png;base64,AA==", Theme: "blue"}}},
		{URI: "contract://e", Get: g, Icons: []modelcontext.Icon{{Src: "ftp://example.com/i.png"}}}, // the icons before the name
		{URI: "contract://e", Name: "n", Get: g, Annotations: &modelcontext.Annotations{LastModified: "2024-02-30"}},
	} {
		refused(modelcontext.Register(r))
	}
	refused(modelcontext.RegisterTemplate(modelcontext.Template{URITemplate: "contract://t/{a}{b}", Name: "t", Get: func(map[string]string) (any, error) { return nil, nil }}))
	refused(modelcontext.Register(modelcontext.Resource{URI: "contract://e", Name: "n", Get: g, Watch: func(func()) func() { panic("no source today") }}))
}

// failing: failing getters fail the read, naming the uri.
func (p *play) failing() {
	var fail atomic.Int32
	unFail, err := modelcontext.Register(modelcontext.Resource{URI: "contract://failing", Name: "failing", Get: func() (any, error) {
		switch fail.Load() {
		case 0:
			return nil, errors.New("the cart service is down")
		case 1:
			panic("nil cart")
		case 2:
			return map[string]any{"items": []float64{1, inf()}}, nil
		case 3:
			return map[string]any{"items": []any{panicky{}}}, nil
		}
		return map[string]int{"n": 1}, nil
	}})
	p.must(err)
	for i := range 4 {
		fail.Store(int32(i))
		_, err := modelcontext.Read[any](p.ctx, "contract://failing")
		var e *modelcontext.Error
		if errors.As(err, &e) {
			p.add("read failing: %s %s", e.Name, e.Message)
		} else {
			p.add("read failing: %v", err)
		}
	}
	fail.Store(4)
	_, err = modelcontext.Read[int](p.ctx, "contract://failing")
	var ute *json.UnmarshalTypeError
	p.add("decode: %v (%T %v)", err, errors.Unwrap(err), errors.As(err, &ute))
	unFail()
}

// templates: the parameters percent-decoded.
func (p *play) templates() {
	unT, err := modelcontext.RegisterTemplate(modelcontext.Template{URITemplate: "contract://t/{id}", Name: "t", Get: func(params map[string]string) (any, error) {
		if params["id"] == "none" {
			return nil, errors.New("no such order")
		}
		return params, nil
	}})
	p.must(err)
	params, err := modelcontext.Read[map[string]string](p.ctx, "contract://t/a%20b")
	p.add("template %v %v", params, err)
	_, err = modelcontext.Read[map[string]string](p.ctx, "contract://t/none")
	p.add("template failing: %v", err)
	unT()
}

// binary: binary values.
func (p *play) binary() {
	unLogo, err := modelcontext.Register(modelcontext.Resource{URI: "contract://logo", Name: "logo", MimeType: "image/png",
		Get: func() (any, error) { return []byte{0x89, 'P', 'N', 'G', 0, 255}, nil }})
	p.must(err)
	b, err := modelcontext.Read[[]byte](p.ctx, "contract://logo")
	p.add("binary %v %v", b, err)
	_, err = modelcontext.Read[struct {
		V string `json:"v"`
	}](p.ctx, "contract://logo")
	p.add("binary into a struct: %v", err)
	unLogo()
}

type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("a MarshalJSON that panics") }

func inf() float64 {
	zero := 0.0
	return 1 / zero
}
