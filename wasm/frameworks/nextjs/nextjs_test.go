//go:build unix

package nextjs

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

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
	wasm := installedPackage(t)
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
			emitted := wasmFiles(t, filepath.Join(dir, b.distDir, "static"))
			if len(emitted) != 1 {
				t.Fatalf("%s/static holds %d .wasm files %v, want 1", b.distDir, len(emitted), emitted)
			}
			got, err := os.ReadFile(filepath.Join(dir, b.distDir, "static", emitted[0]))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, wasm) {
				t.Errorf("%s/static/%s is not the module's .wasm", b.distDir, emitted[0])
			}
			srv := startNext(t, b, "start")
			checkServerHTML(t, srv)
			checkPage(t, srv, 60*time.Second, "/_next/static/"+emitted[0])
		})
	}
}

// TestDev: `next dev` serves the page and it works as built, under React's
// StrictMode (which App Router turns on in development: effects run twice).
func TestDev(t *testing.T) {
	installedPackage(t)
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			srv := startNext(t, b, "dev")
			checkServerHTML(t, srv)
			checkPage(t, srv, 3*time.Minute, "")
		})
	}
}

// installedPackage checks that the app installed the tarball `make pack`
// wrote last (the files the app runs), or the one MODELCONTEXT_TARBALL
// names, and returns the tarball's .wasm.
func installedPackage(t *testing.T) []byte {
	t.Helper()
	root := browsertest.RepoRoot()
	var m struct{ Version string }
	b, err := os.ReadFile(filepath.Join(root, "js", "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	tarball := filepath.Join(root, "dist", "modelcontext-"+m.Version+".tgz")
	// A copy of it, where others repack dist/ while the app builds.
	if t := os.Getenv("MODELCONTEXT_TARBALL"); t != "" {
		tarball = t
	}
	f, err := os.Open(tarball)
	if err != nil {
		t.Fatalf("%v: run `make pack` first", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", tarball, err)
	}
	var wasm []byte
	r := tar.NewReader(z)
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", tarball, err)
		}
		name := strings.TrimPrefix(h.Name, "package/")
		if name != "modelcontext.mjs" && name != "modelcontext.wasm" && name != "package.json" {
			continue // what the app runs: Next resolves "modelcontext" with its "import" condition
		}
		want, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", tarball, err)
		}
		got, err := os.ReadFile(filepath.Join(appDir(), "node_modules", "modelcontext", name))
		if err != nil {
			t.Fatalf("%v: run `make test-next`, which installs the packed tarball into the app", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("node_modules/modelcontext/%s is not the one in %s: run `make test-next` to install the fresh tarball", name, tarball)
		}
		if name == "modelcontext.wasm" {
			wasm = want
		}
	}
	if wasm == nil {
		t.Fatalf("%s holds no modelcontext.wasm", tarball)
	}
	return wasm
}

// wasmFiles returns the .wasm files under dir, relative to it.
func wasmFiles(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".wasm") {
			rel, _ := filepath.Rel(dir, path)
			found = append(found, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v: run `make test-next`, which builds the app", err)
	}
	return found
}

// server is a running `next start` or `next dev`.
type server struct {
	url string
	out *syncBuffer // what it printed, stdout and stderr
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startNext runs `next <command>` for build b on a free port of 127.0.0.1 and
// returns once it answers HTTP; the test's end stops it and its children.
func startNext(t *testing.T, b build, command string) *server {
	t.Helper()
	dir := appDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	args := []string{command}
	if command == "dev" {
		args = append(args, b.flags...) // next start serves what the build wrote to distDir
	}
	args = append(args, "-H", "127.0.0.1", "-p", fmt.Sprint(port))
	cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "next"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NEXT_TELEMETRY_DISABLED=1", "NEXT_DIST_DIR="+b.distDir, "NO_COLOR=1", "FORCE_COLOR=0")
	// Its own process group, so that the workers next dev forks stop with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			conn.Close()
			return &server{url: url, out: out}
		}
		select {
		case <-exited:
			t.Fatalf("next %s exited without listening:\n%s", strings.Join(args, " "), out)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("next %s did not listen within 2 minutes:\n%s", strings.Join(args, " "), out)
		}
	}
}

// checkServerHTML: the server renders the page, the client component's
// button included, with status 200 (a module that touches document on the
// server makes it 500).
func checkServerHTML(t *testing.T, srv *server) {
	t.Helper()
	client := &http.Client{Timeout: 3 * time.Minute} // next dev compiles on the first request
	resp, err := client.Get(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("<button")) {
		t.Fatalf("GET %s: %s, want 200 with the server-rendered button; the server said:\n%s", srv.url, resp.Status, srv.out)
	}
}

// seen is what the app's agent panel (app/agent.tsx) shows.
type seen struct {
	Error  string
	List   []struct{ URI, Name string }
	Read   *float64
	Pushes []push
}

