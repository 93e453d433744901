// Package registrytest provides the one fake [registry.Host] that the tests
// of the registry, the MCP server and their benchmarks share, in the way
// net/http/httptest serves net/http's.
//
// A [Host] plays both JavaScript sides of a registry: the loader's
// lifecycle (it assigns IDs, keeps the registry's answers of which
// registration is the current one for a key as the loader caches them,
// calls subscribe and teardowns and fires resourcelistchanged around
// Registry.Register and Registry.Unregister, and runs onChange the way the
// loader does: it numbers the call, calls the getter, compares the value's
// key with the baseline and hands Registry.Push the result) and the host
// functions. Values are Go values, a getter is a Go func, the comparison
// key is encoding/json's output, and unencodable values have none. Every
// observable effect is appended to Log, one line each:
//
//	event <id> <json>        resourceupdated
//	handler <sub> <value>    a subscribeResource handler
//	end <sub>                a consumer subscription ended
//	listchanged <n>          resourcelistchanged, with the number of resources
//	teardown <id>            a teardown ran
//	warn <msg>, error <msg> <value>, debug <msg>
package registrytest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Host is a fake registry.Host with its registry. Create it with New.
type Host struct {
	R   *registry.Registry
	Log []string
	// Quiet stops the logging of effects, for benchmarks.
	Quiet bool
	// Listener, when set, is called by Dispatch like a resourceupdated
	// listener of the page.
	Listener func(id registry.ID, v any)
	// PanicIn names a host method ("Dispatch", "Deliver") that panics the
	// next time it is called, like a JavaScript host that broke.
	PanicIn string

	lastID   registry.ID
	current  map[string]registry.ID // the loader's cache of the registry's answers: key → current registration
	regs     map[registry.ID]*reg
	vals     map[registry.Value]any
	lastVal  registry.Value
	base     map[registry.ID]string
	handlers map[registry.SubID]func(v any)
	waiting  []pending
}

type reg struct {
	key      string
	get      func(params []registry.Param) (any, error)
	sub      func(onChange func()) any
	teardown func()
	pullOnly bool // subscribe threw
	async    bool
	pushes   uint32 // onChange calls so far
}

type pending struct {
	id   registry.ID
	push uint32
	val  any
}

// Teardown is what a subscribe function returns to be torn down: any other
// return value (nil included) counts as "not a teardown function", and a
// panic as a throw.
type Teardown func()

// New returns a host with an empty registry.
func New() *Host {
	h := &Host{current: map[string]registry.ID{}, regs: map[registry.ID]*reg{}, vals: map[registry.Value]any{},
		base: map[registry.ID]string{}, handlers: map[registry.SubID]func(any){}}
	h.R = registry.New(h)
	return h
}

// Register registers a concrete resource the way the loader does: a new ID,
// which replaces the current registration of uri if there is one (the
// registry says which). sub may be nil.
func (h *Host) Register(uri string, get func() (any, error), sub func(onChange func()) any) registry.ID {
	return h.register(registry.Registration{Key: uri, MIMEType: registry.DefaultMIMEType},
		func([]registry.Param) (any, error) { return get() }, sub)
}

// RegisterTemplate registers a URI template such as "app://orders/{id}"
// under mimeType; get receives the matched parameters.
func (h *Host) RegisterTemplate(template, mimeType string, get func(params []registry.Param) (any, error)) registry.ID {
	t, err := registry.NewTemplate(Parts(template))
	if err != nil {
		panic("registrytest: " + template + ": " + err.Error())
	}
	return h.register(registry.Registration{Key: template, MIMEType: mimeType, Template: t}, get, nil)
}

