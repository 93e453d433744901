// Command relay serves the MCP server of one browser tab (a page that loads
// modelcontext.js with data-mcp data-mcp-sessions) to MCP clients outside the
// browser, over stdio or Streamable HTTP. See README.md beside this file.
//
//	go run ./wasm/cmd/relay --url http://127.0.0.1:8080/            # stdio
//	go run ./wasm/cmd/relay --url http://127.0.0.1:8080/ --http 127.0.0.1:8765
//	go run ./wasm/cmd/relay --attach http://127.0.0.1:9222 --tab http://127.0.0.1:8080/
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontext-go/modelcontext/wasm/relay"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		stop()
		os.Exit(1)
	}
}

// run is the command; see relay.Run.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return relay.Run(ctx, args, stdin, stdout, stderr)
}
