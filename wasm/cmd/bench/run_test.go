package main

import (
	"strings"
	"testing"
)

func TestSelects(t *testing.T) {
	cases := []struct {
		only string
		key  string
		want bool
	}{
		{"", "push-small", true},
		{"", "ready", true},
		{"push", "push-small", true},
		{"push", "ready", false},
		{"ready", "ready", true},
		{"ready", "read-small", false},
		{"read-small,handler", "handler", true},
		{"read-small,handler", "read-small", true},
		{"read-small,handler", "mcp-read", false},
		{"push,,", "mcp-read", false},
	}
	for _, c := range cases {
		if got := (options{only: c.only}).selects(c.key); got != c.want {
			t.Errorf("-only %q selects %q = %v, want %v", c.only, c.key, got, c.want)
		}
	}
}

func TestMedianCIAndUnsettled(t *testing.T) {
	// 21 ratios from 0.9 to 1.1: median 1.0, IQR 0.1, half-width
	// 1.57 × 0.1 / √21 ≈ 0.034.
	var s []float64
	for i := range 21 {
		s = append(s, 0.9+float64(i)*0.01)
	}
	ci := medianCI(s)
	if ci[0] < 0.96 || ci[0] > 0.97 || ci[1] < 1.03 || ci[1] > 1.04 {
		t.Errorf("medianCI = %v, want about [0.966, 1.034]", ci)
	}
	for _, c := range []struct {
		target float64
		want   bool
	}{{1.0, true}, {1.03, true}, {1.1, false}, {0.9, false}} {
		if got := unsettled(s, c.target); got != c.want {
			t.Errorf("unsettled(target %v) = %v, want %v", c.target, got, c.want)
		}
	}
	if !unsettled([]float64{1, 2}, 5) {
		t.Error("unsettled with two samples = false, want true: too few to tell")
	}
}

func TestCheckTargets(t *testing.T) {
	row := func(key string, paired float64) Row {
		w := workloadOf(key)
		r := Row{Key: key, Label: w.Label, Target: w.Max, Rounds: 21, Paired: Stats{Median: paired, Samples: []float64{paired}}}
		if isMCP(w.Set) {
			r.Vs = "mcpb"
		}
		return r
	}
	res := &Results{
		Workloads: []Row{row("push-small", 1.19), row("handler", 1.21), row("push-100k", 1.11)},
		MCP:       []Row{row("mcp-read", 0.59)},
		Ready:     &Ready{Paired: Stats{Median: 1.2, Samples: []float64{1.2, 1.2, 1.2}}},
		Size:      []Size{{Impl: "ours", Files: []string{"modelcontext.wasm", "modelcontext.js"}, FileBrotli: []int{443_001, 14_000}}},
	}
	got := map[string]bool{}
	for _, c := range checkTargets(res) {
		got[strings.SplitN(c.Name, ":", 2)[0]] = c.OK
		if c.Detail == "" {
			t.Errorf("%s: no detail", c.Name)
		}
	}
	want := map[string]bool{
		"push, small value (~40 B)":              true,  // 1.19 ≤ 1.2
		"subscribeResource handler delivery":     false, // 1.21 > 1.2
		"push, ~100 KB value":                    false, // 1.11 > 1.1
		"MCP read round trip":                    true,  // 0.59 ≤ 0.6
		"ready":                                  false, // 1.2 > 1.15
		"the .wasm no larger than 443 KB brotli": false,
	}
	for k, ok := range want {
		if g, found := got[k]; !found || g != ok {
			t.Errorf("target %q: ok = %v (reported: %v), want %v", k, g, found, ok)
		}
	}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %d of them", got, len(want))
	}
}

