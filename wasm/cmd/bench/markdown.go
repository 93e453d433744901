package main

import (
	"fmt"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
)

// markdown renders a run's results as testdata/bench/BENCH.md, the table the
// docs link to for the module's timings against the reference.
func markdown(res *Results) *gendoc.Doc {
	d := gendoc.New("bench", "wasm/cmd/bench", "from the results of one run (testdata/out/bench.json)")
	d.Heading(1, "Bench: the module against the plain-JS reference")
	commit := gendoc.CommitOr(res.Commit)
	d.Para("Run of %s, commit %s: %s, %s, %d CPUs, load average %.1f at the start and %.1f at the end, %d or more interleaved rounds per row. "+
		"The machine's other work stretches wall-clock times far more than CPU times, which is why the targets are checked on the CPU time.",
		res.Date, commit, res.GoVersion, browserName(res.Browser), res.CPUs, res.Load[0], res.Load[1], res.Rounds)
	if res.Against != "" {
		d.Para("**A/B run**: the ref columns measure the build in %s, not the reference; no target is checked.", res.Against)
	}
	d.Para("Regenerate with `make bench` (or `go run ./wasm/cmd/bench`); render a run's JSON again with " +
		"`go run ./wasm/cmd/bench -md-from testdata/out/bench.json`. [PERFORMANCE.md](PERFORMANCE.md) is the history and the analysis of these numbers.")

	markdownRows(d, res)
	markdownFloor(d, res)
	markdownReady(d, res.Ready)
	markdownSizeTargets(d, res)
	return d
}

// markdownRows writes the in-page workloads and the MCP rows.
func markdownRows(d *gendoc.Doc, res *Results) {
	rowCells := func(r Row) []string {
		target := ""
		if r.Target > 0 && res.Against == "" {
			mark := "MISS"
			if r.Paired.Median <= r.Target {
				mark = "ok"
			}
			target = fmt.Sprintf("≤ %.2f× %s", r.Target, mark)
		}
		wall := fmt.Sprintf("%.2f×", r.PairedRatio)
		if disagree(r) {
			wall += " !"
		}
		return []string{r.Label, fmt.Sprint(r.Ops), fmt.Sprint(r.Rounds), us(r.OursCPU.Median), us(r.RefCPU.Median),
			fmt.Sprintf("%.2f×", r.Paired.Median), fmt.Sprintf("%.2f–%.2f", r.Paired.Q1, r.Paired.Q3), wall, target}
	}
	cols := func(other string) []gendoc.Col {
		return []gendoc.Col{{Name: "workload"}, {Name: "ops per batch", Num: true}, {Name: "rounds", Num: true}, {Name: "ours µs", Num: true},
			{Name: other, Num: true}, {Name: "ratio", Num: true}, {Name: "quartiles", Num: true}, {Name: "wall", Num: true}, {Name: "target"}}
	}
	if len(res.Workloads) > 0 {
		d.Heading(2, "In-page operations")
		d.Para("CPU time of the page's main thread per operation (median over the rounds). ratio: the median over the rounds of ours / ref in the same round, " +
			"with its quartiles; wall: the same ratio in wall-clock time (! where it and the CPU time disagree: run again before trusting that row).")
		var rows [][]string
		for _, r := range res.Workloads {
			rows = append(rows, rowCells(r))
		}
		d.Table(cols("ref µs"), rows)
		if c := res.CrossingCPU; c != nil {
			d.Para("For scale, one call into bare Go (a js.FuncOf that does nothing): %s µs of CPU time (%d per batch).", us(c.Median), c.Ops)
		}
	}
	if len(res.MCP) > 0 {
		d.Heading(2, "MCP resources/read")
		d.Para("CPU time per round trip of the stock SDK Client on @mcp-b/transports' tab transport, the same client and transport against each server, a page each.")
		vs, rows := "", [][]string(nil)
		flush := func() {
			if rows != nil {
				d.Table(cols(mcpServers[vs][0]), rows)
				d.Para("%s.", strings.ToUpper(mcpServers[vs][1][:1])+mcpServers[vs][1][1:])
			}
			rows = nil
		}
		for _, r := range res.MCP {
			if r.Vs != vs {
				flush()
				vs = r.Vs
			}
			rows = append(rows, rowCells(r))
		}
		flush()
	}
}

