//go:build js && wasm

package bridge

import (
	"strconv"
	"strings"
	"syscall/js"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/abi"
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

// words reads the record an export's result points to (see answer.go):
// its first two words (0 for one it lacks) and the bytes after them.
func words(t *testing.T, code int32) (uint32, uint32, string) {
	t.Helper()
	at := code
	if at < 0 {
		at = -at
	}
	if at != address() || len(out) < 4 {
		t.Fatalf("result %d does not point to the record in out (at %d, %d bytes)", code, address(), len(out))
	}
	w := func(i int) uint32 {
		return uint32(out[i]) | uint32(out[i+1])<<8 | uint32(out[i+2])<<16 | uint32(out[i+3])<<24
	}
	if len(out) < 8 {
		return w(0), 0, ""
	}
	return w(0), w(4), string(out[8:])
}

// failed returns the message of the failure an export returned, and
// whether it is a TypeError.
func failed(t *testing.T, code int32) (string, bool) {
	t.Helper()
	if code >= 0 {
		t.Fatalf("result %d, want a failure", code)
	}
	kind, n, msg := words(t, code)
	if int(n) != len(msg) {
		t.Fatalf("a failure of %d bytes holds %d", n, len(msg))
	}
	return msg, kind == abi.FailTypeError
}

func TestRegisterAndPushThroughTheHost(t *testing.T) {
	h := fakeHost(t)
	if code := mcRegister(1, resource("state://a")); code != 0 {
		t.Fatalf("mc_register = %d", code)
	}
	// The lifecycle (subscribe, resourcelistchanged) is the loader's.
	if got := take(h); got != "" {
		t.Errorf("register called out: %s", got)
	}
	if got := mcPush(1, 1, int32(registry.ResultDifferent), 5, 1); got != int32(registry.Delivered) {
		t.Errorf("a new value: outcome %d, want Delivered", got)
	}
	if got := mcPush(1, 2, int32(registry.ResultSame), 0, 0); got != int32(registry.Suppressed) {
		t.Errorf("the same value: outcome %d, want Suppressed", got)
	}
	if got := mcPush(1, 1, int32(registry.ResultDifferent), 6, 0); got != int32(registry.Dropped) {
		t.Errorf("a late value: outcome %d, want Dropped", got)
	}
	// Go releases nothing: the value it delivered at once is the loader's
	// to release (Delivered), and it calls nothing for the others.
	want := `debug([modelcontext] resource "state://a" changed) dispatch(1,5)`
	if got := take(h); got != want {
		t.Errorf("push calls\n got %s\nwant %s", got, want)
	}
	if msg, _ := failed(t, mcPush(1, 3, 9, 0, 0)); !strings.Contains(msg, "internal error in onChange") {
		t.Errorf("an unknown result: %q", msg)
	}
	take(h)
	if code := mcUnregister(1); code != 1 || take(h) != "" {
		t.Errorf("unregister: %d, want 1", code)
	}
	if code := mcUnregister(1); code != 0 {
		t.Errorf("unregister again: %d, want 0", code)
	}
}

// TestGoSaysWhatARegistrationReplaced: mc_register answers the ID it
// replaced (testbuild_test.go checks mc_list's order after it).
func TestGoSaysWhatARegistrationReplaced(t *testing.T) {
	fakeHost(t)
	registerThree(t)
}

// registerThree registers state://a, state://b, then state://a again,
// which replaces the first.
func registerThree(t *testing.T) {
	t.Helper()
	for _, tc := range []struct {
		id   int32
		uri  string
		want int32
	}{{1, "state://a", 0}, {2, "state://b", 0}, {3, "state://a", 1}} {
		if got := mcRegister(tc.id, resource(tc.uri)); got != tc.want {
			t.Errorf("mc_register(%d, %s) = %d, want %d", tc.id, tc.uri, got, tc.want)
		}
	}
}

func TestAMalformedRegistrationIsAnInternalError(t *testing.T) {
	h := fakeHost(t)
	got, typeError := failed(t, mcRegister(1, put(fields{}.Num(1))))
	if typeError || !strings.Contains(got, "modelcontext: internal error in registerResource") || !strings.Contains(got, "malformed") {
		t.Errorf("error = %q (TypeError %v)", got, typeError)
	}
	if !strings.Contains(take(h), "error(modelcontext: internal error in registerResource") {
		t.Error("the internal error was not reported to the console")
	}
	mcRegister(1, resource("state://a"))
	if got, _ := failed(t, mcRegister(1, resource("state://b"))); !strings.Contains(got, "inconsistent registration") {
		t.Errorf("an ID in use: %q", got)
	}
}

// TestAThrowingHostFailsOutOfBand: a host function that throws returns 0,
// which for deliver means "did not throw"; the fault flag makes it a failure
// of the push instead of a silent success, and the registry goes on.
func TestAThrowingHostFailsOutOfBand(t *testing.T) {
	h := fakeHost(t)
	mcRegister(1, resource("state://a"))
	s := mcSubscribe(1)
	h.Set("throwIn", "deliver")
	take(h)
	if got, _ := failed(t, mcPush(1, 1, int32(registry.ResultDifferent), 3, 0)); got != "modelcontext: internal error in onChange: the loader's deliver failed" {
		t.Errorf("mc_push with a throwing deliver: error = %q", got)
	}
	take(h)
	want := "dispatch(1,4) deliver(" + strconv.Itoa(int(s)) + ",4)"
	if code := mcPush(1, 2, int32(registry.ResultDifferent), 4, 0); code != int32(registry.Delivered) || take(h) != want {
		t.Errorf("the push after the failure did not deliver (code %d)", code)
	}
}

func TestTemplatesMatchWithParameters(t *testing.T) {
	h := fakeHost(t)
	n := put(fields{}.Str("app://orders/{id}").Str("application/json").Strings("app://orders/", "id", ""))
	if code := mcRegister(1, n); code != 0 {
		t.Fatalf("mc_register = %d", code)
	}
	take(h)
	uri := "app://orders/a%20b"
	if id, n, params := words(t, mcMatch(int32(copy(in, uri)))); id != 1 || int(n) != len(params) || params != `{"id":"a b"}` {
		t.Errorf("mc_match = template %d, params %s (%d bytes)", id, params, n)
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

// TestTheBufferHasALimit: more than maxBuffer bytes is refused (0), and
// the buffer stays as it was.
func TestTheBufferHasALimit(t *testing.T) {
	before := len(in)
	if p := mcBuffer(maxBuffer + 1); p != nil {
		t.Errorf("mc_buffer(maxBuffer+1) = %p, want 0", p)
	}
	if p := mcBuffer(1<<31 - 1); p != nil {
		t.Errorf("mc_buffer(2 GiB) = %p, want 0", p)
	}
	if len(in) != before {
		t.Errorf("a refused request grew the buffer from %d to %d bytes", before, len(in))
	}
}

func TestAnMCPRequestThroughTheBridge(t *testing.T) {
	h := fakeHost(t)
	mcRegister(1, resource("state://a"))
	take(h)
	opts := put(fields{}.Kind(registry.KindObject).Str("test").Kind(registry.KindUndefined).Kind(registry.KindUndefined).
		Kind(registry.KindUndefined).Kind(registry.KindUndefined).Kind(registry.KindUndefined).Str("http://page").Kind(registry.KindUndefined))
	server := mcMCPStart(opts)
	if server <= 0 {
		t.Fatalf("mc_mcp_start = %d", server)
	}
	if got := take(h); got != `mcpOpen(`+itoa(server)+`,test,http://page,0) mcpPost(`+itoa(server)+`,,"mcp-server-ready",0,0,0,0)` {
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
		t.Fatalf("mc_mcp_message = %d", code)
	}
	if got := take(h); got != "mcpRead("+itoa(server)+",1,1,)" {
		t.Fatalf("read: %s", got)
	}
	mcMCPReadDone(server, 1, int32(mcp.ContentText), 9, 4, 0)
	// The server asks the page's revision for the result's _meta (the test host answers 0).
	want := `revision() mcpPost(` + itoa(server) + `,,{"jsonrpc":"2.0","id":"r","result":{"contents":[{"uri":"state://a","mimeType":"application/json"}],"_meta":{"modelcontext/revision":0}}},3,0,0,9)`
	if got := take(h); got != want {
		t.Errorf("answer\n got %s\nwant %s", got, want)
	}
	mcMCPStop(server)
}

// TestAParentServerStartsAndStopsWithItsServer: serveMCP's parent starts a
// second server on the iframe channel, for the parent's origins, on the
// parent window (mcpOpen's last argument); stop ends both, the parent's
// first; a second parent server is refused while one runs.
func TestAParentServerStartsAndStopsWithItsServer(t *testing.T) {
	h := fakeHost(t)
	opts := func(channel string) int32 {
		return put(fields{}.Kind(registry.KindObject).Str(channel).Kind(registry.KindUndefined).Kind(registry.KindUndefined).
			Kind(registry.KindUndefined).Kind(registry.KindUndefined).Kind(registry.KindUndefined).Str("http://page").
			Strings("https://shop.example", "http://127.0.0.1:8080"))
	}
	server := mcMCPStart(opts("own"))
	if server <= 0 {
		t.Fatalf("mc_mcp_start = %d", server)
	}
	p := itoa(server + 1)
	want := `mcpOpen(` + itoa(server) + `,own,http://page,0) mcpPost(` + itoa(server) + `,,"mcp-server-ready",0,0,0,0) ` +
		`mcpOpen(` + p + `,mcp-iframe,https://shop.example` + "\n" + `http://127.0.0.1:8080,1) mcpPost(` + p + `,,"mcp-server-ready",0,0,0,0)`
	if got := take(h); got != want {
		t.Errorf("start\n got %s\nwant %s", got, want)
	}
	if second := mcMCPStart(opts("other")); second >= 0 {
		t.Errorf("a second parent server started (%d)", second)
	}
	take(h)
	mcMCPStop(server)
	want = `mcpPost(` + p + `,,"mcp-server-stopped",0,0,0,0) mcpClose(` + p + `) mcpPost(` + itoa(server) + `,,"mcp-server-stopped",0,0,0,0) mcpClose(` + itoa(server) + `)`
	if got := take(h); got != want {
		t.Errorf("stop\n got %s\nwant %s", got, want)
	}
	if again := mcMCPStart(opts("other")); again <= 0 {
		t.Errorf("a parent server after the first stopped: mc_mcp_start = %d", again)
	} else {
		mcMCPStop(again)
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }
