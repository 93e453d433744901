package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// workload is one row of the table: a workload of testdata/bench/bench.js (or,
// for the set "mcp", of testdata/bench/mcp.js) run in the tab of a workload
// set.
type workload struct {
	Key    string // in the table and the JSON
	JS     string // the name bench.js (mcp.js) knows it by
	Set    string // "main" (a few resources registered), "list" (1,000) or "mcp"
	Label  string
	Target target
}

// target is the goal a workload is checked against.
type target uint8

const (
	noTarget             target = iota
	targetCrossings             // overhead over the reference ≤ maxCrossings bare crossings
	targetRatio                 // ours ≤ maxLargeRatio × the reference
	targetFasterThanMCPB        // ours < MCP-B's server, through the same client
)

// The targets of the issue.
const (
	maxCrossings  = 1.2
	maxLargeRatio = 1.5
	maxReadyRatio = 1.15 // ready of ours ≤ this × ready of the bare Go program
)

var workloads = []workload{
	{"push-small", "push-small", "main", "push, small value (~40 B)", targetCrossings},
	{"push-10k", "push-10k", "main", "push, ~10 KB value", noTarget},
	{"push-100k", "push-100k", "main", "push, ~100 KB value", targetRatio},
	{"push-suppressed", "push-suppressed", "main", "push, value unchanged (suppressed)", targetCrossings},
	{"read-small", "read-small", "main", "readResource, small value (await each)", targetCrossings},
	{"handler", "handler", "main", "subscribeResource handler delivery", targetCrossings},
	{"get-resources", "get-resources", "list", "getResources(), 1,000 resources", noTarget},
	{"register-cycle", "register-cycle", "main", "register + unregister (6 registered)", noTarget},
	{"register-cycle-1000", "register-cycle", "list", "register + unregister (1,000 registered)", noTarget},
	{"mcp-read", "mcp-read", "mcp", "MCP read round trip", targetFasterThanMCPB},
}

var impls = []string{"ours", "ref"}

// The workload sets, in the order their tabs open, and the two
// implementations each compares (ours first): the set "mcp" runs on
// mcp.html, where the stock MCP client talks to our server or to MCP-B's
// (@mcp-b/global; in -against mode the -against build stands in for it).
var (
	workloadSets = []string{"main", "list", "mcp"}
	setImpls     = map[string][]string{"main": impls, "list": impls, "mcp": {"ours", "mcpb"}}
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

type options struct {
	out     string
	rounds  int
	ready   int
	batchMs float64
	goCmd   string
	dist    string // another build of the module to measure, or ""
	against string // a build of the module to measure in place of the reference, or ""
	noSize  bool
	only    string
	// profile names a workload to run under V8's profiler instead of the
	// bench; profileFor is how long per implementation.
	profile    string
	profileFor time.Duration
}

func parseFlags(args []string, root string) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.out, "out", filepath.Join(root, "testdata", "out", "bench.json"), "write the results as JSON to this `file`")
	fs.IntVar(&o.rounds, "rounds", 21, "interleaved rounds per workload")
	fs.IntVar(&o.ready, "ready", 10, "start-up samples (fresh tabs) per implementation")
	fs.Float64Var(&o.batchMs, "batch-ms", 15, "calibrate batches so that the faster implementation's takes about this many `ms`")
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	fs.StringVar(&o.goCmd, "go", goCmd, "the go `command` that builds the bare program (default $GO, else go)")
	fs.StringVar(&o.dist, "dist", "", "measure the module in this `directory` (modelcontext.js and modelcontext.wasm) instead of dist/")
	fs.StringVar(&o.against, "against", "", "A/B mode: measure the module in this `directory` in place of the reference (the ref column), e.g. a build with a change to js/loader.js; targets are not checked")
	fs.BoolVar(&o.noSize, "no-size", false, "skip the download sizes (brotli at its best setting takes a few seconds)")
	fs.StringVar(&o.only, "only", "", "run only the workloads whose key contains this `text` (and skip start-up unless it matches \"ready\")")
	fs.StringVar(&o.profile, "profile", "", "instead of the bench, profile this `workload` in both implementations with V8's sampling profiler and print where the time goes (writes .cpuprofile files beside -out)")
	fs.DurationVar(&o.profileFor, "profile-for", 3*time.Second, "how long to profile each implementation")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.rounds < 1 || o.ready < 0 || o.batchMs <= 0 {
		return o, errors.New("-rounds must be ≥ 1, -ready ≥ 0 and -batch-ms > 0")
	}
	return o, nil
}

