//go:build js && wasm && bridgetest

package bridge

import (
	"strings"
	"syscall/js"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// fakeLoader is a JavaScript host object written like the loader's, that
// records every call in calls and lets a test make any member throw.
const fakeLoader = `
const calls = [];
const vals = [undefined];
const h = {calls, vals, throwIn: "", value: "A", lastError: ""};
const record = (name, ret) => function (...args) {
  calls.push(name + "(" + args.join(",") + ")");
  if (h.throwIn === name) throw new Error("host " + name + " broke");
  return ret(...args);
};
for (const [name, ret] of Object.entries({
  bind: () => 0, subscribe: () => 16 + 3, retire: () => 0,
  get: () => { vals.push(h.value); return vals.length - 1; },
  compare: (id, v) => (h.base === vals[v] ? 0 : (h.cand = vals[v], 1)),
  setBaseline: (id, keep) => { h.base = keep ? h.cand : undefined; },
  dispatch: () => 0, deliver: () => 0, endSubscription: () => 0, release: () => 0,
  listChanged: () => 0, warn: () => 0, error: () => 0, debugging: () => 0, debug: () => 0,
  setError: (msg) => { h.lastError = msg; },
})) h[name] = record(name, ret);
return h;`

func newLoader(t *testing.T) js.Value {
	t.Helper()
	h := js.Global().Get("Function").New(fakeLoader).Invoke()
	testHost = h
	reg = registry.New(host)
	return h
}

// put writes s into the export buffer, as the loader's putString does.
func put(s string) int32 {
	mcBuffer(int32(len(s)))
	return int32(copy(in, s))
}

func callsOf(h js.Value) string {
	c := h.Get("calls")
	var out []string
	for i := 0; i < c.Length(); i++ {
		out = append(out, c.Index(i).String())
	}
	c.Set("length", 0)
	return strings.Join(out, " ")
}

// descriptor encodes a minimal descriptor in the loader's format.
func descriptor(uri string) int32 {
	b := []byte{byte(registry.KindObject)}
	for _, s := range []string{uri, "n"} {
		b = append(b, byte(registry.KindString), byte(len(s)), 0, 0, 0)
		b = append(b, s...)
	}
	b = append(b, 0, 0, 0, byte(registry.KindFunction), byte(registry.KindFunction), 0, 0, 0, 0, 0)
	mcBuffer(int32(len(b)))
	return int32(copy(in, b))
}

func TestRegisterPushAndLookupThroughTheHost(t *testing.T) {
	h := newLoader(t)
	id := mcRegister(descriptor("state://a"))
	if id <= 0 {
		t.Fatalf("mc_register = %d, error %q", id, h.Get("lastError").String())
	}
	want := "bind(1) subscribe(1) warn(modelcontext: subscribe() of \"state://a\" returned number, not a teardown function; this subscription can never be torn down and leaks) debugging() listChanged()"
	if got := callsOf(h); got != want {
		t.Errorf("register calls\n got %s\nwant %s", got, want)
	}
	mcPush(id)
	mcPush(id)
	if got, want := callsOf(h), "get(1,1) compare(1,1) setBaseline(1,1) debugging() dispatch(1,1) release(1) get(1,2) compare(1,2) debugging() release(2)"; got != want {
		t.Errorf("push calls\n got %s\nwant %s", got, want)
	}
	if got := mcLookup(put("state://a")); got != id {
		t.Errorf("mc_lookup = %d, want %d", got, id)
	}
	if got := mcLookup(put("state://b")); got != 0 || h.Get("lastError").String() != `modelcontext: no resource is registered for uri "state://b"` {
		t.Errorf("mc_lookup of an unknown uri = %d, error %q", got, h.Get("lastError").String())
	}
	if n := mcList(0); n != 1 {
		t.Errorf("mc_list = %d, want 1", n)
	}
}

func TestInvalidDescriptorHandsTheMessage(t *testing.T) {
	h := newLoader(t)
	if id := mcRegister(descriptor("cart")); id != 0 {
		t.Fatalf("mc_register of an invalid descriptor = %d, want 0", id)
	}
	if got := h.Get("lastError").String(); got != `modelcontext: registerResource: "uri" "cart" has no scheme; write it like "state://cart"` {
		t.Errorf("error = %q", got)
	}
	mcBuffer(3)
	copy(in, []byte{6, 2, 255})
	if id := mcRegister(3); id != 0 || !strings.Contains(h.Get("lastError").String(), "malformed") {
		t.Errorf("garbage bytes: id %d, error %q", id, h.Get("lastError").String())
	}
}

func TestAThrowingHostIsRecoveredAndTheRegistryGoesOn(t *testing.T) {
	h := newLoader(t)
	id := mcRegister(descriptor("state://a"))
	h.Set("throwIn", "dispatch")
	if code := mcPush(id); code != -1 {
		t.Errorf("mc_push with a throwing host = %d, want -1", code)
	}
	if got := h.Get("lastError").String(); !strings.Contains(got, "internal error in onChange") || !strings.Contains(got, "host dispatch broke") {
		t.Errorf("error = %q", got)
	}
	h.Set("throwIn", "")
	h.Set("value", "B")
	callsOf(h)
	if code := mcPush(id); code != 0 {
		t.Errorf("mc_push after the recovery = %d", code)
	}
	if got := callsOf(h); !strings.Contains(got, "dispatch(1,") {
		t.Errorf("a push after a recovered panic did not dispatch: %s", got)
	}
}
