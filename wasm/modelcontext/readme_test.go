//go:build !(js && wasm)

package modelcontext

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
// Notify without a change. (The README's app exposes addToCart itself.)
const hook = `//go:build js && wasm

package main

import "syscall/js"

func init() {
	js.Global().Set("notifyUnchanged", js.FuncOf(func(js.Value, []js.Value) any { changed.Notify(); return nil }))
}
`

// sh runs a block of the README's shell commands with bash in dir, after
// replacing each placeholder (which must occur) by its value.
func sh(t *testing.T, dir, block string, env []string, replace ...string) {
	t.Helper()
	for i := 0; i < len(replace); i += 2 {
		if !strings.Contains(block, replace[i]) {
			t.Fatalf("README's commands no longer hold %q:\n%s", replace[i], block)
		}
		block = strings.ReplaceAll(block, replace[i], replace[i+1])
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", block)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README's commands failed: %v\n%s\n%s", err, block, out)
	}
}

// TestReadmeAsAGoDeveloper does what README.md says, in a fresh folder:
// its setup commands (make build, a new module in a new folder, a replace
// pointing at this checkout), the example saved as main.go, console_js.go,
// main_test.go and follow_test.go, its build commands (go mod tidy, GOOS=js GOARCH=wasm go
// build, wasm_exec.js), its test command (go test, on the host, on
// modelcontexttest's page) and its copy of the module into static/; then it
// serves the folder as the README's python3 -m http.server would (Go's file
// server, which also sends .wasm as application/wasm) and loads the
// README's HTML in Chromium, in both orders. The README's console lines
// must print what their comments say, the resource must be listed, read
// (its GetContext takes 50 ms), and pushed once per real change, and the
// app must have read it back and followed it.
func TestReadmeAsAGoDeveloper(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go app and drives Chromium")
	}
	root := browsertest.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "dist", "modelcontext.wasm")); err != nil {
		t.Fatal("dist/modelcontext.wasm not found: run make build (make test-goapi does)")
	}
	// The go on PATH for the README's commands is the one running the test;
	// MC is the checkout, as the first block sets it for the later ones (one
	// terminal session).
	env := []string{"PATH=" + filepath.Join(runtime.GOROOT(), "bin") + string(os.PathListSeparator) + os.Getenv("PATH"), "MC=" + root}
	dir := filepath.Join(t.TempDir(), "shop")
	sh(t, root, readmeBlock(t, "sh", 0), env, "~/shop", dir)
	files := map[string]string{"main.go": readmeBlock(t, "go", 0), "console_js.go": readmeBlock(t, "go", 1), "main_test.go": readmeBlock(t, "go", 2),
		"follow_test.go": readmeBlock(t, "go", 3), "hook.go": hook}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh(t, dir, readmeBlock(t, "sh", 1), env)
	if test := readmeBlock(t, "sh", 3); !strings.HasPrefix(test, "go test ./...") {
		t.Fatalf("README's test command changed:\n%s", test)
	}
	sh(t, dir, readmeBlock(t, "sh", 3), env)
	serve := readmeBlock(t, "sh", 2)
	copyLine, serveLine, _ := strings.Cut(serve, "\n")
	if !strings.HasPrefix(serveLine, "python3 -m http.server 8000 --bind 127.0.0.1") {
		t.Fatalf("README's serving commands changed:\n%s", serve)
	}
	sh(t, dir, copyLine, env)
	for _, f := range []string{"app.wasm", "wasm_exec.js", "static/modelcontext.js", "static/modelcontext-runtime.js", "static/modelcontext.wasm"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("after the README's commands: %v", err)
		}
	}

	html := readmeBlock(t, "html", 0)
	moduleTag := `<script src="/static/modelcontext.js"></script>` + "\n"
	if !strings.HasPrefix(html, moduleTag) {
		t.Fatalf("README's HTML no longer starts with the module's tag:\n%s", html)
	}
	pages := map[string]string{
		"index.html":     html,
		"app-first.html": strings.TrimPrefix(html, moduleTag) + moduleTag,
	}
	for name, page := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)

	// The README's console lines: each an expression, its comment (if any)
	// what it prints.
	type step struct {
		Expr string `json:"expr"`
		Want string `json:"want"`
	}
	var console []step
	for _, line := range strings.Split(strings.TrimSpace(readmeBlock(t, "js", 0)), "\n") {
		expr, want, _ := strings.Cut(line, " // ")
		console = append(console, step{strings.TrimSpace(expr), strings.TrimSpace(want)})
	}
	steps, err := json.Marshal(console)
	if err != nil {
		t.Fatal(err)
	}

	for _, page := range []string{"index.html", "app-first.html"} {
		t.Run(strings.TrimSuffix(page, ".html"), func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Timeout = time.Minute
			tab.Navigate(srv.URL + "/" + page)
			type cart struct{ Items map[string]int }
			var got struct {
				Console   []string
				Listed    []map[string]any
				Pushes    []cart
				Read      cart
				Unchanged int
			}
			// Wait for the app's registration (a resourcelistchanged, or
			// already listed), type the README's console lines, then drive
			// the app like its UI would, waiting for each push (its
			// GetContext takes 50 ms).
			tab.Eval(`(async (steps) => {
			  const mc = document.modelContext;
			  await mc.ready;
			  const listed = () => mc.getResources().filter((r) => r.uri === "state://cart");
			  if (!listed().length) await new Promise((resolve) => mc.addEventListener("resourcelistchanged", () => listed().length && resolve()));
			  const lines = [];
			  for (const { expr, want } of steps) {
			    const value = await (0, eval)(expr.replace(/^await /, ""));
			    if (want === "") continue;
			    const got = JSON.stringify(value), wanted = JSON.stringify((0, eval)("(" + want + ")"));
			    if (got !== wanted) lines.push(expr + " printed " + got + ", not " + wanted);
			  }
			  const pushes = [];
			  mc.addEventListener("resourceupdated", (e) => e.detail.uri === "state://cart" && pushes.push(JSON.parse(JSON.stringify(e.detail.value))));
			  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
			  const pushed = async (n) => { while (pushes.length < n) await sleep(10); };
			  for (let i = 0; i < 5; i++) notifyUnchanged();
			  await sleep(300);
			  const unchanged = pushes.length;
			  addToCart("MUG");
			  await pushed(1);
			  addToCart("KETTLE");
			  await pushed(2);
			  notifyUnchanged();
			  await sleep(300);
			  return { console: lines, listed: listed(), pushes, read: await mc.readResource("state://cart"), unchanged };
			})(`+string(steps)+`)`, &got)
			for _, c := range got.Console {
				t.Errorf("README's console line: %s", c)
			}
			wantInfo := map[string]any{"uri": "state://cart", "name": "cart", "description": "What the visitor is about to buy", "mimeType": "application/json", "subscribable": true}
			if len(got.Listed) != 1 || !equalJSON(got.Listed[0], wantInfo) {
				t.Errorf("getResources() lists %v, want %v", got.Listed, wantInfo)
			}
			want := []cart{{map[string]int{"MUG": 2}}, {map[string]int{"KETTLE": 1, "MUG": 2}}}
			if got.Unchanged != 0 || !equalJSON(got.Pushes, want) {
				t.Errorf("pushes = %v (%d after the 5 unchanged Notify calls), want %v (0)", got.Pushes, got.Unchanged, want)
			}
			if !equalJSON(got.Read, want[1]) {
				t.Errorf("read = %v", got.Read)
			}
			// The app read its own resource back, and followed it.
			printed := tab.ConsoleText()
			for _, line := range []string{"read the cart: 0 lines true", "the cart changed: 1 lines true", "the cart changed: 2 lines true"} {
				if !strings.Contains(printed, line) {
					t.Errorf("the app did not print %q; the console:\n%s", line, printed)
				}
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
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