// A row whose CPU-time ratio and clock ratio differ by more than 1.25×
// either way says so in its check; the verdict is still the CPU time's.
func TestCheckTargetsNoteDisagreement(t *testing.T) {
	for _, c := range []struct {
		cpu, clock float64
		note       bool
	}{{1.0, 1.0, false}, {1.2, 1.0, false}, {1.0, 1.24, false}, {2.04, 1.01, true}, {0.48, 1.06, true}, {1.79, 3.17, true}, {1.0, 0, false}} {
		w := workloadOf("push-small")
		res := &Results{Workloads: []Row{{Key: w.Key, Label: w.Label, Target: w.Max, Rounds: 21,
			Paired: Stats{Median: c.cpu, Samples: []float64{c.cpu}}, PairedRatio: c.clock}}}
		checks := checkTargets(res)
		if len(checks) != 1 {
			t.Fatalf("%d checks, want 1", len(checks))
		}
		if got := strings.Contains(checks[0].Detail, disagreeNote); got != c.note {
			t.Errorf("CPU %v×, clock %v×: noted %v, want %v (%s)", c.cpu, c.clock, got, c.note, checks[0].Detail)
		}
		if checks[0].OK != (c.cpu <= w.Max) {
			t.Errorf("CPU %v×, clock %v×: ok = %v, want the CPU time's verdict", c.cpu, c.clock, checks[0].OK)
		}
	}
}

// Every workload of the module has a target, and every key is distinct.
func TestWorkloadTargets(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range workloads {
		// A row of the module against the least server measures how close
		// it is to a floor: it has no target.
		pair := setImpls[w.Set]
		if ours := pair[0] == "ours" && pair[1] != "floor"; ours != (w.Max > 0) {
			t.Errorf("%s: target %v, measures the module against a reference: %v", w.Key, w.Max, ours)
		}
		if seen[w.Key] {
			t.Errorf("%s twice", w.Key)
		}
		seen[w.Key] = true
	}
}

// The MCP read target's line carries its floor from the same run: what the
// least server measured (a floor above the target proves the target out of
// reach, one below it does not) and the module against the least server.
func TestCheckTargetsFloorEvidence(t *testing.T) {
	mcpRow := func(key string, ratio, ours, ref float64) Row {
		w := workloadOf(key)
		return Row{Key: key, Label: w.Label, Target: w.Max, Rounds: 21, Vs: setImpls[w.Set][1],
			Paired:  Stats{Median: ratio, Q1: ratio - 0.1, Q3: ratio + 0.1, Samples: []float64{ratio}},
			OursCPU: Stats{Median: ours}, RefCPU: Stats{Median: ref}, PairedRatio: ratio}
	}
	for _, c := range []struct {
		floor float64
		want  string
	}{
		{0.85, "floor: the least server measured 0.85× of MCP-B's (quartiles 0.75–0.95), so no server can reach the target here; the module is 1.25× of the least server (quartiles 1.15–1.35, 6.00 µs above it)"},
		{0.55, "floor: the least server measured 0.55× of MCP-B's (quartiles 0.45–0.65), so the target is within reach; the module is 1.25× of the least server"},
	} {
		res := &Results{MCP: []Row{mcpRow("mcp-read", 0.97, 32, 33), mcpRow("mcp-read-floor", c.floor, 26, 30), mcpRow("mcp-read-least", 1.25, 32, 26)}}
		checks := checkTargets(res)
		if len(checks) != 1 || checks[0].OK {
			t.Fatalf("checks %+v, want one missed", checks)
		}
		if !strings.Contains(checks[0].Detail, c.want) {
			t.Errorf("floor %v×: detail %q, want it to contain %q", c.floor, checks[0].Detail, c.want)
		}
	}
	// Without the floor's rows (-only mcp-read), the line says nothing of a floor.
	checks := checkTargets(&Results{MCP: []Row{mcpRow("mcp-read", 0.97, 32, 33)}})
	if len(checks) != 1 || strings.Contains(checks[0].Detail, "floor") {
		t.Errorf("checks %+v, want one without a floor", checks)
	}
}
