//go:build unix

package nextjs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/docs"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m, nil)) }

// build is one of the app's two production builds, which `make test-next`
// writes side by side (the app's next.config.ts reads NEXT_DIST_DIR).
type build struct {
	name    string // also the suffix of its log, build-<name>.log
	distDir string
	flags   []string // of next build and next dev
}

var builds = []build{
	{name: "turbopack", distDir: ".next"},
	{name: "webpack", distDir: ".next-webpack", flags: []string{"--webpack"}},
}

func appDir() string {
	return filepath.Join(browsertest.RepoRoot(), "testdata", "frameworks", "next")
}

// TestREADMEExample: the app's client component is the guide's Next.js
// example, byte for byte, so the example is what the other tests build.
func TestREADMEExample(t *testing.T) {
	block := docs.Example(t, "next-client", "tsx")
	file := filepath.Join(appDir(), "app", "clicks.tsx")
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != block.Text {
		t.Errorf("%s is not %s's next-client example (line %d); copy the block into it (or the other way round)", file, block.File, block.Line)
	}
}

// TestBuild: each production build prerendered the page with no error (the
// client component is rendered on the server, where there is no document),
// emitted the module's .wasm, and works under `next start`.
func TestBuild(t *testing.T) {
	wasm := frameworktest.InstalledPackage(t, appDir())
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			dir := appDir()
			log, err := os.ReadFile(filepath.Join(dir, "build-"+b.name+".log"))
			if err != nil {
				t.Fatalf("%v: run `make test-next`, which builds the app", err)
			}
			if !bytes.Contains(log, []byte("Generating static pages")) {
				t.Fatalf("build-%s.log shows no prerendering:\n%s", b.name, log)
			}
			var said []string
			for _, bad := range []string{"is not defined", "Error", "modelcontext:", "⨯"} {
				if bytes.Contains(log, []byte(bad)) {
					said = append(said, bad)
				}
			}
			if said != nil {
				t.Errorf("build-%s.log says %q:\n%s", b.name, said, log)
			}
			emitted := frameworktest.BuiltWasm(t, filepath.Join(dir, b.distDir, "static"), wasm, buildHint)
			url, out := startNext(t, b, "start")
			checkServerHTML(t, url, out)
			checkPage(t, url, out, 60*time.Second, "/_next/static/"+emitted)
		})
	}
}

// TestDev: `next dev` serves the page and it works as built, under React's
// StrictMode (which App Router turns on in development: effects run twice).
func TestDev(t *testing.T) {
	frameworktest.InstalledPackage(t, appDir())
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			url, out := startNext(t, b, "dev")
			checkServerHTML(t, url, out)
			checkPage(t, url, out, 3*time.Minute, "")
		})
	}
}

// buildHint says what builds the app's dist directories.
const buildHint = "run `make test-next`, which builds the app"

// startNext runs `next <command>` for build b on a free port of 127.0.0.1
// and returns its origin once it listens; the test's end stops it and the
// workers next dev forks.
func startNext(t *testing.T, b build, command string) (string, *frameworktest.Output) {
	t.Helper()
	args := []string{command}
	if command == "dev" {
		args = append(args, b.flags...) // next start serves what the build wrote to distDir
	}
	next := filepath.Join(appDir(), "node_modules", ".bin", "next")
	sh := []string{"/bin/sh", "-c", `exec "$0" "$@" -H 127.0.0.1 -p "$PORT"`, next}
	return frameworktest.Start(t, appDir(), []string{"NEXT_TELEMETRY_DISABLED=1", "NEXT_DIST_DIR=" + b.distDir}, append(sh, args...)...)
}

// checkServerHTML: the server renders the page, the client component's
// button included, with status 200 (a module that touches document on the
// server makes it 500).
func checkServerHTML(t *testing.T, url string, out *frameworktest.Output) {
	t.Helper()
	frameworktest.CheckServerPage(t, url, "/", out, "<button")
}

// checkPage loads the page in a fresh tab and checks what an agent in it
// sees: state://clicks and state://likes listed once each, state://clicks
// read as 0, then one resourceupdated per click (three on the guide's
// component, then two on the one with useResource, app/likes.tsx), with
// the new count, both in the app's own panel (app/agent.tsx) and to a
// listener the test adds; and the .wasm fetched once (from wantWasm if
// given) as application/wasm. Neither the page nor the server reports an
// error.
func checkPage(t *testing.T, url string, out *frameworktest.Output, timeout time.Duration, wantWasm string) {
	t.Helper()
	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	tab.Navigate(url + "/")
	frameworktest.CheckAgent(t, tab, frameworktest.Agent{
		Listed: []string{"state://clicks clicks", "state://likes likes"},
		URI:    "state://clicks", Read: "0", Final: "3",
		Steps: []frameworktest.Step{
			{Click: "main button", Push: "state://clicks 1"},
			{Click: "main button", Push: "state://clicks 2"},
			{Click: "main button", Push: "state://clicks 3"},
			{Click: "#like", Push: "state://likes 1"},
			{Click: "#like", Push: "state://likes 2"},
		},
	}, timeout-5*time.Second, out)
	frameworktest.CheckWasmFetched(t, tab, wantWasm)
	frameworktest.NoErrors(t, tab, "console.error", "uncaught") // warnings are Next's to give
	frameworktest.NoServerErrors(t, out, "⨯", "Error")
}