func (h *Host) register(r registry.Registration, get func([]registry.Param) (any, error), sub func(func()) any) registry.ID {
	key := r.Key
	if r.Template != nil {
		key = "{}" + key // templates and uris are separate tables, as in the loader
	}
	h.lastID++
	id := h.lastID
	h.regs[id] = &reg{key: key, get: get, sub: sub}
	replaces, err := h.R.Register(id, r)
	if err != nil {
		panic("registrytest: " + err.Error())
	}
	if replaces != h.current[key] {
		panic(fmt.Sprintf("registrytest: the registry says %d replaced %d, the current registration of %s", id, replaces, key))
	}
	h.current[key] = id
	// The lifecycle, as the loader runs it: the old teardown, then
	// subscribe while the registration is still current, then the event.
	if replaces != 0 {
		h.retire(replaces)
	}
	if sub != nil && h.current[key] == id {
		h.subscribe(id)
	}
	h.listChanged()
	return id
}

// Parts splits a template's text into literal, name, literal, ... the way
// the loader does once it has validated it.
func Parts(template string) []registry.Field {
	var parts []registry.Field
	rest := template
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return append(parts, str(rest))
		}
		close := strings.IndexByte(rest[open:], '}') + open
		parts = append(parts, str(rest[:open]), str(rest[open+1:close]))
		rest = rest[close+1:]
	}
}

func str(s string) registry.Field { return registry.Field{Kind: registry.KindString, Str: s} }

// Resolve looks uri up the way the loader does for readResource and MCP
// requests: the current concrete registration first, then the first template
// that matches, with its parameters.
func (h *Host) Resolve(uri string) (registry.ID, []registry.Param) {
	if id, ok := h.current[uri]; ok {
		return id, nil
	}
	return h.R.Match(uri)
}

// Unregister calls the unregister function of registration id: it does
// nothing unless id is still the current registration of its key.
func (h *Host) Unregister(id registry.ID) {
	r := h.regs[id]
	if r == nil || h.current[r.key] != id {
		return
	}
	delete(h.current, r.key)
	if !h.R.Unregister(id) {
		panic(fmt.Sprintf("registrytest: the registry had no current registration %d of %s", id, r.key))
	}
	h.retire(id)
	h.listChanged()
}

// SetAsync makes the getter of id answer with a pending Promise; Settle
// resolves them.
func (h *Host) SetAsync(id registry.ID) { h.regs[id].async = true }

// Waiting returns how many asynchronous gets wait to be settled.
func (h *Host) Waiting() int { return len(h.waiting) }

// Settle resolves the i-th asynchronous get made so far.
func (h *Host) Settle(i int) {
	p := h.waiting[i]
	h.result(p.id, p.push, p.val, nil)
}

// Follow adds a consumer subscription to uri (subscribeResource) whose
// handler also calls f (which may be nil); it returns 0 when uri is not a
// registered resource.
func (h *Host) Follow(uri string, f func(v any)) registry.SubID {
	s := h.R.Subscribe(h.current[uri])
	if s != 0 && f != nil {
		h.handlers[s] = f
	}
	return s
}

// Held returns the number of value handles not yet released.
func (h *Host) Held() int { return len(h.vals) }

