package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// catalog.go: what the bench measures (its workloads, the sets of
// resources they run on, and their targets).

// workload is one row of the table: a workload of testdata/bench/bench.js (or,
// for the set "mcp", of testdata/bench/mcp.js) run in the tab of a workload
// set.
type workload struct {
	Key   string // in the table and the JSON
	JS    string // the name bench.js (mcp.js) knows it by
	Set   string // "main" (a few resources registered), "list" (1,000), either with "-heard" (a resourcelistchanged listener), "mcp", "mcp-floor" or "mcp-least"
	Label string
	// Max is the target: the median over the rounds of ours / the reference
	// (for the set "mcp": ours / MCP-B's server), in CPU time, is at most Max;
	// 0 for a row that measures a floor, not the module.
	Max float64
}

// The targets: every in-page operation within 1.2× of the reference, large
// pushes within 1.1×, MCP reads within 0.6× of MCP-B's server, ready within
// 1.15× of a bare Go program, and the .wasm no larger than 443 KB brotli.
const (
	maxInPage     = 1.2
	maxLargePush  = 1.1
	maxMCPRead    = 0.6
	maxReadyRatio = 1.15
	maxWasmBrotli = 443_000 // bytes
)

var workloads = []workload{
	{"push-small", "push-small", "main", "push, small value (~40 B)", maxInPage},
	{"push-10k", "push-10k", "main", "push, ~10 KB value", maxLargePush},
	{"push-100k", "push-100k", "main", "push, ~100 KB value", maxLargePush},
	{"push-suppressed", "push-suppressed", "main", "push, value unchanged (suppressed)", maxInPage},
	{"read-small", "read-small", "main", "readResource, small value (await each)", maxInPage},
	{"handler", "handler", "main", "subscribeResource handler delivery", maxInPage},
	{"get-resources", "get-resources", "list", "getResources(), 1,000 resources", maxInPage},
	{"register-cycle", "register-cycle", "main", "register + unregister (6 registered)", maxInPage},
	{"register-cycle-1000", "register-cycle", "list", "register + unregister (1,000 registered)", maxInPage},
	{"register-cycle-heard", "register-cycle", "main-heard", "register + unregister, heard by a listener (6 registered)", maxInPage},
	{"register-cycle-heard-1000", "register-cycle", "list-heard", "register + unregister, heard by a listener (1,000 registered)", maxInPage},
	{"register-push-cycle", "register-push-cycle", "main", "register, push once, unregister (6 registered)", maxInPage},
	// A read through a frame (connectFrame: a round trip through the
	// frame's MCP server) against a read of the page's own: a measurement,
	// no target.
	{"read-frame", "read-frame", "frame", "readResource, a frame's resource / the page's own", 0},
	{"mcp-read", "mcp-read", "mcp", "MCP read round trip", maxMCPRead},
	// The floor of the MCP target: the least server there can be (see
	// mcp.js), against MCP-B's, through the same client and transport.
	{"mcp-read-floor", "mcp-read", "mcp-floor", "MCP read round trip, least server (floor)", 0},
	// How close the module's server is to that floor: the two paired in
	// one round, rather than a ratio of two rows' ratios.
	{"mcp-read-least", "mcp-read", "mcp-least", "MCP read round trip, ours / least server", 0},
}

var impls = []string{"ours", "ref"}

// The workload sets, in the order their tabs open, and the two
// implementations each compares (ours first): the set "mcp" runs on
// mcp.html, where the stock MCP client talks to our server or to MCP-B's
// (@mcp-b/global; in -against mode the -against build stands in for it).
var (
	workloadSets = []string{"main", "main-heard", "list", "list-heard", "frame", "mcp", "mcp-floor", "mcp-least"}
	setImpls     = map[string][]string{"main": impls, "main-heard": impls, "list": impls, "list-heard": impls, "frame": {"framed", "ours"}, "mcp": {"ours", "mcpb"}, "mcp-floor": {"floor", "mcpb"}, "mcp-least": {"ours", "floor"}}
)

// mcpBundles are what mcp.html loads from testdata/out/ (make mcpclient).
var mcpBundles = []string{"mcpclient.js", "mcpb-global.js"}

// checkMCPBundles reports a missing bundle of make mcpclient.
func checkMCPBundles(root string) error {
	for _, f := range mcpBundles {
		if _, err := os.Stat(filepath.Join(root, "testdata", "out", f)); err != nil {
			return fmt.Errorf("testdata/out/%s not found: the MCP workloads need the stock MCP client and MCP-B's server; run make mcpclient first (or -only to skip them)", f)
		}
	}
	return nil
}
