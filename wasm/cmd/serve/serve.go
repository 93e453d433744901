package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/demosite"
	"github.com/modelcontext-go/modelcontext/wasm/serve"
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

// newHandler serves demoDir at / (with index.html for the page's client-side
// routes such as /cart), distDir at /static/ and, when vendorDir is not
// empty, the stock MCP client bundle from vendorDir at /vendor/mcpclient.js,
// through the handler of wasm/serve: types, compression, ETags and caching,
// the Content-Security-Policy; the demo page gets a nonce of its own in each
// response (demosite's NoncePlaceholder). The files are read (and compressed) once, here:
// restart the server to serve a rebuild or an edit of the demo.
// It fails if a folder lacks the file the demo cannot run without.
func newHandler(demoDir, distDir, vendorDir string) (http.Handler, error) {
	if _, err := os.Stat(filepath.Join(demoDir, "index.html")); err != nil {
		return nil, fmt.Errorf("%s: demo page not found (pass -demo with the demo folder)", filepath.Join(demoDir, "index.html"))
	}
	if _, err := os.Stat(filepath.Join(distDir, "modelcontext.js")); err != nil {
		return nil, fmt.Errorf("%s not found: run `make build` first (or pass -dist with the folder that holds modelcontext.js)", filepath.Join(distDir, "modelcontext.js"))
	}
	var vendor fs.FS
	if vendorDir != "" {
		for _, name := range demosite.VendorFiles {
			if _, err := os.Stat(filepath.Join(vendorDir, name)); err != nil {
				return nil, fmt.Errorf("%s not found: run `make mcpclient` first (or pass -vendor with the folder that holds %s, or leave -vendor out to serve the demo without its MCP tab)", filepath.Join(vendorDir, name), name)
			}
		}
		vendor = os.DirFS(vendorDir)
	}
	h, err := demosite.Handler(withShared(demoDir), os.DirFS(distDir), vendor, serve.Options{})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// sharedFiles are files the demo loads from elsewhere in the repository,
// served at its root as its own: the DevTools panel's value tree, which the
// demo's agent panel shows its reads with.
var sharedFiles = map[string]string{"jsontree.js": filepath.Join("..", "js", "extension", "jsontree.js")}

// withShared is demoDir with the sharedFiles found beside it (in the
// repository: -demo demo finds js/extension/jsontree.js). A file the demo
// folder has itself wins (make edge-build copies it in); one found nowhere
// is left out, and the demo shows its reads as text.
func withShared(demoDir string) fs.FS {
	files := map[string]string{}
	for name, rel := range sharedFiles {
		p := filepath.Join(demoDir, rel)
		if _, err := os.Stat(filepath.Join(demoDir, name)); err == nil {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			files[name] = p
		}
	}
	return shared{os.DirFS(demoDir), files}
}

// shared is a folder with more files at its root, each from its own path.
type shared struct {
	fs.FS
	files map[string]string // name at the root → path on disk
}

func (s shared) Open(name string) (fs.File, error) {
	if p, ok := s.files[name]; ok {
		return os.Open(p)
	}
	return s.FS.Open(name)
}

// ReadDir lists the root with the added files (serve reads the folder with
// fs.WalkDir).
func (s shared) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(s.FS, name)
	if err != nil || name != "." {
		return entries, err
	}
	for _, p := range s.files {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		entries = append(entries, fs.FileInfoToDirEntry(info))
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}
