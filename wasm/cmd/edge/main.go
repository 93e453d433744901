//go:build js && wasm

// Command edge is the demo shop and the module as a Cloudflare Worker: the
// handler of wasm/serve behind github.com/syumai/workers, with the demo page,
// the built module and the stock MCP client bundle embedded in the Worker's
// WebAssembly.
//
//	make edge          # build it and serve it locally under workerd
//	npx wrangler deploy  # from this folder, after make edge-build
//
// make edge-build stages the files into site/public/ (git-ignored: demo/,
// static/ from dist/, vendor/mcpclient.js from testdata/out/), builds this
// package with GOOS=js GOARCH=wasm into build/app.wasm and copies Go's own
// wasm_exec.js beside it; worker.mjs is the Worker's entry point. Every file
// of those folders is embedded and served, so new files need no code change.
//
// Workers compresses responses itself (and compresses again a body that
// already has a Content-Encoding), so the handler sends plain bytes; and each
// request may start a fresh Go instance, so files are read and hashed on
// their first request (serve.Options.Lazy) rather than all at start.
package main

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/syumai/workers"

	"github.com/modelcontext-go/modelcontext/wasm/internal/demosite"
	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// site holds README.md (committed, not served) and public/ (staged by make
// edge-build).
//
//go:embed site
var site embed.FS

func main() {
	workers.Serve(recovering(handler()))
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
