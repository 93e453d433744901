//go:build js && wasm

// The browser tests run in headless Chromium through wasmbrowsertest
// (make test-goapi): this test binary is the page's Go app, and the real
// module, staged into testdata/dist by make test-goapi and embedded here, is
// loaded into the page from blob URLs.
//
// They run twice, once in each load order:
//
//   - app first: wasmbrowsertest's page starts this binary with Go's stock
//     wasm_exec.js; the tests find no module (TestBeforeTheModule), then
//     load it with Load.
//   - module first: TestModuleLoadedFirst opens a frame whose page has the
//     module's script tag first, then the stock wasm_exec.js, then this
//     same binary, run with MODELCONTEXT_ORDER=module-first; every other
//     test runs again in there, and its result is this test's result.
package modelcontext

import (
	"context"
	"embed"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall/js"
	"testing"
	"time"
)

//go:embed testdata/dist
var staged embed.FS

// moduleFirst reports whether this binary runs in the module-first frame.
func moduleFirst() bool { return os.Getenv("MODELCONTEXT_ORDER") == "module-first" }

// atStart is what the package saw before any test loaded the module.
var atStart struct {
	installed                       bool
	register, read, subscribe, list error
	funcs                           int64
}

func TestMain(m *testing.M) {
	_, err := modelContext()
	atStart.installed = err == nil
	if !atStart.installed {
		_, atStart.register = Register(Resource{URI: "state://early", Name: "early", Get: func() (any, error) { return 1, nil }})
		_, atStart.read = Read[int](context.Background(), "state://early")
		_, atStart.subscribe = Subscribe("state://early", func(int, error) {})
		_, atStart.list = Resources()
		atStart.funcs = liveFuncs.Load()
	}
	os.Exit(m.Run())
}

// timeout bounds every wait of a test: generous, the machine is shared.
const timeout = 60 * time.Second

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	return c
}

var module struct {
	once      sync.Once
	js, wasm  string // blob URLs of the staged module
	err       error
	loadError error
}

// moduleURLs returns blob URLs of the staged modelcontext.js and .wasm.
func moduleURLs(t testing.TB) (jsURL, wasmURL string) {
	t.Helper()
	module.once.Do(func() {
		blob := func(name, typ string) string {
			b, err := staged.ReadFile("testdata/dist/" + name)
			if err != nil {
				module.err = err
				return ""
			}
			a := jsUint8Array.New(len(b))
			js.CopyBytesToJS(a, b)
			bl := global.Get("Blob").New([]any{a}, map[string]any{"type": typ})
			return global.Get("URL").Call("createObjectURL", bl).String()
		}
		module.js = blob("modelcontext.js", "text/javascript")
		module.wasm = blob("modelcontext.wasm", "application/wasm")
	})
	if module.err != nil {
		t.Fatalf("%v: the module is not staged; run `make test-goapi`, which builds it and copies dist/modelcontext.js and .wasm to wasm/modelcontext/testdata/dist", module.err)
	}
	return module.js, module.wasm
}

var loadOnce sync.Once

// setup makes sure the module is loaded and ready: in the module-first frame
// it is already on the page; in wasmbrowsertest's page the first test loads
// it with Load.
func setup(t testing.TB) {
	t.Helper()
	if moduleFirst() {
		if err := Ready(ctx(t)); err != nil {
			t.Fatalf("Ready: %v", err)
		}
		return
	}
	jsURL, wasmURL := moduleURLs(t)
	loadOnce.Do(func() {
		module.loadError = Load(ctx(t), jsURL, map[string]string{"data-wasm": wasmURL})
	})
	if module.loadError != nil {
		t.Fatalf("Load: %v", module.loadError)
	}
}

// jsFunc makes a JavaScript function from source, for the few checks that
// must look at the page from JavaScript's side. (Test code only: the
// package itself never evaluates source, which a page's CSP may forbid.)
func jsFunc(body string) js.Value {
	return global.Get("Function").New(body)
}

// moduleStats returns the module's live registration and subscription
// counts (the loader's internals hook, for tests).
func moduleStats() (registrations, subscriptions int) {
	s := jsFunc(`return document.modelContext[Symbol.for("modelcontext.internals")].stats();`).Invoke()
	return s.Get("registrations").Int(), s.Get("subscriptions").Int()
}

var goInstance struct {
	once sync.Once
	v    js.Value
}

// liveRefs returns how many JavaScript values this Go program holds
// references to: the live entries of wasm_exec.js's value table. The Go
// instance is not reachable from the page, so it is caught once: while one
// js.FuncOf is made, Go.prototype._makeFuncWrapper is wrapped to see its this.
func liveRefs(t *testing.T) int {
	t.Helper()
	goInstance.once.Do(func() {
		proto := global.Get("Go").Get("prototype")
		orig := proto.Get("_makeFuncWrapper")
		seen := js.FuncOf(func(_ js.Value, args []js.Value) any {
			goInstance.v = args[0]
			return nil
		})
		wrap := jsFunc(`const [orig, seen] = arguments;
			return function (id) { seen(this); return orig.call(this, id); };`).Invoke(orig, seen)
		proto.Set("_makeFuncWrapper", wrap)
		probe := js.FuncOf(func(js.Value, []js.Value) any { return nil })
		proto.Set("_makeFuncWrapper", orig)
		probe.Release()
		seen.Release()
	})
	if goInstance.v.Type() != js.TypeObject || goInstance.v.Get("_values").Type() != js.TypeObject {
		t.Fatal("could not find the Go instance of this program")
	}
	return goInstance.v.Get("_values").Length() - goInstance.v.Get("_idPool").Length()
}

// settle runs the garbage collector until the value table holds want live
// references (finalizers release them a little later), and returns what it
// holds at the end.
func settle(t *testing.T, want int) int {
	t.Helper()
	got := 0
	for i := 0; i < 200; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // let the finalizer goroutine run
		if got = liveRefs(t); got <= want {
			return got
		}
	}
	return got
}

// steady runs the garbage collector until the number of live references
// stops falling, and returns it.
func steady(t *testing.T) int {
	t.Helper()
	last, same := liveRefs(t), 0
	for same < 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if n := liveRefs(t); n < last {
			last, same = n, 0
		} else {
			same++
		}
	}
	return last
}

// console captures what the page writes with console.error (and still
// writes it), until the returned function is called.
func captureConsoleError(t *testing.T) (lines func() []string) {
	t.Helper()
	console := global.Get("console")
	orig := console.Get("error")
	var mu sync.Mutex
	var got []string
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = safeString(a)
		}
		mu.Lock()
		got = append(got, strings.Join(parts, " "))
		mu.Unlock()
		return nil
	})
	console.Set("error", f)
	t.Cleanup(func() {
		console.Set("error", orig)
		f.Release()
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}
