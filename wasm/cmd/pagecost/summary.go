package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/modelcontext-go/modelcontext/wasm/internal/stats"
)

// Results is what -out receives.
type Results struct {
	Date       string             `json:"date"`
	Commit     string             `json:"commit,omitempty"`  // checked out at the start (gendoc.Commit)
	Browser    string             `json:"browser,omitempty"` // the Chromium's --version
	Runs       int                `json:"runs"`
	CPUs       int                `json:"cpus"`
	LoadStart  string             `json:"load_average_start,omitempty"` // over the last minute
	LoadEnd    string             `json:"load_average_end,omitempty"`
	Lighthouse *LighthouseResults `json:"lighthouse,omitempty"`
	Answers    *AnswerResults     `json:"first_answer,omitempty"`
	DOM        *DOMResults        `json:"busy_dom,omitempty"`
	Targets    []Target           `json:"targets"`
}

// LighthouseResults are the Lighthouse section's.
type LighthouseResults struct {
	Version  string          `json:"lighthouse_version"`
	Settings string          `json:"settings"`
	Order    [][]string      `json:"order"` // each round's variants, in the order they ran
	Variants []VariantResult `json:"variants"`
}

// VariantResult is one variant's reports and their summary, by metric key
// (see metricCols).
type VariantResult struct {
	Name    string            `json:"variant"`
	Runs    []Report          `json:"runs"`
	Summary map[string]Spread `json:"summary"`
	// Delta is the paired difference from the baseline, round by round
	// (absent for the baseline itself).
	Delta map[string]Spread `json:"delta_vs_plain,omitempty"`
}

// Spread is the median and range of samples.
type Spread struct {
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Samples []float64 `json:"samples"`
}

// metricCol is one row of the tables.
type metricCol struct {
	key, label string
	scale      float64 // printed value = value / scale
	digits     int
	get        func(Metrics) float64
}

var metricCols = []metricCol{
	{"tbt_ms", "TBT ms", 1, 0, func(m Metrics) float64 { return m.TBT }},
	{"lcp_ms", "LCP ms", 1, 0, func(m Metrics) float64 { return m.LCP }},
	{"tti_ms", "TTI ms", 1, 0, func(m Metrics) float64 { return m.TTI }},
	{"fcp_ms", "FCP ms", 1, 0, func(m Metrics) float64 { return m.FCP }},
	{"mainthread_ms", "main-thread work ms", 1, 0, func(m Metrics) float64 { return m.MainThread }},
	{"script_ms", "  of it, script ms", 1, 0, func(m Metrics) float64 { return m.Script }},
	{"bytes", "bytes KB", 1000, 1, func(m Metrics) float64 { return m.Bytes }},
	{"requests", "requests", 1, 0, func(m Metrics) float64 { return float64(m.Requests) }},
	{"wasm_requests", ".wasm requests", 1, 0, func(m Metrics) float64 { return float64(m.WasmRequests) }},
}

// summarize returns the median and range of s (NaN for none).
func summarize(s []float64) Spread {
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	sp := Spread{Median: stats.Quantile(sorted, 0.5), Min: math.NaN(), Max: math.NaN(), Samples: s}
	if len(sorted) > 0 {
		sp.Min, sp.Max = sorted[0], sorted[len(sorted)-1]
	}
	return sp
}

// pairedDelta summarises v[i] - base[i] over the rounds both have.
func pairedDelta(v, base []float64) Spread {
	n := min(len(v), len(base))
	d := make([]float64, n)
	for i := range n {
		d[i] = v[i] - base[i]
	}
	return summarize(d)
}

func column(runs []Report, get func(Metrics) float64) []float64 {
	s := make([]float64, len(runs))
	for i, r := range runs {
		s[i] = get(r.Metrics)
	}
	return s
}

// summarizeLighthouse summarises each variant's reports (runs, by variant
// name, in the order of names; names[0] is the baseline) and its deltas
// from the baseline.
func summarizeLighthouse(runs map[string][]Report, order [][]string, names []string) *LighthouseResults {
	res := &LighthouseResults{Order: order,
		Settings: "Lighthouse defaults: mobile form factor, simulated throttling (slow 4G: 150 ms RTT, 1.6 Mbit/s; 4x CPU slowdown), performance category"}
	base := runs[names[0]]
	for _, name := range names {
		rs, ok := runs[name]
		if !ok {
			continue
		}
		if res.Version == "" && len(rs) > 0 {
			res.Version = rs[0].Version
		}
		vr := VariantResult{Name: name, Runs: rs, Summary: map[string]Spread{}}
		if name != names[0] && base != nil {
			vr.Delta = map[string]Spread{}
		}
		for _, c := range metricCols {
			col := column(rs, c.get)
			vr.Summary[c.key] = summarize(col)
			if vr.Delta != nil {
				vr.Delta[c.key] = pairedDelta(col, column(base, c.get))
			}
		}
		res.Variants = append(res.Variants, vr)
	}
	return res
}

func (r *LighthouseResults) variant(name string) *VariantResult {
	if r == nil {
		return nil
	}
	for i := range r.Variants {
		if r.Variants[i].Name == name {
			return &r.Variants[i]
		}
	}
	return nil
}

// Target is one done criterion and whether this run meets it.
type Target struct {
	Name  string  `json:"name"`
	Got   float64 `json:"got"`
	Limit float64 `json:"limit"`
	Unit  string  `json:"unit"`
	Met   bool    `json:"met"`
	Note  string  `json:"note,omitempty"`
}

// deltaLimits are the default boot's limits against the page without the
// module (median of the paired deltas).
var deltaLimits = []struct {
	key, name, unit string
	limit, scale    float64
}{
	{"tbt_ms", "TBT", "ms", 10, 1},
	{"lcp_ms", "LCP", "ms", 50, 1},
	{"mainthread_ms", "main-thread work", "ms", 40, 1},
	{"bytes", "bytes", "KB", 25, 1000},
}

// checkTargets checks the done criteria on what was measured: the
// Lighthouse ones when lh is not nil, the first answer's when ans is not.
func checkTargets(lh *LighthouseResults, ans *AnswerResults) []Target {
	var ts []Target
	if lazy := lh.variant("lazy"); lazy != nil && lazy.Delta != nil && lh.Variants[0].Name == "plain" {
		for _, l := range deltaLimits {
			got := lazy.Delta[l.key].Median / l.scale
			ts = append(ts, Target{Name: "default boot vs plain: " + l.name, Got: got, Limit: l.limit, Unit: l.unit,
				Met: got <= l.limit, Note: "median of the paired deltas"})
		}
		most := lazy.Summary["wasm_requests"].Max
		ts = append(ts, Target{Name: "default boot: .wasm requests", Got: most, Limit: 0, Unit: "requests",
			Met: most == 0, Note: "the most in any round"})
	}
	if ans != nil {
		t := Target{Name: "default boot: first answer on a repeat visit measured", Limit: 1, Unit: "samples"}
		if lazy := ans.variant("lazy"); lazy != nil {
			t.Got = float64(len(lazy.Repeat))
			t.Met = len(lazy.Repeat) > 0 && !math.IsNaN(lazy.RepeatMs.Median)
			if t.Met {
				t.Note = fmt.Sprintf("median %.0f ms", lazy.RepeatMs.Median)
			}
		}
		ts = append(ts, t)
	}
	return ts
}
