//go:build js && wasm

package modelcontext

import (
	"os"
	"path"
	"strconv"
	"strings"
	"testing"

	"honnef.co/go/js/dom/v2"
)

// TestModuleLoadedFirst runs every other test of this binary again in a
// frame whose page loads the module's script tag first and the app (this
// binary, under Go's stock wasm_exec.js) after it: the other load order.
// (The fuzz targets stay out: the frame has no file system for their
// corpus, and they do not depend on the load order.)
// The frame's DOM work and its message are done with dom/v2.
func TestModuleLoadedFirst(t *testing.T) {
	if moduleFirst() {
		t.Skip("this is the module-first run")
	}
	jsURL, runtimeURL, wasmURL := moduleURLs(t)
	binary := "/" + path.Base(os.Args[0]) // wasmbrowsertest serves this binary at its base name
	page := `<!doctype html><meta charset="utf-8">
<script src="` + jsURL + `" data-wasm="` + wasmURL + `" data-runtime="` + runtimeURL + `"></script>
<script src="/wasm_exec.js"></script>
<script>
  const lines = [];
  console.log = (...args) => lines.push(args.join(" ")); // the binary's output, reported to the parent
  const done = (code) => parent.postMessage({ kind: "modelcontext-module-first", code, output: lines.join("\n") }, "*");
  const go = new Go();
  go.argv = ["modelcontext.test", "-test.v", "-test.skip=^(TestModuleLoadedFirst|Fuzz.*)$"];
  go.env = { MODELCONTEXT_ORDER: "module-first" };
  go.exit = done;
  WebAssembly.instantiateStreaming(fetch(` + strconv.Quote(binary) + `), go.importObject)
    .then((r) => go.run(r.instance))
    .catch((e) => { lines.push(String(e)); done(-1); });
</script>`

	type result struct {
		code   int
		output string
	}
	results := make(chan result, 1)
	win := dom.GetWindow()
	listener := win.AddEventListener("message", false, func(e dom.Event) {
		data := e.(*dom.MessageEvent).Data()
		if data.Get("kind").String() != "modelcontext-module-first" {
			return
		}
		select {
		case results <- result{code: data.Get("code").Int(), output: data.Get("output").String()}:
		default:
		}
	})
	defer win.RemoveEventListener("message", false, listener)
	frame := win.Document().CreateElement("iframe")
	frame.SetAttribute("srcdoc", page)
	win.Document().QuerySelector("body").AppendChild(frame)
	defer frame.Remove()

	var r result
	select {
	case r = <-results:
	case <-ctx(t).Done():
		t.Fatal("the module-first frame did not finish")
	}
	passed := strings.Count(r.output, "--- PASS: ")
	if r.code != 0 || passed < 8 || !strings.HasSuffix(strings.TrimSpace(r.output), "PASS") {
		t.Fatalf("module first: the tests exited with %d, %d passed:\n%s", r.code, passed, r.output)
	}
	t.Logf("module first: %d tests passed", passed)
}