// Results is what -out receives.
type Results struct {
	Date      string         `json:"date"`
	GoVersion string         `json:"go"`
	Browser   string         `json:"browser"`
	CPUs      int            `json:"cpus"`
	Rounds    int            `json:"rounds"`
	BatchMs   float64        `json:"batch_ms"`
	Dist      string         `json:"dist,omitempty"`    // -dist, when given
	Against   string         `json:"against,omitempty"` // -against: the ref columns measure this build
	Setup     map[string]any `json:"setup"`
	Crossing  *Stats         `json:"crossing_us,omitempty"`
	Workloads []Row          `json:"workloads"`
	MCP       []MCPRow       `json:"mcp,omitempty"`
	Ready     *Ready         `json:"ready,omitempty"`
	Size      []Size         `json:"size,omitempty"`
	Targets   []Check        `json:"targets"`
	Seconds   float64        `json:"seconds"`
}

// Stats summarises samples (µs per operation, or ms for start-up).
type Stats struct {
	Median  float64   `json:"median"`
	Q1      float64   `json:"q1"`
	Q3      float64   `json:"q3"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Ops     int       `json:"ops,omitempty"`
	Samples []float64 `json:"samples"`
}

// Row is one workload, in µs per operation.
type Row struct {
	Key   string `json:"workload"`
	Label string `json:"label"`
	Ops   int    `json:"ops"`
	Ours  Stats  `json:"ours_us"`
	Ref   Stats  `json:"ref_us"`
	// Ratio is median(ours) / median(ref); PairedRatio the median over the
	// rounds of ours / ref in the same round.
	Ratio       float64 `json:"ratio"`
	PairedRatio float64 `json:"paired_ratio"`
	// Crossings is (median(ours) − median(ref)) / median(crossing).
	Crossings float64 `json:"overhead_crossings"`
}

// MCPRow is a workload over MCP through the stock SDK client and tab
// transport (mcp.html), in µs per operation: our server against MCP-B's.
type MCPRow struct {
	Key   string `json:"workload"`
	Label string `json:"label"`
	Ops   int    `json:"ops"`
	// Vs is what MCPB measures: "mcpb", MCP-B's @mcp-b/global, or in
	// -against mode "against", the -against build serving MCP.
	Vs   string `json:"vs"`
	Ours Stats  `json:"ours_us"`
	MCPB Stats  `json:"mcpb_us"`
	// Ratio is median(ours) / median(mcpb); PairedRatio the median over the
	// rounds of ours / mcpb in the same round.
	Ratio       float64 `json:"ratio"`
	PairedRatio float64 `json:"paired_ratio"`
}

// Ready is the start-up: ms from navigation start until ready resolved.
type Ready struct {
	Ours  Stats   `json:"ours_ms"`
	Ref   Stats   `json:"ref_ms"`
	Bare  Stats   `json:"bare_ms"`
	Ratio float64 `json:"ours_over_bare"`
	// From the start of the .wasm request until ready: the part that
	// depends on the module, without the page's own loading.
	OursFromWasm  Stats   `json:"ours_from_wasm_request_ms"`
	BareFromWasm  Stats   `json:"bare_from_wasm_request_ms"`
	RatioFromWasm float64 `json:"ours_over_bare_from_wasm_request"`
	// How long the implementation's script tags ran once downloaded.
	ScriptsRan map[string]Stats    `json:"scripts_ran_ms"`
	Timings    map[string][]timing `json:"timings"`
}

// Check is one target of the issue.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

func run(args []string, stdout io.Writer) error {
	start := time.Now()
	root := browsertest.RepoRoot()
	o, err := parseFlags(args, root)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...) }

	dist := filepath.Join(root, "dist")
	if o.dist != "" {
		if dist, err = filepath.Abs(o.dist); err != nil {
			return err
		}
	}
	for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			if o.dist != "" {
				return fmt.Errorf("-dist: %w", err)
			}
			return fmt.Errorf("dist/%s not found: run make build first", f)
		}
	}
	if o.dist == "" {
		if stale := staleDist(root); stale != "" {
			logf("warning: %s is newer than dist/; run make build to measure it", stale)
		}
	}

	if needsMCP(o) {
		if err := checkMCPBundles(root); err != nil {
			return err
		}
	}

	tmp, err := os.MkdirTemp("", "modelcontext-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	logf("building testdata/bench/bare")
	bare := filepath.Join(tmp, "bare.wasm")
	wasmExec, err := buildBare(o.goCmd, root, bare)
	if err != nil {
		return err
	}

	res := &Results{
		Date:      time.Now().UTC().Format(time.RFC3339),
		GoVersion: runtime.Version(),
		CPUs:      runtime.NumCPU(),
		Rounds:    o.rounds,
		BatchMs:   o.batchMs,
		Setup:     map[string]any{},
	}

	against := ""
	if o.against != "" {
		if against, err = filepath.Abs(o.against); err != nil {
			return err
		}
		for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
			if _, err := os.Stat(filepath.Join(against, f)); err != nil {
				return fmt.Errorf("-against: %w", err)
			}
		}
		res.Against = against
	}
	if !o.noSize {
		logf("measuring download sizes")
		if res.Size, err = measureSizes(root, dist, against, bare, wasmExec); err != nil {
			return err
		}
	}
	srv := browsertest.NewServer(benchRoutes(root, bare, wasmExec, o.dist != "", dist, against))
	defer srv.Close()
	logf("starting Chromium")
	br, err := browsertest.NewBrowser()
	if err != nil {
		return err
	}
	defer br.Close()
	d := &driver{br: br, srv: srv, logf: logf}
	if o.dist != "" {
		d.query = "&dist=/bench/dist/"
		res.Dist = dist
	}
	d.against = against != ""
	defer d.closeAll()
	if o.profile != "" {
		return d.profileWorkload(o, o.profile, stdout)
	}

	if o.only == "" || strings.Contains("ready", o.only) {
		if o.ready > 0 {
			if res.Ready, err = d.measureReady(o.ready); err != nil {
				return err
			}
		}
	}
	var selected []workload
	for _, w := range workloads {
		if o.only == "" || strings.Contains(w.Key, o.only) {
			selected = append(selected, w)
		}
	}
	if len(selected) > 0 {
		if err := d.measureWorkloads(o, selected, res); err != nil {
			return err
		}
	}
	res.Browser = d.userAgent
	if res.Against == "" {
		res.Targets = checkTargets(res)
	}
	res.Seconds = math.Round(time.Since(start).Seconds()*10) / 10

	printTable(stdout, res)
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(o.out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	logf("wrote %s (%.0f s in all)", o.out, res.Seconds)
	return nil
}

// needsMCP reports whether the run includes an MCP workload (set "mcp").
func needsMCP(o options) bool {
	for _, w := range workloads {
		if w.Set != "mcp" {
			continue
		}
		if o.profile != "" {
			if o.profile == w.Key {
				return true
			}
		} else if o.only == "" || strings.Contains(w.Key, o.only) {
			return true
		}
	}
	return false
}

// buildBare builds testdata/bench/bare to out and returns the path of the
// wasm_exec.js of the same Go.
func buildBare(goCmd, root, out string) (string, error) {
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./testdata/bench/bare")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building testdata/bench/bare: %v\n%s", err, b)
	}
	b, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	p := filepath.Join(strings.TrimSpace(string(b)), "lib", "wasm", "wasm_exec.js")
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// staleDist names a source of the module that is newer than dist/, or "".
func staleDist(root string) string {
	var oldest time.Time
	for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
		st, err := os.Stat(filepath.Join(root, "dist", f))
		if err != nil {
			return ""
		}
		if oldest.IsZero() || st.ModTime().Before(oldest) {
			oldest = st.ModTime()
		}
	}
	newer := ""
	check := func(p string) {
		if st, err := os.Stat(p); err == nil && st.ModTime().After(oldest) && newer == "" {
			newer, _ = filepath.Rel(root, p)
		}
	}
	check(filepath.Join(root, "js", "loader.js"))
	filepath.WalkDir(filepath.Join(root, "wasm"), func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") &&
			!strings.Contains(p, string(filepath.Separator)+"cmd"+string(filepath.Separator)+"bench") {
			check(p)
		}
		return nil
	})
	return newer
}

// summarize sorts a copy of samples and returns its quartiles.
func summarize(samples []float64, ops int) Stats {
	if len(samples) == 0 {
		return Stats{Ops: ops}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	return Stats{Median: quantile(s, 0.5), Q1: quantile(s, 0.25), Q3: quantile(s, 0.75),
		Min: s[0], Max: s[len(s)-1], Ops: ops, Samples: roundAll(samples)}
}

// quantile interpolates linearly in sorted s.
func quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	x := q * float64(len(s)-1)
	i := int(x)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (x-float64(i))*(s[i+1]-s[i])
}

func median(s []float64) float64 {
	c := slices.Clone(s)
	slices.Sort(c)
	return quantile(c, 0.5)
}

func roundAll(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = round3(v)
	}
	return out
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// workloadOf returns the workload of a key.
func workloadOf(key string) workload {
	for _, w := range workloads {
		if w.Key == key {
			return w
		}
	}
	return workload{}
}

func checkTargets(res *Results) []Check {
	var out []Check
	for _, r := range res.Workloads {
		switch workloadOf(r.Key).Target {
		case targetCrossings:
			if res.Crossing == nil {
				continue
			}
			out = append(out, Check{
				Name: r.Label + ": overhead over the reference ≤ 1.2 bare crossings",
				OK:   r.Crossings <= maxCrossings,
				Detail: fmt.Sprintf("%.3f crossings ((%.2f − %.2f) µs / %.2f µs)",
					r.Crossings, r.Ours.Median, r.Ref.Median, res.Crossing.Median),
			})
		case targetRatio:
			out = append(out, Check{
				Name:   r.Label + ": within 1.5× of the reference",
				OK:     r.Ratio <= maxLargeRatio,
				Detail: fmt.Sprintf("%.2f× (%.1f µs vs %.1f µs)", r.Ratio, r.Ours.Median, r.Ref.Median),
			})
		}
	}
	for _, r := range res.MCP {
		if r.Vs != "mcpb" || workloadOf(r.Key).Target != targetFasterThanMCPB {
			continue
		}
		out = append(out, Check{
			Name:   r.Label + ": faster than MCP-B's own server through the same client",
			OK:     r.Ours.Median < r.MCPB.Median,
			Detail: fmt.Sprintf("%.2f× (%.1f µs vs %.1f µs; paired %.2f×)", r.Ratio, r.Ours.Median, r.MCPB.Median, r.PairedRatio),
		})
	}
	if res.Ready != nil {
		out = append(out, Check{
			Name:   "ready: within 1.15× of the bare Go program",
			OK:     res.Ready.Ratio <= maxReadyRatio,
			Detail: fmt.Sprintf("%.2f× (%.1f ms vs %.1f ms)", res.Ready.Ratio, res.Ready.Ours.Median, res.Ready.Bare.Median),
		})
	}
	return out
}

func printTable(w io.Writer, res *Results) {
	fmt.Fprintf(w, "modelcontext bench: %s, %s, %d CPUs, %d interleaved rounds, median per operation\n\n",
		res.GoVersion, browserName(res.Browser), res.CPUs, res.Rounds)
	if res.Against != "" {
		fmt.Fprintf(w, "A/B: the ref columns measure %s, not the reference\n\n", res.Against)
	}
	if len(res.Workloads) > 0 {
		fmt.Fprintf(w, "%-42s %7s %10s %10s %7s %12s\n", "workload", "ops", "ours µs", "ref µs", "ratio", "crossings")
		for _, r := range res.Workloads {
			cross := "-"
			if res.Crossing != nil {
				cross = fmt.Sprintf("%+.3f", r.Crossings)
			}
			fmt.Fprintf(w, "%-42s %7d %10.2f %10.2f %6.2f× %12s\n", r.Label, r.Ops, r.Ours.Median, r.Ref.Median, r.Ratio, cross)
		}
		if c := res.Crossing; c != nil {
			fmt.Fprintf(w, "%-42s %7d %10.2f %10s   (bare Go: the unit of the last column)\n", "crossing: JS → Go js.FuncOf no-op", c.Ops, c.Median, "")
		}
		fmt.Fprintln(w, "\n  crossings = (ours − ref) / crossing; ratio = ours / ref (medians over the rounds)")
	}
	if len(res.MCP) > 0 {
		other, who := "MCP-B µs", "MCP-B: @mcp-b/global's own server"
		if res.MCP[0].Vs == "against" {
			other, who = "against µs", "against: the -against build's server"
		}
		if len(res.Workloads) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "MCP resources/read, the stock SDK Client on @mcp-b/transports' tab transport (median per round trip)")
		fmt.Fprintf(w, "%-42s %7s %10s %11s %7s %8s\n", "workload", "ops", "ours µs", other, "ratio", "paired")
		for _, r := range res.MCP {
			fmt.Fprintf(w, "%-42s %7d %10.2f %11.2f %6.2f× %7.2f×\n", r.Label, r.Ops, r.Ours.Median, r.MCPB.Median, r.Ratio, r.PairedRatio)
		}
		fmt.Fprintf(w, "\n  %s, same client and transport, a page each; ratio = ours / it; paired = median of the per-round ratios\n", who)
	}
	if r := res.Ready; r != nil {
		fmt.Fprintf(w, "\nstart-up, navigation start → ready (median of %d fresh tabs, ms)\n", len(r.Ours.Samples))
		fmt.Fprintf(w, "  ours %.1f   ref %.1f   bare Go %.1f   ours/bare %.2f×\n", r.Ours.Median, r.Ref.Median, r.Bare.Median, r.Ratio)
		fmt.Fprintf(w, "  from the .wasm request to ready: ours %.1f   bare Go %.1f   ours/bare %.2f×\n",
			r.OursFromWasm.Median, r.BareFromWasm.Median, r.RatioFromWasm)
		fmt.Fprintf(w, "  script tags ran (once downloaded): ours %.1f   ref %.1f   bare Go %.1f\n",
			r.ScriptsRan["ours"].Median, r.ScriptsRan["ref"].Median, r.ScriptsRan["bare"].Median)
	}
	if len(res.Size) > 0 {
		fmt.Fprintf(w, "\ndownload (bytes)\n  %-10s %-44s %10s %10s %10s\n", "", "files", "raw", "gzip", "brotli")
		for _, s := range res.Size {
			fmt.Fprintf(w, "  %-10s %-44s %10d %10d %10d\n", s.Impl, strings.Join(s.Files, " + "), s.Raw, s.Gzip, s.Brotli)
		}
	}
	if len(res.Targets) > 0 {
		fmt.Fprintln(w, "\ntargets")
		for _, c := range res.Targets {
			mark := "MISS"
			if c.OK {
				mark = "ok  "
			}
			fmt.Fprintf(w, "  %s %s: %s\n", mark, c.Name, c.Detail)
		}
	}
}

// browserName shortens a user agent to "Chrome/NNN…".
func browserName(ua string) string {
	for _, f := range strings.Fields(ua) {
		if strings.HasPrefix(f, "HeadlessChrome/") || strings.HasPrefix(f, "Chrome/") {
			return f
		}
	}
	if ua == "" {
		return "Chromium"
	}
	return ua
}
