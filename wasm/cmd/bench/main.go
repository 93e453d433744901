// Command bench measures the module side by side with the hand-written
// JavaScript reference: download size, start-up, and the per-operation cost
// of pushes, reads, handler deliveries, getResources and registration, in
// headless Chromium; and its MCP server against MCP-B's own, through the same
// stock MCP client.
//
//	make build mcpclient && CHROMIUM=.cache/bin/chromium go run ./wasm/cmd/bench
//
// It serves testdata/bench/bench.html on 127.0.0.1 (with the routes of
// wasm/internal/browsertest: /static/ is dist/, /reference/ is the reference)
// and drives one Chromium. Every implementation gets its own tab, loaded with
// bench.html?impl=ours or ?impl=ref, and the workloads of
// testdata/bench/bench.js run in both, interleaved: each round runs one timed
// batch per implementation (which goes first alternates), and the result is
// the median over the rounds of the per-operation time (batch time / ops).
// Batch sizes are calibrated after a warm-up so that the faster
// implementation's batch takes about -batch-ms.
//
// The floor of any Go WebAssembly module is measured too, with
// testdata/bench/bare (built here with GOOS=js GOARCH=wasm and started with
// Go's own wasm_exec.js): its start-up, and one call of a js.FuncOf that does
// nothing, the "crossing". The table gives each workload's overhead over the
// reference in crossings, (ours − ref) / crossing.
//
// The MCP workload ("MCP read round trip") compares servers instead: on
// testdata/bench/mcp.html?server=ours|mcpb, the module's server (serveMCP) or
// MCP-B's in-page server (@mcp-b/global) serves one small JSON resource on the
// channel "bench-mcp", and the stock client of make mcpclient (the TypeScript
// SDK's Client on @mcp-b/transports' TabClientTransport) times
// client.readResource({uri}) round trips, awaiting each. The two pages take
// turns like ours and the reference; the row gives ours, MCP-B and their
// ratio, and the target is to be faster than MCP-B. The bundles are served from
// testdata/out/ at /out/; without them (run make mcpclient) the bench stops,
// unless -only leaves the workload out.
//
// Start-up is the time from navigation start until `ready` resolved
// (performance.now() at resolution), over -ready fresh tabs per
// implementation, interleaved.
//
// It prints the tables on stdout, progress on stderr, and writes every sample
// as JSON to -out (default testdata/out/bench.json; the MCP rows under "mcp").
// It needs dist/ (run make build), testdata/out/mcpclient.js and
// mcpb-global.js (make mcpclient) and Chromium ($CHROMIUM, else
// /usr/bin/chromium; make test-deps). A run takes one and a half to two
// minutes on two cores.
//
// # Flags
//
//	-rounds N       interleaved rounds (21)
//	-ready N        start-up samples per implementation (10; 0 skips start-up)
//	-batch-ms MS    target batch time of the faster implementation (15)
//	-only TEXT      only the workloads whose key contains TEXT ("ready": start-up only)
//	-no-size        skip the download sizes
//	-out FILE       the JSON results
//	-dist DIR       measure the build in DIR instead of dist/
//	-against DIR    A/B: measure the build in DIR in place of the reference
//	                (and of MCP-B's server in the MCP row), to see what a
//	                change to js/loader.js or the Go code buys:
//	                  go run ./wasm/cmd/bench -dist /tmp/new -against dist
//	-profile W      instead of the bench, run workload W (or "ready") under V8's
//	                sampling profiler in both implementations, print the
//	                functions with the most self time and write .cpuprofile
//	                files beside -out for DevTools. A .wasm built with -s has no
//	                function names; for Go names build one without it:
//	                  GOOS=js GOARCH=wasm go build -o /tmp/d/modelcontext.wasm ./wasm/cmd/modelcontext
//	                  cp dist/modelcontext.js /tmp/d/ && go run ./wasm/cmd/bench -dist /tmp/d -profile push-small
//
// The pages and scripts are in testdata/bench: bench.html?impl=ours|ref|bare
// loads one implementation, bench.js holds the workloads, bare/ the floor;
// mcp.html?server=ours|mcpb and mcp.js the MCP workload.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
