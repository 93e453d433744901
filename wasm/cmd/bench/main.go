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
// batch per implementation (which goes first alternates).
//
// # What a number is
//
// Each batch is timed twice: in wall-clock time (performance.now() in the
// page; the bench pages are cross-origin isolated, so it counts in 5 µs
// steps) and in CPU time of the page's main thread (DevTools' ThreadTime
// metric read before and after the batch, less what evaluating an empty
// batch costs the tab). On a machine shared with other jobs the wall-clock
// time is mostly the scheduler's (the main thread was measured getting an
// eighth of the wall-clock time at a load average of 20 on two cores); the
// CPU time is the work, so the targets are checked on it and the wall-clock
// ratio is printed beside it. Batch sizes are calibrated after a warm-up so
// that the faster implementation's batch takes about -batch-ms of CPU time.
//
// A row's ratio is the median over the rounds of ours / ref in the same
// round (a "paired" ratio), printed with its quartiles (the spread) and, in
// the JSON, an approximate 95% confidence interval of the median (median ±
// 1.57 × IQR / √rounds). After -rounds rounds, the bench keeps adding
// rounds, up to -max-rounds, for each workload whose target lies inside that
// interval, so that a verdict near the line rests on more samples.
//
// # Targets
//
// Printed as met or MISS, with the numbers: every in-page operation within
// 1.2× of the reference; pushes of ~10 KB and ~100 KB within 1.1×; the MCP
// read round trip within 0.6× of MCP-B's server; ready within 1.15× of the
// bare Go program (first visit, fresh tab; paired per round); the .wasm no
// larger than 443 KB (443,000 bytes) brotli.
//
// The floor of any Go WebAssembly module is measured too, with
// testdata/bench/bare (built here with GOOS=js GOARCH=wasm and started with
// Go's own wasm_exec.js): its start-up, and one call of a js.FuncOf that does
// nothing, the "crossing", printed for scale (the JSON gives each workload's
// overhead over the reference in crossings).
//
// The floor of the crossings between Go and JavaScript is measured with
// testdata/bench/floor (built like the module, started by
// testdata/bench/floor.js on bench.html?impl=floor): one
// entry into Go through an empty //go:wasmexport function, one call from Go
// to JavaScript through a //go:wasmimport function (directly, and wrapped
// the way js/loader.js wraps its host functions), and, for comparison, what
// both implementations pay for an event (dispatchEvent of a CustomEvent to
// one listener). "-only floor" runs this section alone.
//
// The MCP workload ("MCP read round trip") compares servers instead: on
// testdata/bench/mcp.html?server=ours|mcpb, the module's server (serveMCP) or
// MCP-B's in-page server (@mcp-b/global) serves one small JSON resource on the
// channel "bench-mcp", and the stock client of make mcpclient (the TypeScript
// SDK's Client on @mcp-b/transports' TabClientTransport) times
// client.readResource({uri}) round trips, awaiting each. The two pages take
// turns like ours and the reference. A second row ("least server", the set
// "mcp-floor") pairs MCP-B's server with the least server there can be
// (mcp.html?server=floor: a message listener that answers the handshake,
// initialize and the read, in a few lines of mcp.js): the client and the
// transport cost the same whatever the server, so its ratio is the best any
// server can reach against MCP-B's. A third row (the set "mcp-least") pairs
// the module's server with that least server directly: how close it is to
// the floor, without the noise of two rows' ratios. The bundles are served from
// testdata/out/ at /out/; without them (run make mcpclient) the bench stops,
// unless -only leaves the workload out.
//
// Start-up is the time from navigation start until `ready` resolved
// (performance.now() at resolution), wall-clock: each round opens a fresh tab
// per implementation, in turns, and pairs ours with the bare program's. The
// main thread's CPU time until ready is recorded beside it (the start-up's
// work, which the load does not stretch; compilation on other threads is not
// in it). The start-up phases (testdata/bench/startup.html, "-only
// startup") split that work: the main-thread CPU time of compiling,
// instantiating and starting (go.run until main blocks) fresh copies of the
// module's .wasm and of the bare program's, paired round by round; with
// -against, of the two builds.
//
// It prints the tables on stdout, progress on stderr, and writes every sample
// as JSON to -out (default testdata/out/bench.json; the MCP rows under "mcp")
// and the tables as Markdown to -md (default testdata/bench/BENCH.md, the
// table the docs link to for the timings, unless the run is a partial one).
// It needs dist/ (run make build), testdata/out/mcpclient.js and
// mcpb-global.js (make mcpclient) and Chromium ($CHROMIUM, else
// /usr/bin/chromium; make test-deps). A run takes two to four minutes on two
// cores, more on a loaded machine.
//
// # Flags
//
//	-rounds N       interleaved rounds (21)
//	-max-rounds N   at most this many where the verdict is uncertain (3 × -rounds)
//	-ready N        start-up rounds (15; 0 skips start-up)
//	-max-ready N    at most this many where the verdict is uncertain (2 × -ready)
//	-batch-ms MS    target batch CPU time of the faster implementation (15)
//	-only TEXT      only the workloads whose key contains TEXT, or one of several
//	                TEXTs separated by commas ("ready": start-up only)
//	-no-size        skip the download sizes
//	-out FILE       the JSON results
//	-md FILE        the Markdown table (testdata/bench/BENCH.md; none by default
//	                with -only, -dist, -against or -profile)
//	-md-from FILE   instead of the bench, render a run's JSON as -md:
//	                  go run ./wasm/cmd/bench -md-from testdata/out/bench.json
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