// Lines returns the logged lines that start with one of the prefixes, in
// the order they were logged.
func (h *Host) Lines(prefixes ...string) []string {
	var out []string
	for _, l := range h.Log {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// fault panics if the test armed a failure of method.
func (h *Host) fault(method string) {
	if h.PanicIn == method {
		h.PanicIn = ""
		panic("registrytest: host " + method + " broke")
	}
}

func (h *Host) hold(v any) registry.Value {
	h.lastVal++
	h.vals[h.lastVal] = v
	return h.lastVal
}

func (h *Host) logf(format string, args ...any) {
	if !h.Quiet {
		h.Log = append(h.Log, fmt.Sprintf(format, args...))
	}
}

// subscribe calls the resource's subscribe, as the loader does, with an
// onChange that pushes while the registration is current and subscribe did
// not throw.
func (h *Host) subscribe(id registry.ID) {
	r := h.regs[id]
	onChange := func() {
		if h.current[r.key] == id && !r.pullOnly {
			h.push(id)
		}
	}
	var threw, ret any
	func() {
		defer func() { threw = recover() }()
		ret = r.sub(onChange)
	}()
	switch t := ret.(type) {
	case nil:
		if threw != nil {
			r.pullOnly = true
			h.logf("error subscribe threw %v", threw)
			return
		}
		h.logf("warn subscribe returned no teardown")
	case Teardown:
		if h.current[r.key] == id {
			r.teardown = t
		} else {
			h.logf("teardown %d", id) // replaced or unregistered from inside its own subscribe
			t()
		}
	default:
		h.logf("warn subscribe returned no teardown")
	}
}

// retire forgets registration id and runs its teardown, as the loader
// does.
func (h *Host) retire(id registry.ID) {
	r := h.regs[id]
	delete(h.regs, id)
	delete(h.base, id)
	if r != nil && r.teardown != nil {
		h.logf("teardown %d", id)
		func() {
			defer func() {
				if threw := recover(); threw != nil {
					h.logf("error teardown threw %v", threw)
				}
			}()
			r.teardown()
		}()
	}
}

func (h *Host) listChanged() {
	h.logf("listchanged %d", h.R.Len(false))
	h.R.ListChanged()
}

// push is onChange of id, as the loader runs it: it numbers the call,
// calls the getter and, for a value, hands Go the result.
func (h *Host) push(id registry.ID) {
	r := h.regs[id]
	r.pushes++
	n := r.pushes
	v, err := r.get(nil)
	if err == nil && r.async {
		h.waiting = append(h.waiting, pending{id, n, v})
		return
	}
	h.result(id, n, v, err)
}

// result compares v with the baseline of id, with encoding/json's output as
// the key, and hands Go the result as the loader does: a new key (or none)
// replaces the baseline first and is undone unless Go dispatches the value.
func (h *Host) result(id registry.ID, n uint32, v any, err error) {
	if err != nil {
		hv := h.hold(err)
		h.R.Push(id, n, registry.ResultThrew, hv)
		h.Release(hv)
		return
	}
	res := registry.ResultDifferent
	b, jerr := json.Marshal(v)
	old, had := h.base[id]
	switch {
	case jerr != nil:
		res = registry.ResultNoKey
		delete(h.base, id)
	case had && old == string(b):
		h.R.Push(id, n, registry.ResultSame, 0)
		return
	default:
		h.base[id] = string(b)
	}
	hv := h.hold(v)
	switch h.R.Push(id, n, res, hv) {
	case registry.Dispatched:
	case registry.Delivered:
		h.Release(hv)
	default:
		h.Release(hv)
		if had {
			h.base[id] = old
		} else {
			delete(h.base, id)
		}
	}
}

// Read calls the getter of id with params, as readResource or an MCP read
// does.
func (h *Host) Read(id registry.ID, params []registry.Param) (any, error) {
	return h.regs[id].get(params)
}

// Release implements registry.Values; it panics on a handle that is not
// held, so that a double release fails the test.
func (h *Host) Release(v registry.Value) {
	if v == 0 {
		return
	}
	if _, ok := h.vals[v]; !ok {
		panic(fmt.Sprintf("registrytest: release of unknown handle %d", v))
	}
	delete(h.vals, v)
}

// Dispatch implements registry.Consumers.
func (h *Host) Dispatch(id registry.ID, v registry.Value) {
	h.fault("Dispatch")
	if !h.Quiet {
		b, _ := json.Marshal(h.vals[v])
		h.logf("event %d %s", id, b)
	}
	if h.Listener != nil {
		h.Listener(id, h.vals[v])
	}
}

// Deliver implements registry.Consumers.
func (h *Host) Deliver(s registry.SubID, v registry.Value) registry.Value {
	h.fault("Deliver")
	h.logf("handler %d %v", s, h.vals[v])
	if f := h.handlers[s]; f != nil {
		var threw any
		func() {
			defer func() { threw = recover() }()
			f(h.vals[v])
		}()
		if threw != nil {
			return h.hold(threw)
		}
	}
	return 0
}

// EndSubscription implements registry.Consumers.
func (h *Host) EndSubscription(s registry.SubID) {
	delete(h.handlers, s)
	h.logf("end %d", s)
}

// Error implements registry.Console.
func (h *Host) Error(msg string, v registry.Value) { h.logf("error %s %v", msg, h.vals[v]) }

// Debug implements registry.Console.
func (h *Host) Debug(msg string) { h.logf("debug %s", msg) }
