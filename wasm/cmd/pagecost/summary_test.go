package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		in             []float64
		med, min, max_ float64
	}{
		{[]float64{3, 1, 2}, 2, 1, 3},
		{[]float64{4, 1, 3, 2}, 2.5, 1, 4},
		{[]float64{7}, 7, 7, 7},
	} {
		s := summarize(c.in)
		if s.Median != c.med || s.Min != c.min || s.Max != c.max_ {
			t.Errorf("summarize(%v) = %+v, want median %v [%v–%v]", c.in, s, c.med, c.min, c.max_)
		}
		if &s.Samples[0] != &c.in[0] {
			t.Errorf("summarize(%v) did not keep the samples in their order", c.in)
		}
	}
	if s := summarize(nil); !math.IsNaN(s.Median) || !math.IsNaN(s.Min) || !math.IsNaN(s.Max) {
		t.Errorf("summarize(nil) = %+v, want NaNs", s)
	}
}

func TestPairedDelta(t *testing.T) {
	// Round by round: 12-10, 30-20, 14-15; the median of the differences
	// (+2) is not the difference of the medians (14-15 = -1).
	d := pairedDelta([]float64{12, 30, 14}, []float64{10, 20, 15})
	if d.Median != 2 || d.Min != -1 || d.Max != 10 {
		t.Errorf("pairedDelta = %+v, want +2 [-1–+10]", d)
	}
	if d := pairedDelta([]float64{5, 6, 7}, []float64{1, 1}); len(d.Samples) != 2 || d.Median != 4.5 {
		t.Errorf("pairedDelta over unequal rounds = %+v, want the 2 rounds both have", d)
	}
}

// reports makes one report per round from per-round TBT, LCP, main-thread
// work, bytes and .wasm requests.
func reports(rows ...[5]float64) []Report {
	var rs []Report
	for _, r := range rows {
		rs = append(rs, Report{Version: "12.2.3", Metrics: Metrics{TBT: r[0], LCP: r[1], TTI: r[1], FCP: r[1], MainThread: r[2],
			Bytes: r[3], Requests: 4 + int(r[4]), WasmRequests: int(r[4])}})
	}
	return rs
}

func lighthouseFixture(lazy []Report) *LighthouseResults {
	return summarizeLighthouse(map[string][]Report{
		"plain": reports([5]float64{0, 950, 200, 4000, 0}, [5]float64{0, 960, 260, 4000, 0}, [5]float64{10, 955, 210, 4000, 0}),
		"lazy":  lazy,
		"eager": reports([5]float64{40, 1200, 900, 524000, 1}, [5]float64{60, 1300, 950, 524000, 1}, [5]float64{50, 1250, 800, 524000, 1}),
	}, [][]string{{"plain", "lazy", "eager"}, {"lazy", "eager", "plain"}, {"eager", "plain", "lazy"}}, Variants)
}

func TestSummarizeLighthouse(t *testing.T) {
	lh := lighthouseFixture(reports([5]float64{0, 1000, 230, 22000, 0}, [5]float64{5, 990, 280, 22000, 0}, [5]float64{10, 1010, 240, 22000, 0}))
	if lh.Version != "12.2.3" || len(lh.Variants) != 3 {
		t.Fatalf("results: %+v", lh)
	}
	// The order of Variants, whatever the map's, and mcpb (not run) left out.
	for i, name := range []string{"plain", "lazy", "eager"} {
		if lh.Variants[i].Name != name {
			t.Errorf("variant %d is %s, want %s", i, lh.Variants[i].Name, name)
		}
	}
	if lh.variant("plain").Delta != nil {
		t.Error("the baseline has deltas")
	}
	lazy := lh.variant("lazy")
	if s := lazy.Summary["lcp_ms"]; s.Median != 1000 || s.Min != 990 || s.Max != 1010 {
		t.Errorf("lazy LCP summary = %+v", s)
	}
	if d := lazy.Delta["lcp_ms"]; d.Median != 50 || d.Min != 30 || d.Max != 55 {
		t.Errorf("lazy LCP delta = %+v, want +50 [+30–+55]", d)
	}
	if d := lazy.Delta["bytes"]; d.Median != 18000 {
		t.Errorf("lazy bytes delta = %+v, want +18000", d)
	}
	if s := lh.variant("eager").Summary["wasm_requests"]; s.Median != 1 || s.Max != 1 {
		t.Errorf("eager .wasm requests = %+v", s)
	}
}

