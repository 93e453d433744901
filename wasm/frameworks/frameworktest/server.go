//go:build unix

package frameworktest

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Output is what a server process printed, stdout and stderr.
type Output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// Start runs the command args (an app's server) in dir with HOST=127.0.0.1
// and PORT set to a free port, and env besides, and returns its origin
// once it accepts connections; the test's end stops it and its children
// (its own process group).
func Start(t testing.TB, dir string, env []string, args ...string) (origin string, out *Output) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOST=127.0.0.1", fmt.Sprintf("PORT=%d", port), "NO_COLOR=1", "FORCE_COLOR=0"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out = &Output{}
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
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for end := time.Now().Add(time.Minute); ; {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return "http://" + addr, out
		}
		select {
		case <-exited:
			t.Fatalf("%s exited without listening:\n%s", strings.Join(args, " "), out)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(end) {
			t.Fatalf("%s did not listen within a minute:\n%s", strings.Join(args, " "), out)
		}
	}
}

// Proxy serves origin's answers on a server of its own, each marked
// Cache-Control: no-store (so that every visit asks again, and the tab's
// request count sees each), with the routes of extra before it. It is
// closed at the test's end.
func Proxy(t testing.TB, origin string, extra map[string]http.Handler) string {
	t.Helper()
	u, err := url.Parse(origin)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(r *http.Response) error {
		r.Header.Set("Cache-Control", "no-store")
		r.Header.Del("ETag")
		r.Header.Del("Last-Modified")
		return nil
	}
	mux := http.NewServeMux()
	for p, h := range extra {
		mux.Handle(p, h)
	}
	mux.Handle("/", rp)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// WasmHandler serves b as application/wasm (the module's .wasm at
// LoaderWasm, for RedirectLoader).
func WasmHandler(b []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b)
	})
}

// CheckServerPage gets path from the server at url and fails t unless it
// answers 200 with each of want in the page (rendered on the server),
// printing what out (the server's output) holds. It returns the page.
func CheckServerPage(t testing.TB, url, path string, out *Output, want ...string) []byte {
	t.Helper()
	client := &http.Client{Timeout: 3 * time.Minute} // a development server compiles on the first request
	resp, err := client.Get(url + path)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range want {
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(s)) {
			t.Fatalf("GET %s: %s, want 200 with %s rendered on the server:\n%s\nthe server said:\n%s", path, resp.Status, s, body, out)
		}
	}
	return body
}

// NoServerErrors fails t when out (a server's output, if not nil) holds
// any of words, the ways that server reports an error.
func NoServerErrors(t testing.TB, out *Output, words ...string) {
	t.Helper()
	if out == nil {
		return
	}
	s := out.String()
	for _, w := range words {
		if strings.Contains(s, w) {
			t.Errorf("the server reported:\n%s", s)
			return
		}
	}
}
