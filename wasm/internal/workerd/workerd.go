// Package workerd runs the Worker of wasm/cmd/edge under workerd, the
// open-source Cloudflare Workers runtime that testdata/edge pins, for the
// tests (wasm/edgetest) and the visit bench (wasm/cmd/visit).
//
//	w, err := workerd.Start(root) // after make edge-build and make test-edge's npm ci
//	defer w.Stop()
//	http.Get(w.URL + "static/modelcontext.wasm")
//
// Start opens a listener on a free port of 127.0.0.1 itself and hands it to
// workerd (--socket-fd), so the port is known before workerd starts and
// nothing else can take it; requests made before workerd is ready wait in the
// listener's queue. The Worker has no network access (wasm/cmd/edge's
// workerd.capnp).
package workerd

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Worker is one running workerd.
type Worker struct {
	// URL is the Worker's base URL, http://127.0.0.1:<port>/.
	URL string

	cmd  *exec.Cmd
	out  *buffer
	done chan error
	once sync.Once
}

type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Binary is $WORKERD, else the binary that npm ci in testdata/edge installs
// (the binary itself, not npm's Node wrapper, so that it gets the listener
// and the signal that stops it).
func Binary(root string) (string, error) {
	if p := os.Getenv("WORKERD"); p != "" {
		return p, nil
	}
	found, _ := filepath.Glob(filepath.Join(root, "testdata", "edge", "node_modules", "@cloudflare", "workerd-*", "bin", "workerd"))
	if len(found) != 1 {
		return "", fmt.Errorf("modelcontext: workerd not found under testdata/edge/node_modules: run make test-edge, which installs it (npm ci in testdata/edge), or set $WORKERD")
	}
	return found[0], nil
}

// Start runs `workerd serve workerd.capnp` in <root>/wasm/cmd/edge. It fails
// if make edge-build has not run.
func Start(root string) (*Worker, error) {
	dir := filepath.Join(root, "wasm", "cmd", "edge")
	for _, f := range []string{"build/app.wasm", "build/wasm_exec.js", "site/public/static/modelcontext.wasm"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, fmt.Errorf("modelcontext: wasm/cmd/edge/%s not found: run make edge-build first", f)
		}
	}
	bin, err := Binary(root)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close() // workerd holds its own copy of the socket
	file, err := ln.(*net.TCPListener).File()
	if err != nil {
		return nil, err
	}
	defer file.Close()
	w := &Worker{URL: "http://" + ln.Addr().String() + "/", out: &buffer{}, done: make(chan error, 1)}
	w.cmd = exec.Command(bin, "serve", "workerd.capnp", "--socket-fd", "http=3")
	w.cmd.Dir = dir
	w.cmd.ExtraFiles = []*os.File{file}
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
	if err := w.cmd.Start(); err != nil {
		return nil, fmt.Errorf("modelcontext: starting workerd: %w", err)
	}
	go func() { w.done <- w.cmd.Wait() }()
	return w, nil
}

// Log returns what workerd printed so far, indented for a failure message.
func (w *Worker) Log() string {
	s := strings.TrimSpace(w.out.String())
	if s == "" {
		return "  (workerd printed nothing)"
	}
	return "  workerd printed:\n    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// Stop ends workerd: SIGTERM, then SIGKILL if it has not exited within 10 s.
// It may be called more than once.
func (w *Worker) Stop() {
	w.once.Do(func() {
		w.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			w.cmd.Process.Kill()
			<-w.done
		}
	})
}
