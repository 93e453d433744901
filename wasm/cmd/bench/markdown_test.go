package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc/gendoctest"
)

// benchFixture is a small run: two workloads (one met, one missed and with
// the clock disagreeing), one MCP row and no start-up.
func benchFixture() *Results {
	row := func(key string, ours, ref, paired, wall float64) Row {
		w := workloadOf(key)
		r := Row{Key: key, Label: w.Label, Ops: 100, Rounds: 21, Target: w.Max,
			OursCPU: Stats{Median: ours}, RefCPU: Stats{Median: ref},
			Paired: Stats{Median: paired, Q1: paired - 0.05, Q3: paired + 0.1}, PairedRatio: wall}
		if isMCP(w.Set) {
			r.Vs = setImpls[w.Set][1]
		}
		return r
	}
	res := &Results{Date: "2026-01-02T03:04:05Z", Commit: "0123456789ab", GoVersion: "go1.26.0",
		Browser: "Mozilla/5.0 (X11) HeadlessChrome/156.0.0.0 Safari/537.36", CPUs: 2, Load: [2]float64{3.25, 4.5}, Rounds: 21,
		Workloads: []Row{row("push-small", 2.2, 2, 1.1, 1.12), row("handler", 3, 2, 1.5, 3.1)},
		MCP:       []Row{row("mcp-read", 30, 60, 0.5, 0.55)},
		Size:      []Size{{Impl: "ours", Files: []string{"dist/modelcontext.wasm", "dist/modelcontext.js"}, Raw: 1000, Gzip: 500, Brotli: 400, FileBrotli: []int{390, 10}}},
	}
	res.Targets = checkTargets(res)
	return res
}

func TestMarkdown(t *testing.T) {
	md := markdown(benchFixture()).String()
	for _, want := range []string{
		"<!-- Written by make bench (wasm/cmd/bench) from the results of one run (testdata/out/bench.json); do not edit. -->\n",
		"Run of 2026-01-02T03:04:05Z, commit 0123456789ab: go1.26.0, HeadlessChrome/156.0.0.0, 2 CPUs, load average 3.2 at the start and 4.5 at the end",
		"| workload | ops per batch | rounds | ours µs | ref µs | ratio | quartiles | wall | target |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n",
		"| push, small value (~40 B) | 100 | 21 | 2.20 | 2.00 | 1.10× | 1.05–1.20 | 1.12× | ≤ 1.20× ok |\n",
		"| subscribeResource handler delivery | 100 | 21 | 3.00 | 2.00 | 1.50× | 1.45–1.60 | 3.10× ! | ≤ 1.20× MISS |\n",
		"| workload | ops per batch | rounds | ours µs | MCP-B µs | ratio |",
		"| MCP read round trip | 100 | 21 | 30.00 | 60.00 | 0.50× | 0.45–0.60 | 0.55× | ≤ 0.60× ok |\n",
		"MCP-B: @mcp-b/global's own server.",
		"## Start-up\n\nNot measured in this run",
		"| ours | dist/modelcontext.wasm + dist/modelcontext.js | 1000 | 500 | 400 |\n",
		"| MISS | subscribeResource handler delivery: within 1.2× of the reference | 1.50× paired CPU",
		"| ok | the .wasm no larger than 443 KB brotli | 0.4 KB (390 bytes) |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "A/B run") {
		t.Error("a run against the reference says it is an A/B run")
	}
}

// An A/B run says so and checks no target; a start-up measured has its table.
func TestMarkdownAgainstAndReady(t *testing.T) {
	res := benchFixture()
	res.Against, res.Targets = "/tmp/old", nil
	res.Ready = &Ready{Ours: Stats{Median: 120, Samples: []float64{1, 2, 3}}, Ref: Stats{Median: 20}, Bare: Stats{Median: 100},
		Paired: Stats{Median: 1.2, Q1: 1.1, Q3: 1.3}, ScriptsRan: map[string]Stats{"ours": {Median: 1.5}}}
	md := markdown(res).String()
	for _, want := range []string{
		"**A/B run**: the ref columns measure the build in /tmp/old",
		"| push, small value (~40 B) | 100 | 21 | 2.20 | 2.00 | 1.10× | 1.05–1.20 | 1.12× |  |\n",
		"median of 3 rounds",
		"| until ready, wall-clock | 120.0 | 20.0 | 100.0 | 1.20× | 1.10–1.30 |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "## Targets") {
		t.Error("an A/B run has targets")
	}
}

// -md-from renders a run's JSON as the run itself would have: the JSON
// keeps all the table needs.
func TestRenderFrom(t *testing.T) {
	gendoctest.RenderFrom(t, benchFixture(), renderFrom, func(r *Results) string { return markdown(r).String() })
}

// A full run writes BENCH.md by default; a partial one only where -md says.
func TestMarkdownDefault(t *testing.T) {
	def := filepath.Join("/r", "testdata", "bench", "BENCH.md")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, def},
		{[]string{"-ready", "0"}, def},
		{[]string{"-only", "push"}, ""},
		{[]string{"-against", "/tmp/old"}, ""},
		{[]string{"-only", "push", "-md", "/tmp/x.md"}, "/tmp/x.md"},
		{[]string{"-md", ""}, ""},
		{[]string{"-md-from", "/tmp/b.json"}, def},
	} {
		o, err := parseFlags(c.args, "/r")
		if err != nil {
			t.Fatal(err)
		}
		if o.md != c.want {
			t.Errorf("%q: -md %q, want %q", c.args, o.md, c.want)
		}
	}
}
