package browsertest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Server is the test HTTP server on 127.0.0.1.
type Server struct {
	*httptest.Server
	// Root is the repository root it serves from.
	Root string
	mux  *http.ServeMux
}

// NewServer starts the server described in the package doc. routes, if not
// nil, may add handlers to its mux before it starts; more can be added later
// with Handle.
func NewServer(routes func(mux *http.ServeMux)) *Server {
	root := RepoRoot()
	mux := http.NewServeMux()
	mux.Handle("/static/", http.StripPrefix("/static/", http.FileServer(http.Dir(filepath.Join(root, "dist")))))
	mux.Handle("/teststatic/", http.StripPrefix("/teststatic/", testStatic(root)))
	mux.Handle("/reference/", http.StripPrefix("/reference/", http.FileServer(http.Dir(filepath.Join(root, "testdata", "reference")))))
	mux.Handle("/", pages(filepath.Join(root, "testdata", "pages")))
	if routes != nil {
		routes(mux)
	}
	s := &Server{Root: root, mux: mux}
	s.Server = httptest.NewServer(NoCache(mux))
	return s
}

// testStatic serves the test build's files from TestBuildDir, its .wasm
// included (the module with the exports only the test hooks call), and
// every other file from dist/.
func testStatic(root string) http.Handler {
	dist := http.FileServer(http.Dir(filepath.Join(root, "dist")))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if !slices.Contains(testBuildFiles, name) {
			dist.ServeHTTP(w, r)
			return
		}
		file := filepath.Join(root, filepath.FromSlash(TestBuildDir), name)
		if _, err := os.Stat(file); err != nil {
			http.Error(w, "browsertest: "+TestBuildDir+"/"+name+" is missing: run make build-test", http.StatusNotFound)
			return
		}
		http.ServeFile(w, r, file)
	})
}

// pages serves the test pages in dir; with TestBuildQuery in its query, an
// HTML page is served with its module URLs pointing at the test build.
func pages(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	key, value, _ := strings.Cut(TestBuildQuery, "=")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get(key) != value || !strings.HasSuffix(r.URL.Path, ".html") {
			files.ServeHTTP(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path))))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(bytes.ReplaceAll(b, []byte("/static/modelcontext."), []byte("/teststatic/modelcontext.")))
	})
}

// Handle adds a route; the pattern follows http.ServeMux (and, like it,
// panics if the pattern is already registered).
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// URL returns the absolute URL of path (which starts with "/") on the server.
func (s *Server) URL(path string) string { return s.Server.URL + path }

// NoCache wraps h so every response carries Cache-Control: no-store and
// .wasm / .js files get application/wasm / text/javascript. A handler that
// sets its own Content-Type afterwards wins.
func NoCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch {
		case strings.HasSuffix(r.URL.Path, ".wasm"):
			w.Header().Set("Content-Type", "application/wasm")
		case strings.HasSuffix(r.URL.Path, ".js"), strings.HasSuffix(r.URL.Path, ".mjs"):
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		h.ServeHTTP(w, r)
	})
}
