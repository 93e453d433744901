// Command pagecost measures what the module costs a page that loads it, as
// Lighthouse sees the load, and how long an agent's first question then
// waits for its answer.
//
//	make bench-page
//	go run ./wasm/cmd/pagecost -runs 5   # after make build mcpclient test-deps and the Lighthouse install
//
// It serves testdata/pagecost on 127.0.0.1 through the project's own handler
// (wasm/serve: brotli, ETags, Cache-Control: no-cache, its default
// Content-Security-Policy), dist/ at /static/ and MCP-B's @mcp-b/global at
// /vendor/mcpb-global.js. The pages are one one-screen product page (a hero
// block without images, a price, an "Add to cart" button, its own script
// file, no inline script) in four variants that differ only in the agent API
// they load:
//
//	plain  no agent API: the baseline
//	lazy   <script src="/static/modelcontext.js">, the default boot, and the
//	       cart registered as the resource state://cart
//	eager  the same with data-boot="eager"
//	mcpb   MCP-B's @mcp-b/global, the IIFE its package publishes for script
//	       tags (dist/index.iife.js, minified; -mcpb picks another file), with
//	       the same cart registered through its registerResource (read()
//	       returning the MCP contents; it has no subscribe)
//
// # Lighthouse
//
// Lighthouse (testdata/lighthouse pins 12.2.3) runs against each variant
// with its defaults: the mobile preset, simulated throttling (slow 4G,
// 4× CPU), the performance category only, in headless Chromium ($CHROMIUM,
// kept off the network by flags). Each of -runs rounds runs every variant
// once, in an order that rotates from round to round. From each report
// (LHR) it takes total-blocking-time, largest-contentful-paint, interactive
// (TTI), first-contentful-paint, mainthread-work-breakdown (its total, and
// its script evaluation and parse/compile groups, the part a script adds,
// which the rest of the total's noise on a busy machine can drown; under
// simulated throttling Lighthouse multiplies the observed times by the CPU
// slowdown), total-byte-weight (bytes over the network, compressed, with
// headers) and, from network-requests, the count of requests and of those
// whose URL path ends in .wasm. The table gives each variant's median and
// [min–max]; a delta is the median of the rounds' differences (the variant
// minus plain in the same round), with their [min–max].
//
// The targets, printed as met or MISS with the numbers, are for the default
// boot against the page without the module: TBT +10 ms at most, LCP +50 ms,
// main-thread work +40 ms, +25 KB (25,000 bytes) and no .wasm request in
// any round; and the first answer on a repeat visit measured.
//
// # First answer
//
// Then, without Lighthouse, each of -answers samples starts Chromium with a
// fresh profile per variant (lazy and eager, alternating which goes first),
// opens the page, waits for its load event and times, in the page,
// `await document.modelContext.readResource("state://cart")`: the cold
// visit. After -pause (time for Chromium to finish compiling the module and
// keep the compiled code beside its HTTP cache entry) it opens the page in a
// new tab of the same profile and times the same call: the repeat visit,
// with the HTTP cache and the code cache warm. For the lazy boot the call is
// the first consumer contact, so its time is the fetch (or revalidation) of
// the .wasm, the compile (or the cached code) and Go's start; for eager the
// call is made once ready has resolved (the time from the load event until
// then is printed beside it). How the .wasm arrived on each visit (network,
// 304 or cache, with its bytes) comes from DevTools' Network domain and
// Resource Timing. The network is loopback and the CPU not throttled unless
// -rtt/-down and -cpu say otherwise.
//
// -variants and -answer-variants pick other pages, among them three that
// are not run by default: idle (data-boot="idle": the module starts in
// idle time after the load event), lazy-prefetch (the default boot with
// <link rel="prefetch"> for the .wasm in the page's head) and
// lazy-immutable (the default boot with data-wasm pointing at the same
// .wasm under a content-hash name, which wasm/serve sends as immutable, so
// that a repeat visit takes it from the cache without a round trip).
// -contact-delay makes the first call later than the load event.
//
// # Busy DOM
//
// Last, -dom samples per variant time testdata/pagecost/busy.html's
// workload (a page that rebuilds a table, changes a feed and sets cells'
// text all the time, and two declarative resources' content now and then)
// with the module's tag with and without data-declarative, in fresh tabs of
// one Chromium, alternating which goes first: what watching the DOM for
// declarative resources costs a busy page.
//
// Everything is written as JSON to -out (default testdata/out/pagecost.json),
// and each Lighthouse report to -lhr-dir. The tables are also written as
// Markdown to -md (default testdata/bench/PAGECOST.md, the table the docs
// link to, unless -only, -variants or -answer-variants makes the run
// partial); -md-from renders a run's JSON again instead of measuring:
//
//	go run ./wasm/cmd/pagecost -md-from testdata/out/pagecost.json
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "modelcontext: pagecost:", err)
		os.Exit(1)
	}
}

