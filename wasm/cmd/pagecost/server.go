package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"testing/fstest"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// Variants are the variants Lighthouse runs by default, the baseline first:
// each is testdata/pagecost/<name>.html.
var Variants = []string{"plain", "lazy", "eager", "mcpb"}

// AnswerVariants are the variants whose first answer is timed by default.
var AnswerVariants = []string{"lazy", "eager"}

// Extras are the other pages of testdata/pagecost, for -variants and
// -answer-variants: the other boot, a prefetch hint, and the .wasm under a
// hashed name.
var Extras = []string{"idle", "lazy-prefetch", "lazy-immutable"}

// HashedWasm is where lazy-immutable.html's data-wasm points: the same
// dist/modelcontext.wasm under a name of the content-hash form (a stand-in
// for a build's real hash; the bytes do not change while pagecost runs), so
// that wasm/serve sends it as immutable and a repeat visit does not
// revalidate it.
const HashedWasm = "/hashed/modelcontext.0000cafe.wasm"

// server serves the pages on 127.0.0.1.
type server struct {
	URL string // http://127.0.0.1:PORT, no trailing slash
	srv *http.Server
}

func (s *server) Close() { s.srv.Close() }

// handler lays the site out: testdata/pagecost at /, dist/ at /static/ and
// the MCP-B script at /vendor/mcpb-global.js, each through wasm/serve with
// its defaults (brotli and gzip copies, ETags, no-cache, its CSP).
func handler(root, mcpb string) (http.Handler, error) {
	dist := os.DirFS(filepath.Join(root, "dist"))
	if _, err := fs.Stat(dist, "modelcontext.js"); err != nil {
		return nil, fmt.Errorf("dist/modelcontext.js not found: run make build (make bench-page does): %w", err)
	}
	js, err := os.ReadFile(mcpb)
	if err != nil {
		return nil, fmt.Errorf("MCP-B's script: %w (run make mcpclient, which installs @mcp-b/global, or pass -mcpb)", err)
	}
	wasm, err := fs.ReadFile(dist, "modelcontext.wasm")
	if err != nil {
		return nil, fmt.Errorf("dist/modelcontext.wasm: %w (run make build)", err)
	}
	mux := http.NewServeMux()
	for _, m := range []struct {
		prefix string
		fsys   fs.FS
	}{
		{"/static/", dist},
		{"/vendor/", fstest.MapFS{"mcpb-global.js": {Data: js}}},
		{"/hashed/", fstest.MapFS{path.Base(HashedWasm): {Data: wasm}}},
		{"/", os.DirFS(filepath.Join(root, "testdata", "pagecost"))},
	} {
		h, err := serve.New(m.fsys, nil)
		if err != nil {
			return nil, err
		}
		if m.prefix == "/" {
			mux.Handle("/", h)
		} else {
			mux.Handle(m.prefix, http.StripPrefix(m.prefix[:len(m.prefix)-1], h))
		}
	}
	return mux, nil
}

func startServer(root, mcpb string) (*server, error) {
	h, err := handler(root, mcpb)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return &server{URL: "http://" + ln.Addr().String(), srv: srv}, nil
}

func writeJSON(name string, v any) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "pagecost: wrote %s\n", name)
	return os.WriteFile(name, append(b, '\n'), 0o644)
}