// markdownFloor writes the crossings' floor and the start-up phases.
func markdownFloor(d *gendoc.Doc, res *Results) {
	if len(res.Floor) > 0 {
		d.Heading(2, "The crossings' floor")
		d.Para("testdata/bench/floor, CPU µs per operation: what a crossing between Go and JavaScript costs at the least.")
		var rows [][]string
		for _, r := range res.Floor {
			rows = append(rows, []string{r.Label, fmt.Sprint(r.Ops), fmt.Sprintf("%.3f", r.CPU.Median), fmt.Sprintf("%.3f–%.3f", r.CPU.Q1, r.CPU.Q3)})
		}
		d.Table([]gendoc.Col{{Name: "operation"}, {Name: "ops", Num: true}, {Name: "µs", Num: true}, {Name: "quartiles", Num: true}}, rows)
	}
	if len(res.Startup) > 0 {
		vs := res.Startup[0].Vs
		d.Heading(2, "Start-up phases")
		d.Para("Main-thread CPU ms per fresh copy of the module's .wasm and of the %s program's; ratio: ours / %s paired by round, with its quartiles.", vs, vs)
		var rows [][]string
		for _, r := range res.Startup {
			rows = append(rows, []string{r.Label, fmt.Sprint(r.Ops), fmt.Sprintf("%.2f", r.Ours.Median), fmt.Sprintf("%.2f", r.Other.Median),
				fmt.Sprintf("%.2f×", r.Paired.Median), fmt.Sprintf("%.2f–%.2f", r.Paired.Q1, r.Paired.Q3)})
		}
		d.Table([]gendoc.Col{{Name: "phase"}, {Name: "copies", Num: true}, {Name: "ours ms", Num: true}, {Name: vs + " ms", Num: true},
			{Name: "ratio", Num: true}, {Name: "quartiles", Num: true}}, rows)
	}
}

// markdownReady writes the start-up until ready, or that it was not measured.
func markdownReady(d *gendoc.Doc, r *Ready) {
	d.Heading(2, "Start-up")
	if r != nil {
		d.Para("Navigation start → ready, first visit in a fresh tab, median of %d rounds, ms; ratio: ours / bare Go paired by round, with its quartiles.", len(r.Ours.Samples))
		d.Table([]gendoc.Col{{Name: "measure"}, {Name: "ours", Num: true}, {Name: "ref", Num: true}, {Name: "bare Go", Num: true},
			{Name: "ours / bare", Num: true}, {Name: "quartiles", Num: true}}, [][]string{
			{"until ready, wall-clock", ms(r.Ours.Median), ms(r.Ref.Median), ms(r.Bare.Median),
				fmt.Sprintf("%.2f×", r.Paired.Median), fmt.Sprintf("%.2f–%.2f", r.Paired.Q1, r.Paired.Q3)},
			{"main-thread CPU until ready", ms(r.OursCPU.Median), "", ms(r.BareCPU.Median),
				fmt.Sprintf("%.2f×", r.PairedCPU.Median), fmt.Sprintf("%.2f–%.2f", r.PairedCPU.Q1, r.PairedCPU.Q3)},
			{"from the .wasm request to ready", ms(r.OursFromWasm.Median), "", ms(r.BareFromWasm.Median), fmt.Sprintf("%.2f×", r.RatioFromWasm), ""},
			{"script tags ran, once downloaded", ms(r.ScriptsRan["ours"].Median), ms(r.ScriptsRan["ref"].Median), ms(r.ScriptsRan["bare"].Median), "", ""},
		})
	} else {
		d.Para("Not measured in this run (`-ready 0`, or `-only` without `ready`).")
	}
}

// markdownSizeTargets writes the download sizes and the targets.
func markdownSizeTargets(d *gendoc.Doc, res *Results) {
	if len(res.Size) > 0 {
		d.Heading(2, "Download")
		d.Para("Bytes each implementation's page downloads; [SIZES.md](SIZES.md) has each shipped file's.")
		var rows [][]string
		for _, s := range res.Size {
			rows = append(rows, []string{s.Impl, strings.Join(s.Files, " + "), fmt.Sprint(s.Raw), fmt.Sprint(s.Gzip), fmt.Sprint(s.Brotli)})
		}
		d.Table([]gendoc.Col{{Name: "implementation"}, {Name: "files"}, {Name: "raw", Num: true}, {Name: "gzip", Num: true}, {Name: "brotli", Num: true}}, rows)
	}
	d.Targets(len(res.Targets), func(i int) (bool, string, string) {
		c := res.Targets[i]
		return c.OK, c.Name, c.Detail
	})
}

func us(v float64) string { return fmt.Sprintf("%.2f", v) }
func ms(v float64) string { return fmt.Sprintf("%.1f", v) }

// renderFrom reads a run's JSON and writes its Markdown to md.
func renderFrom(from, md string) error { return gendoc.RenderFrom(from, md, markdown) }
