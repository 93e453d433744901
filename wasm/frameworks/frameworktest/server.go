//go:build unix

package frameworktest

import (
	"bytes"
	"fmt"
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
