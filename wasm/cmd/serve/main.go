// Command serve runs the demo shop: it serves demo/ at / and the built module
// (dist/, from make build) at /static/, the way a page author's own server
// would; with -vendor, also the stock MCP client bundle (testdata/out/, from
// make mcpclient) at /vendor/mcpclient.js, which the agent panel's MCP tab
// loads. Every file goes through the handler of wasm/serve (types,
// brotli/gzip, ETags and 304s, caching, the Content-Security-Policy), which
// reads the files once, when the server starts: restart it to serve a
// rebuild or an edit of the demo. The demo page is sent with a fresh nonce in
// each response, on its script tag, on the markup it shares with agents and
// in the policy's script-src.
//
//	go run ./wasm/cmd/serve -addr 127.0.0.1:8080 -demo demo -dist dist -vendor testdata/out
//
// It prints "demo: http://127.0.0.1:8080/" once it listens and stops cleanly
// on Ctrl-C or SIGTERM.
//
// # Errors
//
//	serve: dist/modelcontext.js not found: run `make build` first
//
// The module has not been built (or -dist points elsewhere). Run make build
// in the repository root, or pass -dist with the folder that holds
// modelcontext.js and modelcontext.wasm.
//
//	serve: testdata/out/mcpclient.js not found: run `make mcpclient` first (...)
//
// -vendor names a folder without the MCP client bundle. Run make mcpclient
// (npm ci and esbuild in testdata/mcpclient), or leave -vendor out: the demo
// then runs without its MCP tab, which says that its client did not load.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}
