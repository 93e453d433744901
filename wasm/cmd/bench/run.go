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
	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
	"github.com/modelcontext-go/modelcontext/wasm/internal/stats"
)

type options struct {
	out       string
	rounds    int
	maxRounds int
	ready     int
	maxReady  int
	batchMs   float64
	goCmd     string
	dist      string // another build of the module to measure, or ""
	against   string // a build of the module to measure in place of the reference, or ""
	noSize    bool
	only      string
	// profile names a workload to run under V8's profiler instead of the
	// bench; profileFor is how long per implementation.
	profile    string
	profileFor time.Duration
	// md is where the Markdown table goes ("" for nowhere); mdFrom a run's
	// JSON to render instead of running the bench.
	md, mdFrom string
}

func parseFlags(args []string, root string) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.out, "out", filepath.Join(root, "testdata", "out", "bench.json"), "write the results as JSON to this `file`")
	fs.IntVar(&o.rounds, "rounds", 21, "interleaved rounds per workload")
	fs.IntVar(&o.maxRounds, "max-rounds", 0, "run up to this many rounds of a workload while its target is within the uncertainty of its median (default 3 × -rounds)")
	fs.IntVar(&o.ready, "ready", 15, "start-up rounds (a fresh tab per implementation each)")
	fs.IntVar(&o.maxReady, "max-ready", 0, "up to this many start-up rounds while the target is within the uncertainty of the median (default 2 × -ready)")
	fs.Float64Var(&o.batchMs, "batch-ms", 15, "calibrate batches so that the faster implementation's takes about this many `ms` of CPU time")
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	fs.StringVar(&o.goCmd, "go", goCmd, "the go `command` that builds the bare program (default $GO, else go)")
	fs.StringVar(&o.dist, "dist", "", "measure the module in this `directory` (modelcontext.js and modelcontext.wasm) instead of dist/")
	fs.StringVar(&o.against, "against", "", "A/B mode: measure the module in this `directory` in place of the reference (the ref column), e.g. a build with a change to js/loader.js; targets are not checked")
	fs.BoolVar(&o.noSize, "no-size", false, "skip the download sizes (brotli at its best setting takes a few seconds)")
	fs.StringVar(&o.only, "only", "", "run only the workloads whose key contains this `text`, or one of several separated by commas; \"ready\", \"startup\" and \"floor\" select those sections, which run only when one matches")
	fs.StringVar(&o.profile, "profile", "", "instead of the bench, profile this `workload` in both implementations with V8's sampling profiler and print where the time goes (writes .cpuprofile files beside -out)")
	fs.DurationVar(&o.profileFor, "profile-for", 3*time.Second, "how long to profile each implementation")
	defaultMD := filepath.Join(root, "testdata", "bench", "BENCH.md")
	fs.StringVar(&o.md, "md", "", "write the results as a Markdown table to this `file` (default testdata/bench/BENCH.md, the table the docs link to, unless -only, -dist, -against or -profile makes the run partial)")
	fs.StringVar(&o.mdFrom, "md-from", "", "instead of the bench, render the results in this JSON `file` (e.g. testdata/out/bench.json) as Markdown to -md")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	mdSet := false
	fs.Visit(func(f *flag.Flag) { mdSet = mdSet || f.Name == "md" })
	if !mdSet && (o.mdFrom != "" || o.only == "" && o.dist == "" && o.against == "" && o.profile == "") {
		o.md = defaultMD
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.rounds < 1 || o.ready < 0 || o.batchMs <= 0 {
		return o, errors.New("-rounds must be ≥ 1, -ready ≥ 0 and -batch-ms > 0")
	}
	if o.maxRounds == 0 {
		o.maxRounds = 3 * o.rounds
	}
	if o.maxReady == 0 {
		o.maxReady = 2 * o.ready
	}
	o.maxRounds, o.maxReady = max(o.maxRounds, o.rounds), max(o.maxReady, o.ready)
	return o, nil
}