type options struct {
	runs           int
	answers        int
	dom            int // busy-DOM samples per variant
	pause          time.Duration
	out            string
	lhrDir         string
	mcpb           string
	only           string // "", "lighthouse" or "answer"
	variants       []string
	answerVariants []string
	delay          time.Duration // before the first consumer call
	rtt            time.Duration
	down           float64 // Mbit/s; 0: no throttling
	cpu            float64 // CPU slowdown for the first answers; 0 or 1: none
	root           string
	chromium       string
	// md is where the Markdown table goes ("" for nowhere); mdFrom a run's
	// JSON to render instead of running.
	md, mdFrom string
}

func parseFlags(args []string) (options, error) {
	root := browsertest.RepoRoot()
	fl := flag.NewFlagSet("pagecost", flag.ContinueOnError)
	var o options
	o.root = root
	fl.IntVar(&o.runs, "runs", 5, "Lighthouse rounds (each runs every variant once)")
	fl.IntVar(&o.answers, "answers", 5, "first-answer samples per variant (each a fresh profile: cold, then repeat visit)")
	fl.IntVar(&o.dom, "dom", 9, "busy-DOM samples per variant (with and without data-declarative; 0: none)")
	fl.DurationVar(&o.pause, "pause", 5*time.Second, "wait between the cold and the repeat visit (lets Chromium compile and cache the module)")
	fl.StringVar(&o.out, "out", filepath.Join(root, "testdata", "out", "pagecost.json"), "write the results as JSON to this `file`")
	fl.StringVar(&o.lhrDir, "lhr-dir", filepath.Join(root, "testdata", "out", "pagecost-lhr"), "write each Lighthouse report to this `folder`")
	fl.StringVar(&o.mcpb, "mcpb", filepath.Join(root, "testdata", "mcpclient", "node_modules", "@mcp-b", "global", "dist", "index.iife.js"),
		"MCP-B's @mcp-b/global as a script `file` (testdata/out/mcpb-global.js is make mcpclient's unminified bundle)")
	fl.StringVar(&o.only, "only", "", `run one section: "lighthouse", "answer" or "dom"`)
	fl.DurationVar(&o.rtt, "rtt", 0, "first answers: emulated round-trip time (with -down)")
	fl.Float64Var(&o.down, "down", 0, "first answers: emulated download speed in `Mbit/s` (0: no throttling)")
	fl.Float64Var(&o.cpu, "cpu", 0, "first answers: CPU slowdown `factor` (Lighthouse's mobile preset uses 4; 0: none)")
	fl.DurationVar(&o.delay, "contact-delay", 0, "first answers: wait this long after the load event before the first call")
	variants := fl.String("variants", strings.Join(Variants, ","), "the `pages` Lighthouse runs, the baseline first (also: "+strings.Join(Extras, ", ")+")")
	answerVariants := fl.String("answer-variants", strings.Join(AnswerVariants, ","), "the `pages` whose first answer is timed")
	fl.StringVar(&o.md, "md", "", "write the results as a Markdown table to this `file` (default testdata/bench/PAGECOST.md, the table the docs link to, unless -only, -variants or -answer-variants makes the run partial)")
	fl.StringVar(&o.mdFrom, "md-from", "", "instead of measuring, render the results in this JSON `file` (e.g. testdata/out/pagecost.json) as Markdown to -md")
	if err := fl.Parse(args); err != nil {
		return o, err
	}
	partial, mdSet := false, false
	fl.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "only", "variants", "answer-variants":
			partial = true
		case "md":
			mdSet = true
		}
	})
	if !mdSet && (o.mdFrom != "" || !partial) {
		o.md = filepath.Join(root, "testdata", "bench", "PAGECOST.md")
	}
	o.variants, o.answerVariants = splitList(*variants), splitList(*answerVariants)
	if fl.NArg() > 0 || o.runs < 1 || o.answers < 0 || o.down < 0 || o.rtt < 0 || o.cpu < 0 || o.delay < 0 ||
		o.dom < 0 || (o.only != "" && o.only != "lighthouse" && o.only != "answer" && o.only != "dom") || len(o.variants) < 1 {
		return o, errors.New("usage: pagecost [-runs N] [-answers N] [-pause D] [-dom N] [-only lighthouse|answer|dom] [-variants a,b] [-answer-variants a,b] " +
			"[-rtt D -down Mbit/s] [-cpu F] [-contact-delay D] [-mcpb FILE] [-out FILE] [-lhr-dir DIR]")
	}
	for _, v := range append(slices.Clone(o.variants), o.answerVariants...) {
		if !slices.Contains(Variants, v) && !slices.Contains(Extras, v) {
			return o, fmt.Errorf("no page %q: the pages are %s", v, strings.Join(append(slices.Clone(Variants), Extras...), ", "))
		}
	}
	return o, nil
}

