package registry

import (
	"encoding/json"
	"fmt"
	"strings"
)

// fakeHost plays the JavaScript side: values are Go values, a getter is a Go
// func, the comparison key is encoding/json's output (unencodable values have
// none), and every observable effect is appended to log.
type fakeHost struct {
	r        *Registry
	log      []string
	debug    bool
	vals     map[Value]any
	lastVal  Value
	getters  map[ID]func() (any, error) // the getter of each bound registration
	pending  func() (any, error)        // getter of the registration being made
	pendSub  func(onChange func()) any  // subscribe of the registration being made
	subs     map[ID]func(onChange func()) any
	tear     map[ID]any
	base     map[ID]string
	cand     string
	uris     map[ID]string
	handlers map[SubID]func(v any)
	async    map[ID]bool // getters of these registrations return later
	waiting  []pendingGet
}

type pendingGet struct {
	id   ID
	push uint32
	val  any
}

type teardown func()

func newFake() *fakeHost {
	h := &fakeHost{vals: map[Value]any{}, getters: map[ID]func() (any, error){},
		subs: map[ID]func(func()) any{}, tear: map[ID]any{}, base: map[ID]string{},
		uris: map[ID]string{}, handlers: map[SubID]func(any){}, async: map[ID]bool{}}
	h.r = New(h)
	return h
}

func (h *fakeHost) hold(v any) Value {
	h.lastVal++
	h.vals[h.lastVal] = v
	return h.lastVal
}

func (h *fakeHost) logf(format string, args ...any) {
	h.log = append(h.log, fmt.Sprintf(format, args...))
}

func (h *fakeHost) Bind(id ID) {
	h.getters[id], h.subs[id] = h.pending, h.pendSub
}

func (h *fakeHost) Subscribe(id ID) (SubscribeStatus, Kind, Value) {
	var threw any
	var ret any
	func() {
		defer func() { threw = recover() }()
		ret = h.subs[id](func() { h.r.Push(id) })
	}()
	switch t := ret.(type) {
	case nil:
		if threw != nil {
			return SubscribeThrew, 0, h.hold(threw)
		}
		return SubscribeNoTeardown, KindUndefined, 0
	case teardown:
		h.tear[id] = t
		return SubscribeTeardown, 0, 0
	default:
		return SubscribeNoTeardown, KindNumber, 0
	}
}

func (h *fakeHost) Retire(id ID) Value {
	t, _ := h.tear[id].(teardown)
	delete(h.getters, id)
	delete(h.tear, id)
	delete(h.base, id)
	if t != nil {
		h.logf("teardown %d", id)
		t()
	}
	return 0
}

func (h *fakeHost) Get(id ID, push uint32) (GetStatus, Value) {
	v, err := h.getters[id]()
	if err != nil {
		return GetThrew, h.hold(err)
	}
	if h.async[id] {
		h.waiting = append(h.waiting, pendingGet{id, push, v})
		return GetPending, 0
	}
	return GetValue, h.hold(v)
}

// resolve settles the i-th waiting asynchronous get.
func (h *fakeHost) resolve(i int) {
	p := h.waiting[i]
	h.r.Settle(p.id, p.push, h.hold(p.val), true)
}

func (h *fakeHost) Compare(id ID, v Value) KeyResult {
	b, err := json.Marshal(h.vals[v])
	if err != nil {
		return KeyNone
	}
	h.cand = string(b)
	if old, ok := h.base[id]; ok && old == h.cand {
		return KeySame
	}
	return KeyDifferent
}

func (h *fakeHost) SetBaseline(id ID, keep bool) {
	if keep {
		h.base[id] = h.cand
	} else {
		delete(h.base, id)
	}
}

func (h *fakeHost) Dispatch(id ID, v Value) {
	b, _ := json.Marshal(h.vals[v])
	h.logf("event %d %s", id, b)
}

func (h *fakeHost) Deliver(s SubID, id ID, v Value) Value {
	h.logf("handler %d %v", s, h.vals[v])
	if f := h.handlers[s]; f != nil {
		f(h.vals[v])
	}
	return 0
}

func (h *fakeHost) EndSubscription(s SubID) { h.logf("end %d", s) }

func (h *fakeHost) Release(v Value) {
	if v == 0 {
		return
	}
	if _, ok := h.vals[v]; !ok {
		panic(fmt.Sprintf("release of unknown handle %d", v))
	}
	delete(h.vals, v)
}

func (h *fakeHost) ListChanged()              { h.logf("listchanged %d", h.r.Len()) }
func (h *fakeHost) Warn(msg string)           { h.logf("warn %s", msg) }
func (h *fakeHost) Error(msg string, v Value) { h.logf("error %s %v", msg, h.vals[v]) }
func (h *fakeHost) Debugging() bool           { return h.debug }
func (h *fakeHost) Debug(msg string)          { h.logf("debug %s", msg) }

// register registers a descriptor with the given uri, getter and optional
// subscribe, failing the test helper's caller through panic on error.
func (h *fakeHost) register(uri string, get func() (any, error), sub func(func()) any) (ID, error) {
	d := Descriptor{Kind: KindObject,
		URI:  Field{Kind: KindString, Str: uri},
		Name: Field{Kind: KindString, Str: "n"},
		Get:  Field{Kind: KindFunction}}
	if sub != nil {
		d.Subscribe = Field{Kind: KindFunction}
	}
	h.pending, h.pendSub = get, sub
	return h.r.Register(&d)
}

// events returns the logged lines that start with prefix.
func (h *fakeHost) events(prefix string) []string {
	var out []string
	for _, l := range h.log {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}
