package bundlers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

// app is one sample app in testdata/bundlers.
type app struct {
	name string
	// site is the folder served as the site's root, relative to the app:
	// Vite's and Parcel's build output holds its index.html; the other
	// apps' index.html loads the bundle from dist/.
	site string
	// out is the build output, relative to the app; the .wasm must be in it.
	out string
	// bare is the build of src/bare.js, a side-effect import and nothing else.
	bare string
}

var apps = []app{
	{name: "vite", site: "dist", out: "dist", bare: "dist-bare"},
	{name: "webpack", site: ".", out: "dist", bare: "dist-bare"},
	{name: "esbuild", site: ".", out: "dist", bare: "dist-bare"},
	{name: "rollup", site: ".", out: "dist", bare: "dist-bare"},
	{name: "parcel", site: "dist", out: "dist", bare: "dist-bare"},
}

func appDir(name string) string {
	return filepath.Join(browsertest.RepoRoot(), "testdata", "bundlers", name)
}

// installedPackage checks that the app installed the package `make pack` just
// wrote (the same module and .wasm as dist/), and returns the .wasm's bytes.
func installedPackage(t *testing.T, dir string) []byte {
	t.Helper()
	dist := filepath.Join(browsertest.RepoRoot(), "dist")
	var wasm []byte
	for _, name := range []string{"modelcontext.mjs", "modelcontext.wasm"} {
		built, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatalf("%v: run `make pack` first", err)
		}
		installed, err := os.ReadFile(filepath.Join(dir, "node_modules", "modelcontext", name))
		if err != nil {
			t.Fatalf("%v: run `make test-package`, which installs the packed tarball into each app", err)
		}
		if !bytes.Equal(built, installed) {
			t.Fatalf("node_modules/modelcontext/%s is not the file in dist/: run `make test-package` to install the fresh tarball", name)
		}
		wasm = built
	}
	return wasm
}

// buildHint says what builds each app's output.
const buildHint = "run `make test-package`, which builds each app"

// TestBundlers: each app, built for production, works in Chromium: the
// named imports work, ready resolves, a push reaches subscribeResource and
// resourceupdated, and the .wasm it loads is the module's own, emitted into
// the build output and served as application/wasm.
func TestBundlers(t *testing.T) {
	for _, a := range apps {
		t.Run(a.name, func(t *testing.T) {
			checkBuild(t, appDir(a.name), a.out, a.site, "")
		})
	}
}

// checkBuild checks that the build output out of the app in dir holds one
// .wasm, the module's own, then serves site and runs the app's page in it
// (page, or the site's index).
func checkBuild(t *testing.T, dir, out, site, page string) {
	t.Helper()
	module := installedPackage(t, dir)
	outDir := filepath.Join(dir, out)
	emitted := frameworktest.BuiltWasm(t, outDir, module, buildHint)
	siteDir := filepath.Join(dir, site)
	rel, err := filepath.Rel(siteDir, filepath.Join(outDir, emitted))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(browsertest.NoCache(http.FileServer(http.Dir(siteDir))))
	t.Cleanup(srv.Close)
	checkApp(t, srv.URL+"/"+page, "/"+filepath.ToSlash(rel))
}

// TestEsbuildClassicScript: the esbuild app bundled as a classic script (an
// IIFE, esbuild's default format for the browser, in dist-iife/) and loaded
// with a plain script tag works: esbuild empties import.meta there, and the
// module finds its .wasm beside the script that is running instead.
func TestEsbuildClassicScript(t *testing.T) {
	dir := appDir("esbuild")
	bundle, err := os.ReadFile(filepath.Join(dir, "dist-iife", "main.js"))
	if err != nil {
		t.Fatalf("%v: run `make test-package`, which builds dist-iife", err)
	}
	if bytes.Contains(bundle, []byte("import.meta")) {
		t.Fatalf("dist-iife/main.js still uses import.meta: it is not the classic script this test is about")
	}
	checkBuild(t, dir, "dist-iife", ".", "index-iife.html")
}

// TestViteDevServer: a user's first `npm run dev` works: the Vite dev server
// serves the app, the .wasm is found and served as application/wasm, and a
// push arrives.
func TestViteDevServer(t *testing.T) {
	checkApp(t, startVite(t), "")
}

