// Package edgetest tests the Worker of wasm/cmd/edge the way Cloudflare runs
// it: under workerd, the open-source Workers runtime (testdata/edge pins it),
// started by the tests on a free port of 127.0.0.1 and stopped when they
// end. It needs make edge-build (the Worker's .wasm and its staged files) and
// the workerd of testdata/edge; make test-edge provides both.
package edgetest

import (
	"bytes"
	"fmt"
	"io"
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
)

func TestMain(m *testing.M) {
	code := browsertest.Main(m, nil)
	worker.stop()
	os.Exit(code)
}

// workerProc is the workerd process shared by the tests of this binary.
type workerProc struct {
	once sync.Once
	base string // http://127.0.0.1:<port>/
	err  error
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan error // cmd.Wait's result
}

var worker workerProc

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// workerdPath is $WORKERD, else the binary testdata/edge installs (the
// binary itself, not npm's Node wrapper, so that it gets the listener and
// the signal that stops it).
func workerdPath(root string) string {
	if p := os.Getenv("WORKERD"); p != "" {
		return p
	}
	found, _ := filepath.Glob(filepath.Join(root, "testdata", "edge", "node_modules", "@cloudflare", "workerd-*", "bin", "workerd"))
	if len(found) == 1 {
		return found[0]
	}
	return filepath.Join(root, "testdata", "edge", "node_modules", "@cloudflare", "workerd-<platform>", "bin", "workerd")
}

// startWorker runs `workerd serve workerd.capnp` in wasm/cmd/edge on a
// listener this process opened (so the port is known before workerd starts
// and no other program can take it) and returns its base URL. The first
// test to call it starts workerd; TestMain stops it.
func startWorker(t *testing.T) string {
	t.Helper()
	worker.once.Do(func() {
		root := browsertest.RepoRoot()
		dir := filepath.Join(root, "wasm", "cmd", "edge")
		for _, f := range []string{"build/app.wasm", "build/wasm_exec.js", "site/public/static/modelcontext.wasm"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				worker.err = fmt.Errorf("wasm/cmd/edge/%s not found: run make edge-build first (make test-edge does)", f)
				return
			}
		}
		bin := workerdPath(root)
		if _, err := os.Stat(bin); err != nil {
			worker.err = fmt.Errorf("workerd not found at %s: run make test-edge, which installs it (npm ci in testdata/edge)", bin)
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			worker.err = err
			return
		}
		file, err := ln.(*net.TCPListener).File()
		if err != nil {
			ln.Close()
			worker.err = err
			return
		}
		worker.out = &lockedBuffer{}
		cmd := exec.Command(bin, "serve", "workerd.capnp", "--socket-fd", "http=3")
		cmd.Dir = dir
		cmd.ExtraFiles = []*os.File{file}
		cmd.Stdout, cmd.Stderr = worker.out, worker.out
		err = cmd.Start()
		file.Close()
		worker.base = "http://" + ln.Addr().String() + "/"
		ln.Close() // workerd holds its own copy of the socket
		if err != nil {
			worker.err = fmt.Errorf("starting workerd: %w", err)
			return
		}
		worker.cmd = cmd
		worker.done = make(chan error, 1)
		go func() { worker.done <- cmd.Wait() }()
	})
	if worker.err != nil {
		t.Fatal(worker.err)
	}
	return worker.base
}

// stop ends workerd, if it was started: SIGTERM, then SIGKILL if it has
// not exited within 10 s.
func (w *workerProc) stop() {
	if w.cmd == nil {
		return
	}
	w.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.done:
	case <-time.After(10 * time.Second):
		w.cmd.Process.Kill()
		<-w.done
	}
	w.cmd = nil
}

// fetch sends one request to the Worker. The machine may be loaded and each
// request starts a Go instance, so the timeout is generous.
func fetch(t *testing.T, method, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{Timeout: 90 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", method, url, err, workerLog())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return resp, body
}

func workerLog() string {
	if worker.out == nil {
		return "  (workerd not started)"
	}
	s := strings.TrimSpace(worker.out.String())
	if s == "" {
		return "  (workerd printed nothing)"
	}
	return "  workerd printed:\n" + s
}