func TestTargets(t *testing.T) {
	ans := &AnswerResults{Variants: []AnswerVariant{{Name: "lazy", Repeat: []Visit{{AnswerMs: 40}, {AnswerMs: 50}}, RepeatMs: summarize([]float64{40, 50})}}}
	// All met: TBT +5, LCP +50 (the limit itself), main thread +30, +18 KB, no .wasm.
	met := checkTargets(lighthouseFixture(reports([5]float64{0, 1000, 230, 22000, 0}, [5]float64{5, 990, 280, 22000, 0}, [5]float64{20, 1010, 240, 22000, 0})), ans)
	if len(met) != 6 {
		t.Fatalf("%d targets, want 6: %+v", len(met), met)
	}
	for _, tg := range met {
		if !tg.Met {
			t.Errorf("target %q missed: %+v", tg.Name, tg)
		}
	}
	if got := targetLine(met[0]); got != "met  default boot vs plain: TBT: +5 ms (limit +10 ms); median of the paired deltas" {
		t.Errorf("TBT line: %q", got)
	}
	if got := targetLine(met[5]); got != "met  default boot: first answer on a repeat visit measured: 2 samples; median 45 ms" {
		t.Errorf("first answer line: %q", got)
	}

	// All missed: TBT +40, LCP +60, main thread +100, +30 KB, a .wasm in one round; no repeat visit.
	miss := checkTargets(lighthouseFixture(reports([5]float64{40, 1010, 300, 34000, 0}, [5]float64{40, 1020, 360, 34000, 1}, [5]float64{50, 1015, 310, 34000, 0})),
		&AnswerResults{Variants: []AnswerVariant{{Name: "lazy", RepeatMs: summarize(nil)}}})
	want := []string{
		"MISS default boot vs plain: TBT: +40 ms (limit +10 ms); median of the paired deltas",
		"MISS default boot vs plain: LCP: +60 ms (limit +50 ms); median of the paired deltas",
		"MISS default boot vs plain: main-thread work: +100 ms (limit +40 ms); median of the paired deltas",
		"MISS default boot vs plain: bytes: +30.0 KB (limit +25 KB); median of the paired deltas",
		"MISS default boot: .wasm requests: 1 (limit 0); the most in any round",
		"MISS default boot: first answer on a repeat visit measured: 0 samples",
	}
	if len(miss) != len(want) {
		t.Fatalf("%d targets, want %d", len(miss), len(want))
	}
	for i, tg := range miss {
		if tg.Met || targetLine(tg) != want[i] {
			t.Errorf("target %d: %q (met %v), want %q", i, targetLine(tg), tg.Met, want[i])
		}
	}

	// Only the sections that ran have targets.
	if ts := checkTargets(nil, nil); len(ts) != 0 {
		t.Errorf("no sections: %+v", ts)
	}
	if ts := checkTargets(nil, ans); len(ts) != 1 || !ts[0].Met {
		t.Errorf("first answer only: %+v", ts)
	}
}

func TestSigned(t *testing.T) {
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{{5, 0, "+5"}, {-3.2, 0, "-3"}, {0, 0, "+0"}, {-0.04, 1, "+0.0"}, {-0.4, 0, "+0"}, {18, 1, "+18.0"}, {math.NaN(), 0, "n/a"}} {
		if got := signed(c.v, c.digits); got != c.want {
			t.Errorf("signed(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		w    WasmFetch
		want string
	}{
		{WasmFetch{}, "none"},
		{WasmFetch{Requests: 1, Status: 200, TransferSize: 502470, EncodedBodySize: 502170}, "network"},
		{WasmFetch{Requests: 1, Status: 304, TransferSize: 300, EncodedBodySize: 502170}, "304"},
		{WasmFetch{Requests: 1, Status: 200, TransferSize: 300, EncodedBodySize: 502170}, "304"},
		{WasmFetch{Requests: 1, Status: 200, FromDiskCache: true, EncodedBodySize: 502170}, "cache"},
		{WasmFetch{Requests: 1, TransferSize: 0, EncodedBodySize: 502170}, "cache"},
	} {
		if got := classify(c.w); got != c.want {
			t.Errorf("classify(%+v) = %q, want %q", c.w, got, c.want)
		}
	}
}

func TestPrintResults(t *testing.T) {
	lh := lighthouseFixture(reports([5]float64{0, 1000, 230, 22000, 0}, [5]float64{5, 990, 280, 22000, 0}, [5]float64{20, 1010, 240, 22000, 0}))
	lh.Variants[1].Runs[0].Warnings = []string{"slow CPU"}
	cold := []Visit{{AnswerMs: 80, Wasm: WasmFetch{How: "network", TransferSize: 502000}}, {AnswerMs: 90, Wasm: WasmFetch{How: "network", TransferSize: 502000}}}
	repeat := []Visit{{AnswerMs: 40, Wasm: WasmFetch{How: "304", TransferSize: 300}}, {AnswerMs: 50, Wasm: WasmFetch{How: "304", TransferSize: 300}}}
	wait := summarize([]float64{60, 70})
	ans := &AnswerResults{N: 2, PauseMs: 5000, Conditions: "network: loopback", Variants: []AnswerVariant{
		{Name: "lazy", Cold: cold, Repeat: repeat, ColdMs: summarize([]float64{80, 90}), RepeatMs: summarize([]float64{40, 50})},
		{Name: "eager", Cold: cold, Repeat: repeat, ColdMs: summarize([]float64{0.1, 0.1}), RepeatMs: summarize([]float64{0, 0}),
			ColdReadyWait: &wait, RepeatReadyWait: &wait},
	}}
	var b bytes.Buffer
	printResults(&b, Results{Runs: 3, Lighthouse: lh, Answers: ans, Targets: checkTargets(lh, ans)})
	out := b.String()
	for _, want := range []string{
		"LCP ms               955 [950–960]            1000 [990–1010]",
		"bytes KB             +18.0 [+18.0–+18.0]",
		"lazy, round 1: slow CPU",
		"lazy            85.0 [80.0–90.0]         45.0 [40.0–50.0]         network 2/2, 502.0 KB  304 2/2, 0.3 KB",
		"eager: the read is made once ready resolved; load event → ready: cold 65 [60–70] ms",
		"met  default boot: first answer on a repeat visit measured",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output has no %q:\n%s", want, out)
		}
	}
}