type push struct {
	URI   string
	Value float64
}

// checkPage loads the page in a fresh tab and checks what an agent in it
// sees: state://clicks and state://likes listed once each, state://clicks
// read as 0, then one resourceupdated per click, with the new count, both in
// the app's own panel and to a listener the test adds; and the .wasm
// fetched once (from wantWasm if given) as application/wasm. Neither the
// page nor the server reports an error.
func checkPage(t *testing.T, srv *server, timeout time.Duration, wantWasm string) {
	t.Helper()
	tab := browsertest.NewTab(t)
	tab.Timeout = timeout
	tab.Navigate(srv.url)
	// panel waits until the panel's state s meets cond, for up to within,
	// and returns it (as it is then, if it never does).
	panel := func(cond string, within time.Duration) seen {
		t.Helper()
		var s seen
		tab.Eval(fmt.Sprintf(`(async () => {
			const seen = () => JSON.parse(document.getElementById("agent")?.textContent || "{}");
			const end = performance.now() + %d;
			for (let s = seen(); ; s = seen()) {
				if (s.error || (%s) || performance.now() > end) return s;
				await new Promise((r) => setTimeout(r, 20));
			}
		})()`, within.Milliseconds(), cond), &s)
		if s.Error != "" {
			t.Fatalf("the agent panel shows an error: %s\n%s\n%s", s.Error, tab.ConsoleText(), srv.out)
		}
		return s
	}
	s := panel(`s.list && "read" in s`, timeout-5*time.Second)
	if fmt.Sprint(s.List) != "[{state://clicks clicks} {state://likes likes}]" {
		t.Errorf("getResources() = %+v, want state://clicks (clicks) and state://likes (likes), once each", s.List)
	}
	if s.Read == nil || *s.Read != 0 {
		t.Errorf("readResource(\"state://clicks\") = %v, want 0", s.Read)
	}
	tab.Eval(`window.testPushes = [];
		document.modelContext.addEventListener("resourceupdated", (e) => testPushes.push(e.detail)); true`, nil)
	// Three clicks on the guide's component, then two on the one with
	// useResource (app/likes.tsx).
	var want []push
	for i, button := range []string{"main button", "main button", "main button", "#like", "#like"} {
		tab.Eval(fmt.Sprintf(`document.querySelector(%q).click(); true`, button), nil)
		p := push{URI: "state://clicks", Value: float64(i + 1)}
		if button == "#like" {
			p = push{URI: "state://likes", Value: float64(i - 2)}
		}
		want = append(want, p)
		n := len(want)
		s = panel(fmt.Sprintf(`s.pushes.length >= %d && testPushes.length >= %d`, n, n), 15*time.Second)
		var mine []push
		tab.Eval(`testPushes`, &mine)
		if fmt.Sprint(s.Pushes) != fmt.Sprint(want) || fmt.Sprint(mine) != fmt.Sprint(want) {
			t.Fatalf("after %d clicks the app saw the pushes %v and the test's listener %v, want %v", n, s.Pushes, mine, want)
		}
	}
	var read float64
	tab.Eval(`document.modelContext.readResource("state://clicks")`, &read)
	if read != 3 {
		t.Errorf(`readResource("state://clicks") after 3 clicks = %v, want 3`, read)
	}
	var got struct {
		Fetched []string
		Type    string
		Magic   []int
	}
	tab.Eval(`(async () => {
		const fetched = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm"));
		if (fetched.length !== 1) return { fetched };
		const response = await fetch(fetched[0]);
		const magic = [...new Uint8Array(await response.arrayBuffer()).slice(0, 4)];
		return { fetched, type: response.headers.get("content-type"), magic };
	})()`, &got)
	if len(got.Fetched) != 1 {
		t.Fatalf("the page fetched %d .wasm files %q, want 1", len(got.Fetched), got.Fetched)
	}
	t.Logf("the page fetched %s", got.Fetched[0])
	if wantWasm != "" && got.Fetched[0] != wantWasm {
		t.Errorf("the page fetched %s, want the build's %s", got.Fetched[0], wantWasm)
	}
	if got.Type != "application/wasm" || fmt.Sprint(got.Magic) != "[0 97 115 109]" {
		t.Errorf("%s: Content-Type %q, first bytes %v; want application/wasm and [0 97 115 109]", got.Fetched[0], got.Type, got.Magic)
	}
	for _, line := range tab.Console() {
		if strings.HasPrefix(line, "console.error") || strings.HasPrefix(line, "uncaught") {
			t.Errorf("the page logged %s", line)
		}
	}
	if out := srv.out.String(); strings.Contains(out, "⨯") || strings.Contains(out, "Error") {
		t.Errorf("the server reported an error:\n%s", out)
	}
}
