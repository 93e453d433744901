package main

import (
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// shutdownGrace bounds how long run waits for open requests when it stops.
const shutdownGrace = 5 * time.Second

// run parses args (without the program name), serves until ctx is done, and
// then shuts the server down. It writes "demo: <url>" to stdout once the
// listener is open, so a caller that passes -addr 127.0.0.1:0 can read the port.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	addr := fl.String("addr", "127.0.0.1:8080", "`host:port` to listen on")
	demoDir := fl.String("demo", "demo", "`folder` served at /")
	distDir := fl.String("dist", "dist", "`folder` served at /static/ (make build output)")
	vendorDir := fl.String("vendor", "", "`folder` holding mcpclient.js (make mcpclient output, testdata/out), served at /vendor/mcpclient.js for the panel's MCP tab; off when empty")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fl.SetOutput(stdout)
			fmt.Fprintln(stdout, "usage: serve [-addr host:port] [-demo folder] [-dist folder] [-vendor folder]")
			fl.PrintDefaults()
			return nil
		}
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}

	h, err := newHandler(*demoDir, *distDir, *vendorDir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "demo: http://%s/\n", displayAddr(ln.Addr()))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// displayAddr turns a listener address into something a browser can open:
// an unspecified host (":8080", "0.0.0.0:8080") becomes 127.0.0.1.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// vendorFiles are the files of the -vendor folder the demo loads: only
// these are served from it (testdata/out also holds test output).
var vendorFiles = []string{"mcpclient.js"}

// newHandler serves demoDir at / (with index.html for the page's client-side
// routes such as /cart), distDir at /static/ and, when vendorDir is not
// empty, the stock MCP client bundle from vendorDir at /vendor/mcpclient.js.
// It fails if a folder lacks the file the demo cannot run without.
func newHandler(demoDir, distDir, vendorDir string) (http.Handler, error) {
	if _, err := os.Stat(filepath.Join(demoDir, "index.html")); err != nil {
		return nil, fmt.Errorf("%s: demo page not found (pass -demo with the demo folder)", filepath.Join(demoDir, "index.html"))
	}
	if _, err := os.Stat(filepath.Join(distDir, "modelcontext.js")); err != nil {
		return nil, fmt.Errorf("%s not found: run `make build` first (or pass -dist with the folder that holds modelcontext.js)", filepath.Join(distDir, "modelcontext.js"))
	}
	mux := http.NewServeMux()
	mux.Handle("/static/", http.StripPrefix("/static", files{fsys: os.DirFS(distDir)}))
	if vendorDir != "" {
		for _, name := range vendorFiles {
			if _, err := os.Stat(filepath.Join(vendorDir, name)); err != nil {
				return nil, fmt.Errorf("%s not found: run `make mcpclient` first (or pass -vendor with the folder that holds %s, or leave -vendor out to serve the demo without its MCP tab)", filepath.Join(vendorDir, name), name)
			}
		}
		mux.Handle("/vendor/", http.StripPrefix("/vendor", files{fsys: only{os.DirFS(vendorDir), vendorFiles}}))
	} else {
		// Without -vendor the panel's MCP tab explains that its client did
		// not load; this says why to anyone who opens the URL.
		mux.HandleFunc("/vendor/", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "404 page not found: the MCP client bundle is not served; run `make mcpclient` and start serve with -vendor testdata/out (make demo does both)", http.StatusNotFound)
		})
	}
	mux.Handle("/", files{fsys: os.DirFS(demoDir), fallback: "index.html"})
	return gzipped(mux), nil
}

// only is fsys restricted to the named files at its root.
type only struct {
	fsys  fs.FS
	names []string
}

func (o only) Open(name string) (fs.File, error) {
	for _, n := range o.names {
		if n == name {
			return o.fsys.Open(name)
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// contentTypes pins the types the demo depends on, whatever the system's MIME
// table says: a .wasm served as anything but application/wasm cannot be
// streamed into WebAssembly.instantiateStreaming.
var contentTypes = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
}

// files serves the regular files of fsys. Folders are never listed; "/" and
// any extension-less path that is not a file (a client-side route such as
// /checkout) get the fallback file, if set.
type files struct {
	fsys     fs.FS
	fallback string
}

func (f files) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "."
	}
	file, info, err := open(f.fsys, name)
	if (err != nil || info.IsDir()) && f.fallback != "" && (name == "." || path.Ext(name) == "") {
		if file != nil {
			file.Close()
		}
		name = f.fallback
		file, info, err = open(f.fsys, name)
	}
	if err != nil || info.IsDir() {
		if file != nil {
			file.Close()
		}
		http.NotFound(w, r)
		return
	}
	defer file.Close()
	rs, ok := file.(io.ReadSeeker)
	if !ok {
		http.Error(w, "file not seekable", http.StatusInternalServerError)
		return
	}
	if ct, ok := contentTypes[path.Ext(name)]; ok {
		w.Header().Set("Content-Type", ct)
	}
	// A local demo server: always revalidate, so an edit or a rebuild shows
	// on the next reload.
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, info.Name(), info.ModTime(), rs)
}

func open(fsys fs.FS, name string) (fs.File, fs.FileInfo, error) {
	file, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, nil, err
	}
	return file, info, nil
}

// gzipped compresses responses for clients that accept gzip. Range requests
// are served whole when compressing (a byte range of the uncompressed file
// means nothing in a gzip stream).
func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodHead || !acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.ServeHTTP(w, r)
			return
		}
		r.Header.Del("Range")
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		h.ServeHTTP(gw, r)
	})
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip
// (present and not with q=0).
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				v = strings.TrimSpace(v)
				return v != "0" && v != "0.0" && v != "0.00" && v != "0.000"
			}
		}
		return true
	}
	return false
}

var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// gzipWriter compresses the body of a 200 response; other statuses (304,
// 404, ...) pass through untouched.
type gzipWriter struct {
	http.ResponseWriter
	gz          *gzip.Writer
	wroteHeader bool
}

func (w *gzipWriter) WriteHeader(code int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	hdr := w.Header()
	if code == http.StatusOK && hdr.Get("Content-Encoding") == "" && compressible(hdr.Get("Content-Type")) {
		hdr.Del("Content-Length")
		hdr.Del("Accept-Ranges")
		hdr.Set("Content-Encoding", "gzip")
		w.gz = gzipPool.Get().(*gzip.Writer)
		w.gz.Reset(w.ResponseWriter)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *gzipWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", http.DetectContentType(p))
		}
		w.WriteHeader(http.StatusOK)
	}
	if w.gz != nil {
		return w.gz.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

func (w *gzipWriter) close() {
	if w.gz == nil {
		return
	}
	w.gz.Close()
	w.gz.Reset(io.Discard)
	gzipPool.Put(w.gz)
	w.gz = nil
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// compressible reports whether a body of this type is worth compressing:
// text and the structured or binary formats that are not compressed already.
func compressible(contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.ToLower(strings.TrimSpace(ct))
	switch {
	case strings.HasPrefix(ct, "text/"),
		ct == "application/wasm",
		ct == "application/javascript",
		ct == "application/json",
		strings.HasSuffix(ct, "+json"),
		strings.HasSuffix(ct, "+xml"),
		ct == "image/svg+xml":
		return true
	}
	return false
}
