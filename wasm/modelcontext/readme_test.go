//go:build !(js && wasm)

package modelcontext

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

// readmeBlock returns the n-th fenced block of README.md in language lang.
func readmeBlock(t *testing.T, lang string, n int) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) <= n {
		t.Fatalf("README.md has %d ```%s blocks, want at least %d", len(blocks), lang, n+1)
	}
	return blocks[n][1]
}

// hook is added to the README's app by the test: it lets the test page call
// the app's addToCart, and Notify without a change.
const hook = `//go:build js && wasm

package main

import "syscall/js"

func init() {
	js.Global().Set("addToCart", js.FuncOf(func(_ js.Value, args []js.Value) any { addToCart(args[0].String()); return nil }))
	js.Global().Set("notifyUnchanged", js.FuncOf(func(js.Value, []js.Value) any { changed.Notify(); return nil }))
}
`

// TestReadmeAsAGoDeveloper does what README.md says, in a fresh module: the
// five-line example in its own main package (go.mod replacing the module
// path with this checkout), built with GOOS=js GOARCH=wasm go build, loaded
// with the README's HTML beside the built module in Chromium, in both
// orders. The resource must be listed, read, and pushed once per real change.
func TestReadmeAsAGoDeveloper(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go app and drives Chromium")
	}
	root := browsertest.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "dist", "modelcontext.wasm")); err != nil {
		t.Fatal("dist/modelcontext.wasm not found: run make build (make test-goapi does)")
	}
	dir := t.TempDir()
	gomod := "module example.com/shop\n\ngo 1.26\n\nrequire github.com/modelcontext-go/modelcontext v0.0.0\n\nreplace github.com/modelcontext-go/modelcontext => " + root + "\n"
	for name, text := range map[string]string{"go.mod": gomod, "main.go": readmeBlock(t, "go", 0), "hook.go": hook} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	sh := readmeBlock(t, "sh", 1) // the build commands
	if !strings.Contains(sh, "GOOS=js GOARCH=wasm go build -o app.wasm .") || !strings.Contains(sh, `cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" .`) {
		t.Fatalf("README's build commands changed:\n%s", sh)
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", "app.wasm", "."}} {
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	wasmExec, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), wasmExec, 0o644); err != nil {
		t.Fatal(err)
	}

	html := readmeBlock(t, "html", 0)
	moduleTag := `<script src="/static/modelcontext.js"></script>` + "\n"
	if !strings.HasPrefix(html, moduleTag) {
		t.Fatalf("README's HTML no longer starts with the module's tag:\n%s", html)
	}
	pages := map[string]string{
		"module-first.html": html,
		"app-first.html":    strings.TrimPrefix(html, moduleTag) + moduleTag,
	}
	srv := browsertest.SharedServer(t)
	app := http.StripPrefix("/readme", http.FileServer(http.Dir(dir)))
	srv.Handle("/readme/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page, ok := pages[strings.TrimPrefix(r.URL.Path, "/readme/")]; ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><meta charset=utf-8>\n" + page))
			return
		}
		app.ServeHTTP(w, r)
	}))
	// The README's page loads /wasm_exec.js and /app.wasm from the root.
	srv.Handle("/wasm_exec.js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(wasmExec)
	}))
	srv.Handle("/app.wasm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(dir, "app.wasm"))
	}))

	for _, page := range []string{"module-first.html", "app-first.html"} {
		t.Run(strings.TrimSuffix(page, ".html"), func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Timeout = time.Minute
			tab.Navigate(srv.URL("/readme/" + page))
			var got struct {
				Listed    []map[string]any
				First     map[string]int
				Pushes    []map[string]int
				Read      map[string]int
				Unchanged int
			}
			// Wait for the app's registration (a resourcelistchanged, or
			// already listed), then drive the app like its UI would.
			tab.Eval(`(async () => {
			  const mc = document.modelContext;
			  await mc.ready;
			  const listed = () => mc.getResources().filter((r) => r.uri === "state://cart");
			  if (!listed().length) await new Promise((resolve) => mc.addEventListener("resourcelistchanged", () => listed().length && resolve()));
			  const first = await mc.readResource("state://cart");
			  const pushes = [];
			  mc.addEventListener("resourceupdated", (e) => e.detail.uri === "state://cart" && pushes.push(JSON.parse(JSON.stringify(e.detail.value))));
			  addToCart("MUG");
			  for (let i = 0; i < 5; i++) notifyUnchanged();
			  const unchanged = pushes.length;
			  addToCart("MUG");
			  addToCart("KETTLE");
			  notifyUnchanged();
			  return { listed: listed(), first, pushes, read: await mc.readResource("state://cart"), unchanged };
			})()`, &got)
			wantInfo := map[string]any{"uri": "state://cart", "name": "cart", "description": "What the visitor is about to buy", "mimeType": "application/json", "subscribable": true}
			if len(got.Listed) != 1 || !equalJSON(got.Listed[0], wantInfo) {
				t.Errorf("getResources() lists %v, want %v", got.Listed, wantInfo)
			}
			if len(got.First) != 0 {
				t.Errorf("first read = %v, want {}", got.First)
			}
			want := []map[string]int{{"MUG": 1}, {"MUG": 2}, {"KETTLE": 1, "MUG": 2}}
			if got.Unchanged != 1 || !equalJSON(got.Pushes, want) {
				t.Errorf("pushes = %v (%d after the 5 unchanged Notify calls), want %v (1)", got.Pushes, got.Unchanged, want)
			}
			if !equalJSON(got.Read, map[string]int{"KETTLE": 1, "MUG": 2}) {
				t.Errorf("read = %v", got.Read)
			}
			for _, l := range tab.Console() {
				if strings.HasPrefix(l, "uncaught:") || strings.HasPrefix(l, "console.error:") || strings.HasPrefix(l, "console.warning:") {
					t.Errorf("page reported: %s", l)
				}
			}
		})
	}
}

func equalJSON(a, b any) bool {
	x, err1 := appendJSON(nil, a)
	y, err2 := appendJSON(nil, b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
