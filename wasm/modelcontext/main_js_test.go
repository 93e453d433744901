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
	once         sync.Once
	js, rt, wasm string // blob URLs of the staged module: the script, its runtime, the .wasm
	err          error
	loadError    error
}

// moduleURLs returns blob URLs of the staged modelcontext.js, its runtime
// and the .wasm (a blob: script has no folder: data-runtime and data-wasm
// say where the others are).
func moduleURLs(t testing.TB) (jsURL, runtimeURL, wasmURL string) {
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
		module.rt = blob("modelcontext-runtime.js", "text/javascript")
		module.wasm = blob("modelcontext.wasm", "application/wasm")
	})
	if module.err != nil {
		t.Fatalf("%v: the module is not staged; run `make test-goapi`, which builds it and copies the test build's modelcontext.js, runtime and .wasm (.cache/testdist) to wasm/modelcontext/testdata/dist", module.err)
	}
	return module.js, module.rt, module.wasm
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
	jsURL, runtimeURL, wasmURL := moduleURLs(t)
	loadOnce.Do(func() {
		module.loadError = Load(ctx(t), jsURL, map[string]string{"data-wasm": wasmURL, "data-runtime": runtimeURL})
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

// heapObjects returns how many objects this Go program's heap holds once
// the garbage collector has run twice, with a pause between for the
// finalizers the first queued (a js.Value's, which hands its JavaScript
// value back to wasm_exec.js) to run, so that the second frees what they
// kept. A js.Value that refers to a JavaScript object holds a heap object
// of its own: JavaScript values this program keeps show up here.
func heapObjects() uint64 {
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // let the finalizer goroutine run
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapObjects
}

// settle collects garbage until the heap holds at most want objects, and
// returns what it holds at the end.
func settle(want uint64) uint64 {
	got := heapObjects()
	for i := 0; i < 200 && got > want; i++ {
		got = heapObjects()
	}
	return got
}

// steady collects garbage until the number of heap objects stops falling,
// and returns it.
func steady() uint64 {
	last, same := heapObjects(), 0
	for same < 3 {
		if n := heapObjects(); n < last {
			last, same = n, 0
		} else {
			same++
		}
	}
	return last
}

// goroutinesDown waits (a few seconds at most) for the number of
// goroutines to fall to want, and returns it.
func goroutinesDown(want int) int {
	got := runtime.NumGoroutine()
	for i := 0; i < 200 && got > want; i++ {
		time.Sleep(10 * time.Millisecond)
		got = runtime.NumGoroutine()
	}
	return got
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