// selects reports whether -only selects the workload key ("ready" for
// start-up): there is no -only, or key contains one of its comma-separated
// parts.
func (o options) selects(key string) bool {
	if o.only == "" {
		return true
	}
	for _, part := range strings.Split(o.only, ",") {
		if part != "" && strings.Contains(key, part) {
			return true
		}
	}
	return false
}

// Results is what -out receives.
type Results struct {
	Date string `json:"date"`
	// Commit is the commit checked out when the run started (gendoc.Commit).
	Commit    string `json:"commit,omitempty"`
	GoVersion string `json:"go"`
	Browser   string `json:"browser"`
	CPUs      int    `json:"cpus"`
	// Load is the machine's load average (1 minute) when the run started
	// and when it ended, from /proc/loadavg; 0 where there is none.
	Load     [2]float64     `json:"loadavg"`
	Rounds   int            `json:"rounds"`
	BatchMs  float64        `json:"batch_ms"`
	Dist     string         `json:"dist,omitempty"`    // -dist, when given
	Against  string         `json:"against,omitempty"` // -against: the ref columns measure this build
	Setup    map[string]any `json:"setup"`
	Crossing *Stats         `json:"crossing_us,omitempty"`
	// CrossingCPU is the crossing in main-thread CPU time.
	CrossingCPU *Stats       `json:"crossing_cpu_us,omitempty"`
	Workloads   []Row        `json:"workloads"`
	MCP         []Row        `json:"mcp,omitempty"`
	Floor       []FloorRow   `json:"floor,omitempty"`
	Startup     []StartupRow `json:"startup,omitempty"`
	Ready       *Ready       `json:"ready,omitempty"`
	Size        []Size       `json:"size,omitempty"`
	Targets     []Check      `json:"targets"`
	Seconds     float64      `json:"seconds"`
}

