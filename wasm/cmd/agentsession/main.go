// Command agentsession measures what an agent receives while it follows a
// page, three ways, on the demo shop: a scripted visitor shops (over 100
// actions through the shop's own UI: browsing, the cart, the checkout form
// key by key, the courier's note; testdata/agentsession/visitor.js) and,
// after each action, agents in the same page take their turn
// (testdata/agentsession/agent.js):
//
//	(a)  re-reads every resource (read_resource of each listed uri)
//	(b)  changesSince(its revision), then reads the added and updated
//	     ones whole (read_resource)
//	(c)  read_changes({since}): values, or RFC 6902 patches against what
//	     the tool gave before
//	(c') an MCP client that declares the changes capability, following by
//	     the updates' _meta (patch or contents); and, beside it, a stock MCP
//	     client that reads each resource it is told was updated
//
// The tools are the module's resource tools (registerResourceTools) on a
// registerTool polyfill, answering MCP CallToolResults: what each agent
// receives is the text of the answers (for MCP, every JSON-RPC message as
// sent). The bytes are UTF-8 bytes; the tokens are counted after the run by
// testdata/agentsession/count.mjs with gpt-tokenizer (o200k_base) at the
// version its package-lock.json pins. Every agent keeps a mirror of the
// values from what it received alone; after every turn the mirrors are
// checked against the page, and a mirror that disagrees is reported.
//
// Then two timed rows, in a page of their own (testdata/agentsession/bench.html):
// a push of a ~10 KB value that changes one field, plain (one
// resourceupdated listener) against the same push with one subscribeResource
// handler and with one {patch: true} handler, paired round by round; and
// changesSince over 1,000 registered resources (10 updated since, and
// since 0), median µs per call. Floors are printed as ok or MISS; nothing
// fails on a number.
//
//	make bench-agent
//	CHROMIUM=.cache/bin/chromium go run ./wasm/cmd/agentsession   # after make build demo-app mcpclient, npm ci in testdata/agentsession
//
// The demo is served by the serve command of make demo (built into a
// temporary folder and started on 127.0.0.1), at /?tick=manual so that the
// order moves on only when the script says (its "server" steps). The table
// goes to stdout, progress to stderr, the results as JSON to -out
// (testdata/out/agentsession.json) and the texts each agent received to
// -texts (testdata/out/agentsession-texts.json), and the tables as Markdown
// to -md (testdata/bench/AGENT.md, the table the docs link to, unless -only
// or -every makes the run partial).
//
// # Flags
//
//	-every K   the agents take a turn after every K steps (1)
//	-rounds N  rounds of the timed rows (31; 0 skips them)
//	-only X    "session" or "timed": that part alone
//	-out FILE, -texts FILE, -md FILE
//	-md-from FILE  instead of the session, render a run's JSON as -md:
//	               go run ./wasm/cmd/agentsession -md-from testdata/out/agentsession.json
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agentsession:", err)
		os.Exit(1)
	}
}
