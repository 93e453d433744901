package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// printResults prints the tables and the target lines.
func printResults(w io.Writer, res Results) {
	if lh := res.Lighthouse; lh != nil {
		printLighthouse(w, lh, res.Runs)
	}
	if ans := res.Answers; ans != nil {
		printAnswers(w, ans)
	}
	if d := res.DOM; d != nil {
		printDOM(w, d)
	}
	if res.LoadStart != "" {
		fmt.Fprintf(w, "\nmachine: %d cores, load average %s at the start, %s at the end (other work on the machine inflates main-thread work, and through it TBT, LCP and TTI)\n",
			res.CPUs, res.LoadStart, res.LoadEnd)
	}
	if len(res.Targets) > 0 {
		fmt.Fprintf(w, "\ntargets\n")
		for _, t := range res.Targets {
			fmt.Fprintln(w, "  "+targetLine(t))
		}
	}
}

func targetLine(t Target) string {
	verdict := "MISS"
	if t.Met {
		verdict = "met "
	}
	return fmt.Sprintf("%s %s: %s", verdict, t.Name, targetDetail(t))
}

// targetDetail is what a target's line says was measured, against its limit.
func targetDetail(t Target) string {
	var s string
	switch t.Unit {
	case "samples":
		s = fmt.Sprintf("%.0f samples", t.Got)
	case "requests":
		s = fmt.Sprintf("%.0f (limit %.0f)", t.Got, t.Limit)
	default:
		s = fmt.Sprintf("%s %s (limit +%g %s)", signed(t.Got, digitsFor(t.Unit)), t.Unit, t.Limit, t.Unit)
	}
	if t.Note != "" {
		s += "; " + t.Note
	}
	return s
}

func digitsFor(unit string) int {
	if unit == "KB" {
		return 1
	}
	return 0
}

// signed formats v with its sign; -0 prints as +0.
func signed(v float64, digits int) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	s := fmt.Sprintf("%+.*f", digits, v)
	if strings.Trim(s, "-+0.") == "" {
		return "+" + strings.TrimLeft(s, "-+")
	}
	return s
}

func spreadCell(sp Spread, scale float64, digits int, sign bool) string {
	if math.IsNaN(sp.Median) {
		return "n/a"
	}
	f := func(v float64) string {
		if sign {
			return signed(v/scale, digits)
		}
		return fmt.Sprintf("%.*f", digits, v/scale)
	}
	if len(sp.Samples) < 2 {
		return f(sp.Median)
	}
	return fmt.Sprintf("%s [%s–%s]", f(sp.Median), f(sp.Min), f(sp.Max))
}

func printLighthouse(w io.Writer, lh *LighthouseResults, runs int) {
	fmt.Fprintf(w, "page cost: Lighthouse %s, %s\n", lh.Version, lh.Settings)
	fmt.Fprintf(w, "median [min–max] of %d interleaved rounds on the product page of testdata/pagecost\n\n", runs)
	fmt.Fprintf(w, "%-20s", "")
	for _, v := range lh.Variants {
		fmt.Fprintf(w, " %-24s", v.Name)
	}
	fmt.Fprintln(w)
	for _, c := range metricCols {
		fmt.Fprintf(w, "%-20s", c.label)
		for _, v := range lh.Variants {
			fmt.Fprintf(w, " %-24s", spreadCell(v.Summary[c.key], c.scale, c.digits, false))
		}
		fmt.Fprintln(w)
	}
	printDeltas(w, lh)
	var warned bool
	for _, v := range lh.Variants {
		for i, r := range v.Runs {
			for _, msg := range r.Warnings {
				if !warned {
					fmt.Fprintf(w, "\nLighthouse's warnings:\n")
					warned = true
				}
				fmt.Fprintf(w, "  %s, round %d: %s\n", v.Name, i+1, msg)
			}
		}
	}
}

// printDeltas prints each variant's deltas from the baseline.
func printDeltas(w io.Writer, lh *LighthouseResults) {
	if len(lh.Variants) < 2 {
		return
	}
	fmt.Fprintf(w, "\ndelta vs %s: median [min–max] of the rounds' differences\n%-20s", lh.Variants[0].Name, "")
	for _, v := range lh.Variants {
		if v.Delta != nil {
			fmt.Fprintf(w, " %-24s", v.Name)
		}
	}
	fmt.Fprintln(w)
	for _, c := range metricCols {
		fmt.Fprintf(w, "%-20s", c.label)
		for _, v := range lh.Variants {
			if v.Delta != nil {
				fmt.Fprintf(w, " %-24s", spreadCell(v.Delta[c.key], c.scale, c.digits, true))
			}
		}
		fmt.Fprintln(w)
	}
}

func printAnswers(w io.Writer, ans *AnswerResults) {
	fmt.Fprintf(w, "\nfirst answer: load event, then await document.modelContext.readResource(%q), timed in the page;\n", cartURI)
	fmt.Fprintf(w, "median [min–max] of %d fresh Chromium profiles per variant; repeat = same profile, new tab, %.0f ms later\n", ans.N, ans.PauseMs)
	fmt.Fprintf(w, "%s\n\n", ans.Conditions)
	fmt.Fprintf(w, "%-15s %-24s %-24s %-22s %-22s\n", "variant", "cold visit ms", "repeat visit ms", "cold .wasm", "repeat .wasm")
	for _, v := range ans.Variants {
		fmt.Fprintf(w, "%-15s %-24s %-24s %-22s %-22s\n", v.Name, spreadCell(v.ColdMs, 1, 1, false), spreadCell(v.RepeatMs, 1, 1, false),
			wasmCell(v.Cold), wasmCell(v.Repeat))
	}
	for _, v := range ans.Variants {
		if v.ColdReadyWait != nil {
			fmt.Fprintf(w, "  %s: the read is made once ready resolved; load event → ready: cold %s ms, repeat %s ms\n", v.Name,
				spreadCell(*v.ColdReadyWait, 1, 0, false), spreadCell(*v.RepeatReadyWait, 1, 0, false))
		}
	}
	fmt.Fprintf(w, "  .wasm: how the module's fetch got it in most samples (network, 304 or cache) and the median bytes over the network, headers included\n")
	for _, v := range ans.Variants {
		if len(v.Cold) > 0 && v.Cold[0].Wasm.Prefetches > 0 {
			fmt.Fprintf(w, "  %s: besides, the prefetch hint's request: %s KB cold, %s KB repeat (median)\n", v.Name,
				prefetchKB(v.Cold), prefetchKB(v.Repeat))
		}
	}
}

func prefetchKB(vs []Visit) string {
	s := make([]float64, len(vs))
	for i, v := range vs {
		s[i] = v.Wasm.PrefetchTransferSize
	}
	return fmt.Sprintf("%.1f", summarize(s).Median/1000)
}

// wasmCell says how the .wasm arrived in most visits, and its median
// transfer size.
func wasmCell(vs []Visit) string {
	if len(vs) == 0 {
		return "n/a"
	}
	count := map[string]int{}
	var sizes []float64
	for _, v := range vs {
		count[v.Wasm.How]++
		sizes = append(sizes, v.Wasm.TransferSize)
	}
	how, n := "", 0
	for _, v := range vs { // first-seen order breaks ties
		if c := count[v.Wasm.How]; c > n {
			how, n = v.Wasm.How, c
		}
	}
	s := fmt.Sprintf("%s %d/%d", how, n, len(vs))
	if how != "none" {
		s += fmt.Sprintf(", %.1f KB", summarize(sizes).Median/1000)
	}
	return s
}
