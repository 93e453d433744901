package e2e

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// goApp builds testdata/goapp (a page's own Go program) once per test binary.
var goApp = struct {
	once sync.Once
	path string
	err  error
}{}

func buildGoApp(t *testing.T) string {
	t.Helper()
	goApp.once.Do(func() {
		dir, err := os.MkdirTemp("", "goapp-")
		if err != nil {
			goApp.err = err
			return
		}
		goApp.path = filepath.Join(dir, "app.wasm")
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", goApp.path, "./testdata/goapp")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			goApp.err = err
			goApp.path = string(out)
		}
	})
	if goApp.err != nil {
		t.Fatalf("building testdata/goapp: %v\n%s", goApp.err, goApp.path)
	}
	return goApp.path
}

// TestTwoGoRuntimes: a page that runs its own Go program with Go's stock
// wasm_exec.js keeps working beside the module, whichever is loaded first, and
// the module leaves the page's globals as it found them.
func TestTwoGoRuntimes(t *testing.T) {
	requireImpl(t, "wasm")
	app := buildGoApp(t)
	srv := browsertest.SharedServer(t)
	registerOnce.Do(func() {
		srv.Handle("/goapp/app.wasm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, app)
		}))
		srv.Handle("/goapp/wasm_exec.js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
		}))
	})
	for _, order := range []string{"module-first", "app-first"} {
		for i := 0; i < 3; i++ {
			t.Run(order, func(t *testing.T) {
				tab := browsertest.NewTab(t)
				tab.Navigate(srv.URL("/two-go.html?order=" + order))
				var got struct {
					Said    string
					Value   struct{ N int }
					Globals []string
				}
				tab.Eval(`window.__twoGo`, &got)
				if got.Said != "hello from the page's Go app, 42" || got.Value.N != 7 {
					t.Errorf("%s: app said %q, module read %+v\n%s", order, got.Said, got.Value, tab.ConsoleText())
				}
				want := "function object object object" // the stock wasm_exec.js's globals, kept
				if g := strings.Join(got.Globals, " "); g != want {
					t.Errorf("%s: typeof Go, fs, process, path = %s, want %s", order, g, want)
				}
				for _, l := range tab.Console() {
					if strings.Contains(l, "not defined") || strings.Contains(l, "uncaught") {
						t.Errorf("%s: %s", order, l)
					}
				}
			})
		}
	}
}

var registerOnce sync.Once