// TestVitePreview: `vite preview` serves the production build with the .wasm
// Vite emitted (not index.html in its place) as application/wasm.
func TestVitePreview(t *testing.T) {
	emitted := frameworktest.BuiltWasm(t, filepath.Join(appDir("vite"), "dist"), nil, buildHint)
	checkApp(t, startVite(t, "preview"), "/"+emitted)
}

// startVite runs the app's vite (with args, e.g. "preview") on a free port of
// 127.0.0.1 and returns its URL once it listens; the test's end stops it.
func startVite(t *testing.T, args ...string) string {
	t.Helper()
	dir := appDir("vite")
	installedPackage(t, dir)
	// Vite takes a port, not a listener: find a free one.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	args = append(args, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--strictPort")
	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "vite"), args...)
	cmd.Dir = dir
	// Vite colours its output when it thinks a terminal is watching (CI
	// machines often say so); the URL is built from the port, not read back.
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// Vite prints "Local:   http://127.0.0.1:<port>/" once it listens; the
	// line may carry colour codes, so only its presence counts.
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "127.0.0.1") {
				select {
				case url <- fmt.Sprintf("http://127.0.0.1:%d/", port):
				default:
				}
			}
		}
		close(url)
		io.Copy(io.Discard, stdout)
	}()
	select {
	case u, ok := <-url:
		if !ok {
			t.Fatalf("vite %q exited without listening:\n%s", args, stderr.Bytes())
		}
		return u
	case <-time.After(2 * time.Minute):
		t.Fatalf("vite %q did not print its URL within 2 minutes:\n%s", args, stderr.Bytes())
	}
	return ""
}

// checkApp loads the app at url in a fresh tab, waits for what it shows, clicks
// its button once more, and checks the .wasm the page fetched: once, at
// wasmPath if given, served as application/wasm with WebAssembly's magic
// number.
func checkApp(t *testing.T, url, wasmPath string) {
	t.Helper()
	tab := browsertest.NewTab(t)
	tab.Timeout = 90 * time.Second
	tab.Navigate(url)
	shown := func(want ...string) []string {
		t.Helper()
		var lines []string
		tab.Eval(fmt.Sprintf(`(async () => {
			const want = %s;
			const lines = () => [...document.querySelectorAll("#log li")].map((li) => li.textContent);
			while (!want.every((w) => lines().includes(w)) && !lines().some((l) => l.startsWith("failed"))) {
				await new Promise((r) => setTimeout(r, 20));
			}
			return lines();
		})()`, jsStrings(want)), &lines)
		for _, w := range want {
			if !slices.Contains(lines, w) {
				t.Fatalf("the page shows %q, want %q\n%s", lines, want, tab.ConsoleText())
			}
		}
		return lines
	}
	// On ready the app reads the resource and clicks its button: one push.
	shown(`ready, read {"clicks":0}`, "subscribeResource 1", "resourceupdated state://clicks 1")
	tab.Eval(`document.getElementById("click").click()`, nil)
	lines := shown("subscribeResource 2", "resourceupdated state://clicks 2")
	if len(lines) != 5 {
		t.Errorf("the page shows %q, want each push once", lines)
	}
	frameworktest.CheckWasmFetched(t, tab, wasmPath)
	frameworktest.NoErrors(t, tab)
}

func jsStrings(s []string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestSideEffectImportKept: `import "modelcontext"` alone survives each
// bundler's production build (package.json's "sideEffects"): the bundle of
// src/bare.js holds the module, whose messages all start with
// "modelcontext: ", which bare.js itself never writes.
func TestSideEffectImportKept(t *testing.T) {
	for _, a := range apps {
		t.Run(a.name, func(t *testing.T) {
			dir := appDir(a.name)
			installedPackage(t, dir)
			src, err := os.ReadFile(filepath.Join(dir, "src", "bare.js"))
			if err != nil {
				t.Fatal(err)
			}
			const marker = "modelcontext: "
			if bytes.Contains(src, []byte(marker)) {
				t.Fatalf("src/bare.js contains %q, so the check proves nothing", marker)
			}
			var bundles, kept []string
			root := filepath.Join(dir, a.bare)
			err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
					return err
				}
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				bundles = append(bundles, path)
				if bytes.Contains(b, []byte(marker)) {
					kept = append(kept, path)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%v: run `make test-package`, which builds src/bare.js", err)
			}
			if len(bundles) == 0 || len(kept) == 0 {
				t.Errorf("the build of src/bare.js (%v) dropped the module: a side-effect import did not survive tree shaking", bundles)
			}
		})
	}
}