// loadAverage is the system's load average over the last minute, or "" where
// /proc/loadavg does not say.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func splitList(s string) []string {
	var l []string
	for v := range strings.SplitSeq(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			l = append(l, v)
		}
	}
	return l
}

func run(args []string, stdout io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	if o.mdFrom != "" {
		if err := renderFrom(o.mdFrom, o.md); err != nil {
			return err
		}
		logf("wrote %s from %s", o.md, o.mdFrom)
		return nil
	}
	if o.chromium, err = browsertest.ChromiumPath(); err != nil {
		return err
	}
	srv, err := startServer(o.root, o.mcpb)
	if err != nil {
		return err
	}
	defer srv.Close()

	res := Results{Date: time.Now().UTC().Format(time.RFC3339), Runs: o.runs, CPUs: runtime.NumCPU(), LoadStart: loadAverage(),
		Commit: gendoc.Commit(o.root), Browser: gendoc.ChromiumVersion(o.chromium)}
	if o.only == "" || o.only == "lighthouse" {
		lh, err := newLighthouse(o)
		if err != nil {
			return err
		}
		if res.Lighthouse, err = lighthouseSection(lh, srv.URL, o); err != nil {
			return err
		}
	}
	if (o.only == "" || o.only == "answer") && o.answers > 0 {
		if res.Answers, err = answerSection(srv.URL, o); err != nil {
			return err
		}
	}
	if (o.only == "" || o.only == "dom") && o.dom > 0 {
		if res.DOM, err = domSection(srv.URL, o.dom); err != nil {
			return err
		}
	}
	res.LoadEnd = loadAverage()
	res.Targets = checkTargets(res.Lighthouse, res.Answers)
	printResults(stdout, res)
	if err := writeJSON(o.out, res); err != nil {
		return err
	}
	if o.md != "" {
		if err := markdown(&res).WriteFile(o.md); err != nil {
			return err
		}
		logf("wrote %s", o.md)
	}
	return nil
}
