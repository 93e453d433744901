//go:build js && wasm

// Command edge is the demo shop and the module as a Cloudflare Worker: the
// handler of wasm/serve behind github.com/syumai/workers, with the demo page,
// the built module and the stock MCP client bundle embedded in the Worker's
// WebAssembly.
//
//	make edge                    # build it and serve it locally under workerd
//	npx wrangler@4.164.0 deploy  # from this folder: build it and publish it
//
// make edge-build stages the files into site/public/ (git-ignored: demo/,
// static/ from dist/, vendor/mcpclient.js from testdata/out/), builds this
// package with GOOS=js GOARCH=wasm into build/app.wasm and copies Go's own
// wasm_exec.js beside it; worker.mjs is the Worker's entry point. Every file
// of those folders is embedded and served, so new files need no code change.
//
// Workers compresses responses itself (and compresses again a body that
// already has a Content-Encoding), so the handler sends plain bytes. One Go
// program serves all the requests of a Worker isolate (worker.mjs starts it
// on the first), but an isolate may start for any request, so files are read
// and hashed on their first request (serve.Options.Lazy) rather than all at
// start.
package main

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"syscall/js"

	"github.com/syumai/workers"

	"github.com/modelcontext-go/modelcontext/wasm/internal/demosite"
	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// site holds README.md (committed, not served) and public/ (staged by make
// edge-build).
//
//go:embed site
var site embed.FS

// main installs the handler, tells worker.mjs it is ready, and blocks: the
// program then serves every request the Worker's isolate receives (see
// whole for why that is safe).
func main() {
	workers.ServeNonBlock(recovering(whole(handler())))
	workers.Ready()
	select {}
}

// rawBodyWriter is implemented by the http.ResponseWriter of
// syumai/workers: a body given as a JavaScript value becomes the Response's
// body as it is.
type rawBodyWriter interface{ WriteRawJSBody(body js.Value) }

var uint8Array = js.Global().Get("Uint8Array")

// whole runs h into a buffer and hands the body to JavaScript as one
// Uint8Array, instead of the stream syumai/workers would otherwise pull from
// a goroutine. The files are in memory, so nothing is lost by not
// streaming; and the request is then handled completely inside the call
// that JavaScript makes for it, with no goroutine left behind that could
// later touch this request's stream while the Go program runs on behalf of
// another request (which Workers forbids). That is what lets one Go program
// serve all the requests of an isolate instead of starting one per request.
func whole(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, ok := w.(rawBodyWriter)
		if !ok {
			// Streaming instead would leave a goroutine writing to this
			// request's stream while the program serves the next ones.
			http.Error(w, "modelcontext: this version of github.com/syumai/workers cannot take a whole body (WriteRawJSBody); wasm/cmd/edge needs v0.33.0", http.StatusInternalServerError)
			return
		}
		b := &buffer{header: w.Header()}
		h.ServeHTTP(b, r)
		if b.code != 0 {
			w.WriteHeader(b.code)
		}
		arr := uint8Array.New(len(b.body))
		js.CopyBytesToJS(arr, b.body)
		raw.WriteRawJSBody(arr)
	})
}

// buffer is an http.ResponseWriter that keeps the status and the body.
type buffer struct {
	header http.Header
	code   int
	body   []byte
}

func (b *buffer) Header() http.Header { return b.header }

func (b *buffer) WriteHeader(code int) {
	if b.code == 0 {
		b.code = code
	}
}

func (b *buffer) Write(p []byte) (int, error) {
	if b.code == 0 {
		b.code = http.StatusOK
	}
	if b.body == nil {
		// One allocation for the whole body when its length is known.
		if n, err := strconv.Atoi(b.header.Get("Content-Length")); err == nil && n >= len(p) {
			b.body = make([]byte, 0, n)
		}
	}
	b.body = append(b.body, p...)
	return len(p), nil
}

// recovering answers 500 instead of letting a panic end the Go program
// (syumai/workers runs the handler in a goroutine of its own, without
// net/http's per-request recover).
func recovering(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				http.Error(w, fmt.Sprintf("modelcontext: internal error serving %s: %v", r.URL.Path, v), http.StatusInternalServerError)
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// handler serves the staged site, or explains on every request that the
// Worker was built without it.
func handler() http.Handler {
	sub := func(dir string) fs.FS {
		f, _ := fs.Sub(site, "site/public/"+dir) // a valid path: never fails
		return f
	}
	h, err := demosite.Handler(sub("demo"), sub("static"), sub("vendor"),
		serve.Options{Compression: serve.Uncompressed, Lazy: true})
	if err != nil {
		msg := "modelcontext: this Worker was built without the demo and the module (" + err.Error() + "); build it with make edge-build"
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, msg, http.StatusInternalServerError)
		})
	}
	return h
}