// Stats summarises samples (µs per operation, ms for start-up, or ratios).
type Stats struct {
	Median  float64   `json:"median"`
	Q1      float64   `json:"q1"`
	Q3      float64   `json:"q3"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Ops     int       `json:"ops,omitempty"`
	Samples []float64 `json:"samples"`
}

// Row is one workload, in µs per operation. For the set "mcp" the ref
// columns measure MCP-B's server (Vs "mcpb") or, in -against mode, the
// -against build's (Vs "against").
type Row struct {
	Key    string `json:"workload"`
	Label  string `json:"label"`
	Vs     string `json:"vs,omitempty"`
	Ops    int    `json:"ops"`
	Rounds int    `json:"rounds"`
	// Ours and Ref are wall-clock µs per operation (performance.now() in
	// the page); OursCPU and RefCPU the main thread's CPU µs per operation.
	Ours    Stats `json:"ours_us"`
	Ref     Stats `json:"ref_us"`
	OursCPU Stats `json:"ours_cpu_us"`
	RefCPU  Stats `json:"ref_cpu_us"`
	// Paired is the per-round ratio ours / ref in CPU time, the measure the
	// target is checked on; CI an approximate 95% confidence interval of its
	// median. Ratio is median(ours) / median(ref) and PairedRatio the median
	// of the per-round ratios, both wall-clock.
	Paired      Stats      `json:"paired_cpu"`
	CI          [2]float64 `json:"paired_cpu_ci95"`
	Ratio       float64    `json:"ratio"`
	PairedRatio float64    `json:"paired_ratio"`
	Target      float64    `json:"target,omitempty"`
	// Crossings is (median(ours) − median(ref)) / median(crossing), in CPU
	// time.
	Crossings float64 `json:"overhead_crossings"`
}

// Ready is the start-up: ms from navigation start until ready resolved.
type Ready struct {
	Ours  Stats   `json:"ours_ms"`
	Ref   Stats   `json:"ref_ms"`
	Bare  Stats   `json:"bare_ms"`
	Ratio float64 `json:"ours_over_bare"`
	// Paired is ours / bare per round (the target's measure).
	Paired Stats `json:"ours_over_bare_paired"`
	// OursCPU, RefCPU and BareCPU are the CPU ms of the page's main thread
	// from the start of its renderer process until ready, PairedCPU ours /
	// bare per round: the start-up's main-thread work, which the machine's
	// load does not stretch (compilation on other threads is not in it).
	OursCPU   Stats `json:"ours_main_thread_cpu_ms"`
	RefCPU    Stats `json:"ref_main_thread_cpu_ms"`
	BareCPU   Stats `json:"bare_main_thread_cpu_ms"`
	PairedCPU Stats `json:"ours_over_bare_main_thread_cpu_paired"`
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
	if o.mdFrom != "" {
		if err := renderFrom(o.mdFrom, o.md); err != nil {
			return err
		}
		logf("wrote %s from %s", o.md, o.mdFrom)
		return nil
	}

	dist, err := distDir(root, o, logf)
	if err != nil {
		return err
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

	res := newResults(o)
	res.Commit = gendoc.Commit(root)
	against, err := againstDir(o)
	if err != nil {
		return err
	}
	res.Against = against
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

	if err := d.measure(o, root, tmp, res); err != nil {
		return err
	}
	res.Browser = d.userAgent
	if res.Against == "" {
		res.Targets = checkTargets(res)
	}
	res.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	res.Load[1] = gendoc.LoadAverage()
	if err := writeResults(stdout, o.out, res, logf); err != nil {
		return err
	}
	if o.md != "" {
		if err := markdown(res).WriteFile(o.md); err != nil {
			return err
		}
		logf("wrote %s", o.md)
	}
	return nil
}

// distDir returns the build of the module to measure: -dist, or dist/
// (with a warning when a source of the module is newer), once checked to
// hold the module.
func distDir(root string, o options, logf func(string, ...any)) (string, error) {
	dist := filepath.Join(root, "dist")
	if o.dist != "" {
		var err error
		if dist, err = filepath.Abs(o.dist); err != nil {
			return "", err
		}
	}
	for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			if o.dist != "" {
				return "", fmt.Errorf("-dist: %w", err)
			}
			return "", fmt.Errorf("dist/%s not found: run make build first", f)
		}
	}
	if o.dist == "" {
		if stale := staleDist(root); stale != "" {
			logf("warning: %s is newer than dist/; run make build to measure it", stale)
		}
	}
	return dist, nil
}

// againstDir returns the absolute path of -against, once checked to hold
// the module, or "" without -against.
func againstDir(o options) (string, error) {
	if o.against == "" {
		return "", nil
	}
	against, err := filepath.Abs(o.against)
	if err != nil {
		return "", err
	}
	for _, f := range []string{"modelcontext.js", "modelcontext.wasm"} {
		if _, err := os.Stat(filepath.Join(against, f)); err != nil {
			return "", fmt.Errorf("-against: %w", err)
		}
	}
	return against, nil
}

// newResults starts the results of a run: the machine, the date and the
// options (the load average at the start).
func newResults(o options) *Results {
	return &Results{
		Load:      [2]float64{gendoc.LoadAverage(), 0},
		Date:      time.Now().UTC().Format(time.RFC3339),
		GoVersion: runtime.Version(),
		CPUs:      runtime.NumCPU(),
		Rounds:    o.rounds,
		BatchMs:   o.batchMs,
		Setup:     map[string]any{},
	}
}

// measure runs the sections -only selects, in order: the start-up (ready),
// the workloads, startup and floor.
func (d *driver) measure(o options, root, tmp string, res *Results) error {
	var err error
	if o.selects("ready") {
		if o.ready > 0 {
			if res.Ready, err = d.measureReady(o.ready, o.maxReady); err != nil {
				return err
			}
		}
	}
	var selected []workload
	for _, w := range workloads {
		if o.selects(w.Key) {
			selected = append(selected, w)
		}
	}
	if len(selected) > 0 {
		if err := d.measureWorkloads(o, selected, res); err != nil {
			return err
		}
	}
	if o.selects("startup") {
		if err := d.measureStartup(o, res); err != nil {
			return err
		}
	}
	if o.selects("floor") {
		if err := d.measureFloor(o, root, tmp, res); err != nil {
			return err
		}
	}
	return nil
}

// writeResults prints the table to stdout and writes res as JSON to out.
func writeResults(stdout io.Writer, out string, res *Results, logf func(string, ...any)) error {
	printTable(stdout, res)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	logf("wrote %s (%.0f s in all)", out, res.Seconds)
	return nil
}

// mcpServers names the server an MCP row compares with (its Vs): the
// column's heading and what it is.
var mcpServers = map[string][2]string{
	"mcpb":    {"MCP-B µs", "MCP-B: @mcp-b/global's own server"},
	"against": {"against µs", "against: the -against build's server"},
	"floor":   {"least µs", "least: the least server there can be (mcp.js's floorServer)"},
}

// isMCP reports whether a workload set runs on mcp.html.
func isMCP(set string) bool { return strings.HasPrefix(set, "mcp") }

// needsMCP reports whether the run includes an MCP workload (set "mcp").
func needsMCP(o options) bool {
	for _, w := range workloads {
		if !isMCP(w.Set) {
			continue
		}
		if o.profile != "" {
			if o.profile == w.Key {
				return true
			}
		} else if o.selects(w.Key) {
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

// staleDist names a source of the module that is newer than the dist/ file
// built from it, or "": the loader's files (js/loader, wasm/cmd/jsbuild)
// against the scripts, the module's Go (wasm/, but for the commands other
// than wasm/cmd/modelcontext) against the .wasm.
func staleDist(root string) string {
	built := func(names ...string) (time.Time, bool) {
		var oldest time.Time
		for _, f := range names {
			st, err := os.Stat(filepath.Join(root, "dist", f))
			if err != nil {
				return oldest, false
			}
			if oldest.IsZero() || st.ModTime().Before(oldest) {
				oldest = st.ModTime()
			}
		}
		return oldest, true
	}
	newer := func(dir string, after time.Time, counts func(rel string) bool) string {
		found := ""
		filepath.WalkDir(filepath.Join(root, dir), func(p string, e os.DirEntry, err error) error {
			rel, _ := filepath.Rel(root, p)
			if err == nil && found == "" && !e.IsDir() && counts(filepath.ToSlash(rel)) {
				if st, err := e.Info(); err == nil && st.ModTime().After(after) {
					found = rel
				}
			}
			return nil
		})
		return found
	}
	source := func(rel string) bool { return strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") }
	if t, ok := built("modelcontext.js", "modelcontext-runtime.js"); ok {
		if f := newer("js/loader", t, func(rel string) bool { return strings.HasSuffix(rel, ".js") }); f != "" {
			return f
		}
		if f := newer("wasm/cmd/jsbuild", t, source); f != "" {
			return f
		}
	}
	if t, ok := built("modelcontext.wasm"); ok {
		return newer("wasm", t, func(rel string) bool {
			return source(rel) && (!strings.HasPrefix(rel, "wasm/cmd/") || strings.HasPrefix(rel, "wasm/cmd/modelcontext/"))
		})
	}
	return ""
}

// summarize sorts a copy of samples and returns its quartiles.
func summarize(samples []float64, ops int) Stats {
	if len(samples) == 0 {
		return Stats{Ops: ops}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	return Stats{Median: stats.Quantile(s, 0.5), Q1: stats.Quantile(s, 0.25), Q3: stats.Quantile(s, 0.75),
		Min: s[0], Max: s[len(s)-1], Ops: ops, Samples: roundAll(samples)}
}

func median(s []float64) float64 {
	c := slices.Clone(s)
	slices.Sort(c)
	return stats.Quantile(c, 0.5)
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

// disagree reports whether a row's CPU-time ratio and clock ratio differ
// by more than maxDisagreement either way. Both time the same batches, so on
// a quiet machine they agree; where they do not, one tab had a busy moment
// (or the operation is too short for the clock), and the row says so
// rather than the verdict resting on it unremarked.
func disagree(r Row) bool {
	a, b := r.Paired.Median, r.PairedRatio
	return a > 0 && b > 0 && max(a/b, b/a) > maxDisagreement
}

const maxDisagreement = 1.25

var disagreeNote = fmt.Sprintf("CPU time and the clock disagree by more than %.3g×: a busy moment in one tab, or too short to time by the clock; run again before trusting this row", maxDisagreement)
