//go:build js && wasm

package bridge

import (
	"strconv"
	"strings"
	"syscall/js"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/mcp"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
	"github.com/modelcontext-go/modelcontext/wasm/registry/registrytest"
)

// The tests run under wasmbrowsertest with testdata/testhost.js as the
// "modelcontext" import module (make test-wasm): the //go:wasmimport
// functions are the real ones, and the fake host records their calls.

func fakeHost(t *testing.T) js.Value {
	t.Helper()
	h := js.Global().Get("bridgeHost")
	if h.IsUndefined() {
		t.Fatal("no bridgeHost: run these tests with make test-wasm, which adds testdata/testhost.js to wasm_exec.js")
	}
	h.Set("answers", js.Global().Get("Object").New())
	h.Set("throwIn", "")
	h.Set("describeWith", js.Null())
	h.Call("take")
	reg = registry.New(host)
	return h
}

func answer(h js.Value, name string, v int) { h.Get("answers").Set(name, v) }

func take(h js.Value) string { return h.Call("take").String() }

// fields writes fields in the loader's encoding into the export buffer
// (put) and returns their length.
type fields = registrytest.Fields

func put(f fields) int32 {
	mcBuffer(int32(len(f)))
	return int32(copy(in, f))
}

func resource(uri string) int32 {
	return put(fields{}.Str(uri).Str("application/json").Kind(registry.KindUndefined))
}

func TestRegisterAndPushThroughTheHost(t *testing.T) {
	h := fakeHost(t)
	if code := mcRegister(1, 0, resource("state://a")); code != 0 {
		t.Fatalf("mc_register = %d, error %q", code, h.Get("lastError"))
	}
	// The lifecycle (subscribe, resourcelistchanged) is the loader's.
	if got := take(h); got != "" {
		t.Errorf("register called out: %s", got)
	}
	if got := mcPush(1, 1, int32(registry.ResultDifferent), 5, 1); got != int32(registry.Dispatched) {
		t.Errorf("a new value: outcome %d, want Dispatched", got)
	}
	if got := mcPush(1, 2, int32(registry.ResultSame), 0, 0); got != int32(registry.Suppressed) {
		t.Errorf("the same value: outcome %d, want Suppressed", got)
	}
	if got := mcPush(1, 1, int32(registry.ResultDifferent), 6, 0); got != int32(registry.Dropped) {
		t.Errorf("a late value: outcome %d, want Dropped", got)
	}
	// Go releases what it dispatched, and calls nothing for the others.
	want := `debug([modelcontext] resource "state://a" changed) dispatch(1,5) release(5)`
	if got := take(h); got != want {
		t.Errorf("push calls\n got %s\nwant %s", got, want)
	}
	if code := mcPush(1, 3, 9, 0, 0); code != -1 {
		t.Errorf("an unknown result = %d, want -1", code)
	}
	take(h)
	if code := mcUnregister(1); code != 0 || take(h) != "" {
		t.Errorf("unregister: %d", code)
	}
}

// TestAResourceToldWithoutItsFieldsIsDescribedWhenNeeded: the loader
// registers a concrete resource with no fields (n = 0); Go asks for them
// (describe) only when it needs the uri, here for a debug line, and once.
func TestAResourceToldWithoutItsFieldsIsDescribedWhenNeeded(t *testing.T) {
	h := fakeHost(t)
	f := fields{}.Str("state://a").Str("application/json").Kind(registry.KindUndefined)
	b := js.Global().Get("Uint8Array").New(len(f))
	js.CopyBytesToJS(b, f)
	h.Set("describeWith", b)
	if code := mcRegister(1, 0, 0); code != 0 {
		t.Fatalf("mc_register without fields = %d, error %q", code, h.Get("lastError"))
	}
	mcPush(1, 1, int32(registry.ResultDifferent), 5, 0)
	if got, want := take(h), "dispatch(1,5) release(5)"; got != want {
		t.Errorf("a push without debug lines\n got %s\nwant %s", got, want)
	}
	mcPush(1, 2, int32(registry.ResultDifferent), 6, 1)
	mcPush(1, 3, int32(registry.ResultSame), 0, 1)
	want := `describe(1) debug([modelcontext] resource "state://a" changed) dispatch(1,6) release(6) ` +
		`debug([modelcontext] resource "state://a": push suppressed (value unchanged))`
	if got := take(h); got != want {
		t.Errorf("pushes with debug lines\n got %s\nwant %s", got, want)
	}
	if key, mime, _, ok := reg.Info(1); !ok || key != "state://a" || mime != "application/json" {
		t.Errorf("Info(1) = %q, %q, %v", key, mime, ok)
	}
}

func TestAMalformedRegistrationIsAnInternalError(t *testing.T) {
	h := fakeHost(t)
	if code := mcRegister(1, 0, put(fields{}.Num(1))); code != -1 {
		t.Fatalf("mc_register of garbage = %d, want -1", code)
	}
	if got := h.Get("lastError").String(); !strings.Contains(got, "modelcontext: internal error in registerResource") || !strings.Contains(got, "malformed") {
		t.Errorf("error = %q", got)
	}
	if code := mcRegister(1, 7, resource("state://a")); code != -1 {
		t.Errorf("replacing an unknown registration = %d, want -1", code)
	}
}

