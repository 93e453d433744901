package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc/gendoctest"
)

// pagecostFixture is a small run: three Lighthouse variants, the first
// answer of two, a busy DOM and the targets.
func pagecostFixture() Results {
	lh := lighthouseFixture(reports([5]float64{0, 1000, 230, 22000, 0}, [5]float64{5, 990, 280, 22000, 0}, [5]float64{20, 1010, 240, 22000, 0}))
	cold := []Visit{{AnswerMs: 80, Wasm: WasmFetch{How: "network", TransferSize: 502000}}, {AnswerMs: 90, Wasm: WasmFetch{How: "network", TransferSize: 502000}}}
	repeat := []Visit{{AnswerMs: 40, Wasm: WasmFetch{How: "304", TransferSize: 300}}, {AnswerMs: 50, Wasm: WasmFetch{How: "304", TransferSize: 300}}}
	ans := &AnswerResults{N: 2, PauseMs: 5000, Conditions: "network: loopback", Variants: []AnswerVariant{
		{Name: "lazy", Cold: cold, Repeat: repeat, ColdMs: summarize([]float64{80, 90}), RepeatMs: summarize([]float64{40, 50})},
	}}
	dom := &DOMResults{Rounds: 40, Without: summarize([]float64{100, 110}), With: summarize([]float64{105, 121}), Ratio: summarize([]float64{1.05, 1.1}),
		Conditions: "not throttled", PerRoundUs: 150}
	return Results{Date: "2026-01-02T03:04:05Z", Commit: "0123456789ab", Browser: "Chromium 156.0.1.2", CPUs: 2, LoadStart: "3.10", LoadEnd: "4.20",
		Runs: 3, Lighthouse: lh, Answers: ans, DOM: dom, Targets: checkTargets(lh, ans)}
}

func TestMarkdown(t *testing.T) {
	fixture := pagecostFixture()
	md := markdown(&fixture).String()
	for _, want := range []string{
		"<!-- Written by make bench-page (wasm/cmd/pagecost) from the results of one run (testdata/out/pagecost.json); do not edit. -->\n",
		"Run of 2026-01-02T03:04:05Z, commit 0123456789ab: Chromium 156.0.1.2, 2 CPUs, load average 3.10 at the start and 4.20 at the end.",
		"Lighthouse 12.2.3, Lighthouse defaults: mobile form factor",
		"median [min–max] of 3 interleaved rounds",
		"| metric | plain | lazy | eager |\n|---|---:|---:|---:|\n",
		"| LCP ms | 955 [950–960] | 1000 [990–1010] | 1250 [1200–1300] |\n",
		"### Against plain\n",
		"| metric | lazy | eager |\n",
		"| bytes KB | +18.0 [+18.0–+18.0] | +520.0 [+520.0–+520.0] |\n",
		"| lazy | 85.0 [80.0–90.0] | 45.0 [40.0–50.0] | network 2/2, 502.0 KB | 304 2/2, 0.3 KB |\n",
		"| with / without, paired | 1.08× [1.05–1.10], +150 µs a round |\n",
		"| ok | default boot vs plain: TBT | +5 ms (limit +10 ms); median of the paired deltas |\n",
		"| ok | default boot: first answer on a repeat visit measured | 2 samples; median 45 ms |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	// A run of one section has only that section's heading.
	res := pagecostFixture()
	res.Lighthouse, res.DOM, res.Targets = nil, nil, nil
	md = markdown(&res).String()
	if strings.Contains(md, "## Lighthouse") || strings.Contains(md, "## Busy DOM") || !strings.Contains(md, "## First answer") {
		t.Errorf("the first answer alone:\n%s", md)
	}
}

// -md-from renders a run's JSON as the run itself would have.
func TestRenderFrom(t *testing.T) {
	res := pagecostFixture()
	gendoctest.RenderFrom(t, &res, renderFrom, func(r *Results) string { return markdown(r).String() })
}

// A full run writes PAGECOST.md by default; a partial one only where -md says.
func TestMarkdownDefault(t *testing.T) {
	def := filepath.Join(browsertest.RepoRoot(), "testdata", "bench", "PAGECOST.md")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, def},
		{[]string{"-runs", "2"}, def},
		{[]string{"-only", "answer"}, ""},
		{[]string{"-variants", "plain,lazy"}, ""},
		{[]string{"-only", "dom", "-md", "/tmp/x.md"}, "/tmp/x.md"},
		{[]string{"-md-from", "/tmp/p.json"}, def},
	} {
		o, err := parseFlags(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if o.md != c.want {
			t.Errorf("%q: -md %q, want %q", c.args, o.md, c.want)
		}
	}
}
