// Package edgetest tests the Worker of wasm/cmd/edge the way Cloudflare runs
// it: under workerd, the open-source Workers runtime (testdata/edge pins it),
// started by the tests on a free port of 127.0.0.1 and stopped when they
// end. It needs make edge-build (the Worker's .wasm and its staged files) and
// the workerd of testdata/edge; make test-edge provides both.
package edgetest

import (
	"io"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/workerd"
)

func TestMain(m *testing.M) {
	code := browsertest.Main(m, nil)
	shared.mu.Lock()
	if shared.w != nil {
		shared.w.Stop()
	}
	shared.mu.Unlock()
	os.Exit(code)
}

// shared is the workerd of this test binary, started by the first test that
// needs it and stopped by TestMain.
var shared struct {
	mu  sync.Mutex
	w   *workerd.Worker
	err error
}

// startWorker returns the base URL of the Worker under workerd.
func startWorker(t *testing.T) string {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.w == nil && shared.err == nil {
		shared.w, shared.err = workerd.Start(browsertest.RepoRoot())
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.w.URL
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
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.w == nil {
		return "  (workerd not started)"
	}
	return shared.w.Log()
}