// TestAThrowingHostFailsOutOfBand: a host function that throws returns 0,
// which for deliver means "did not throw"; the fault flag makes it a failure
// of the push instead of a silent success, and the registry goes on.
func TestAThrowingHostFailsOutOfBand(t *testing.T) {
	h := fakeHost(t)
	mcRegister(1, 0, resource("state://a"))
	s := mcSubscribe(1)
	h.Set("throwIn", "deliver")
	take(h)
	if code := mcPush(1, 1, int32(registry.ResultDifferent), 3, 0); code != -1 {
		t.Errorf("mc_push with a throwing deliver = %d, want -1", code)
	}
	if got := h.Get("lastError").String(); got != "modelcontext: internal error in onChange: the loader's deliver failed" {
		t.Errorf("error = %q", got)
	}
	take(h)
	want := "dispatch(1,4) deliver(" + strconv.Itoa(int(s)) + ",4) release(4)"
	if code := mcPush(1, 2, int32(registry.ResultDifferent), 4, 0); code != int32(registry.Dispatched) || take(h) != want {
		t.Errorf("the push after the failure did not deliver (code %d)", code)
	}
}

func TestTemplatesMatchWithParameters(t *testing.T) {
	h := fakeHost(t)
	n := put(fields{}.Str("app://orders/{id}").Str("application/json").Strings("app://orders/", "id", ""))
	if code := mcRegister(1, 0, n); code != 0 {
		t.Fatalf("mc_register = %d: %s", code, h.Get("lastError"))
	}
	take(h)
	uri := "app://orders/a%20b"
	if id := mcMatch(int32(copy(in, uri))); id != 1 || h.Get("params").String() != `{"id":"a b"}` {
		t.Errorf("mc_match = %d, params %s", id, h.Get("params"))
	}
	if id := mcMatch(int32(copy(in, "app://other/1"))); id != 0 {
		t.Errorf("mc_match of a uri no template serves = %d", id)
	}
}

// TestTheBufferKeepsWhatItHeldWhenItGrows: the loader may write a field and
// then ask for more room.
func TestTheBufferKeepsWhatItHeldWhenItGrows(t *testing.T) {
	copy(in, "origin")
	mcBuffer(int32(len(in) * 3))
	if string(in[:6]) != "origin" {
		t.Errorf("after growing, the buffer starts %q", in[:6])
	}
}

func TestAnMCPRequestThroughTheBridge(t *testing.T) {
	h := fakeHost(t)
	mcRegister(1, 0, resource("state://a"))
	take(h)
	opts := put(fields{}.Kind(registry.KindObject).Str("test").Kind(registry.KindUndefined).Kind(registry.KindUndefined).
		Kind(registry.KindUndefined).Kind(registry.KindUndefined).Kind(registry.KindUndefined).Str("http://page"))
	server := mcMCPStart(opts)
	if server <= 0 {
		t.Fatalf("mc_mcp_start = %d: %s", server, h.Get("lastError"))
	}
	if got := take(h); got != `mcpOpen(`+itoa(server)+`,test) mcpPost(`+itoa(server)+`,,"mcp-server-ready",0,0,0,0)` {
		t.Errorf("start: %s", got)
	}
	// {"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"state://a"}}, resolved to 1.
	var m fields
	for _, f := range mcp.MessageFields() {
		switch strings.Join(f.Path, ".") + "/" + f.As {
		case "origin/":
			m = m.Str("http://page")
		case "payload/", "payload.params/":
			m = m.Kind(registry.KindObject)
		case "payload.jsonrpc/":
			m = m.Str("2.0")
		case "payload.id/":
			m = m.Str("r")
		case "payload.method/":
			m = m.Str("resources/read")
		case "payload.params.uri/":
			m = m.Str("state://a")
		case "payload.params.uri/resource":
			m = m.Num(1)
		case "/unreadable":
			m = m.Bool(false)
		default:
			m = m.Kind(registry.KindUndefined)
		}
	}
	if code := mcMCPMessage(server, put(m), 1); code != 0 {
		t.Fatalf("mc_mcp_message = %d: %s", code, h.Get("lastError"))
	}
	if got := take(h); got != "mcpRead("+itoa(server)+",1,1,)" {
		t.Fatalf("read: %s", got)
	}
	mcMCPReadDone(server, 1, int32(mcp.ContentText), 9, 4, 0)
	want := `mcpPost(` + itoa(server) + `,,{"jsonrpc":"2.0","id":"r","result":{"contents":[{"uri":"state://a","mimeType":"application/json"}]}},3,0,0,9)`
	if got := take(h); got != want {
		t.Errorf("answer\n got %s\nwant %s", got, want)
	}
	mcMCPStop(server)
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }
