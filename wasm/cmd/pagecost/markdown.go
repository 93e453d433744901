package main

import (
	"fmt"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
)

// markdown renders a run's results as testdata/bench/PAGECOST.md, the table
// the docs link to for what the module costs a page.
func markdown(res *Results) *gendoc.Doc {
	d := gendoc.New("bench-page", "wasm/cmd/pagecost", "from the results of one run (testdata/out/pagecost.json)")
	d.Heading(1, "Page cost: Lighthouse and the first answer")
	commit, browser := res.Commit, res.Browser
	if commit == "" {
		commit = "not recorded"
	}
	if browser == "" {
		browser = "Chromium (version not recorded)"
	}
	load := "not recorded"
	if res.LoadStart != "" {
		load = fmt.Sprintf("%s at the start and %s at the end", res.LoadStart, res.LoadEnd)
	}
	d.Para("Run of %s, commit %s: %s, %d CPUs, load average %s. Other work on the machine inflates main-thread work, and through it TBT, LCP and TTI.",
		res.Date, commit, browser, res.CPUs, load)
	d.Para("Regenerate with `make bench-page` (or `go run ./wasm/cmd/pagecost`); render a run's JSON again with " +
		"`go run ./wasm/cmd/pagecost -md-from testdata/out/pagecost.json`. [PERFORMANCE.md](PERFORMANCE.md) is the history and the analysis of these numbers.")
	if lh := res.Lighthouse; lh != nil {
		d.Heading(2, "Lighthouse")
		d.Para("Lighthouse %s, %s. Each cell is the median [min–max] of %d interleaved rounds on the product page of testdata/pagecost: "+
			"plain has no agent API, lazy loads the module with the default boot, eager with data-boot=\"eager\", mcpb loads MCP-B's @mcp-b/global.",
			lh.Version, lh.Settings, res.Runs)
		cols := []gendoc.Col{{Name: "metric"}}
		for _, v := range lh.Variants {
			cols = append(cols, gendoc.Col{Name: v.Name, Num: true})
		}
		var rows [][]string
		for _, c := range metricCols {
			row := []string{c.label}
			for _, v := range lh.Variants {
				row = append(row, spreadCell(v.Summary[c.key], c.scale, c.digits, false))
			}
			rows = append(rows, row)
		}
		d.Table(cols, rows)
		if len(lh.Variants) > 1 {
			d.Heading(3, "Against "+lh.Variants[0].Name)
			d.Para("Each variant minus %s in the same round: the median [min–max] of the rounds' differences.", lh.Variants[0].Name)
			cols := []gendoc.Col{{Name: "metric"}}
			for _, v := range lh.Variants[1:] {
				cols = append(cols, gendoc.Col{Name: v.Name, Num: true})
			}
			var rows [][]string
			for _, c := range metricCols {
				row := []string{c.label}
				for _, v := range lh.Variants[1:] {
					row = append(row, spreadCell(v.Delta[c.key], c.scale, c.digits, true))
				}
				rows = append(rows, row)
			}
			d.Table(cols, rows)
		}
	}
	if ans := res.Answers; ans != nil {
		d.Heading(2, "First answer")
		d.Para("The load event, then `await document.modelContext.readResource(%q)`, timed in the page: median [min–max] of %d fresh Chromium profiles per variant; "+
			"the repeat visit is the same profile in a new tab %.0f ms later. %s. The .wasm columns say how its fetch got it in most samples (network, 304 or cache) "+
			"and the median bytes over the network, headers included.", cartURI, ans.N, ans.PauseMs, ans.Conditions)
		var rows [][]string
		for _, v := range ans.Variants {
			rows = append(rows, []string{v.Name, spreadCell(v.ColdMs, 1, 1, false), spreadCell(v.RepeatMs, 1, 1, false), wasmCell(v.Cold), wasmCell(v.Repeat)})
		}
		d.Table([]gendoc.Col{{Name: "variant"}, {Name: "cold visit ms", Num: true}, {Name: "repeat visit ms", Num: true},
			{Name: "cold .wasm"}, {Name: "repeat .wasm"}}, rows)
		for _, v := range ans.Variants {
			if v.ColdReadyWait != nil && v.RepeatReadyWait != nil {
				d.Para("%s: the read is made once ready resolved; load event → ready: cold %s ms, repeat %s ms.", v.Name,
					spreadCell(*v.ColdReadyWait, 1, 0, false), spreadCell(*v.RepeatReadyWait, 1, 0, false))
			}
		}
	}
	if dom := res.DOM; dom != nil {
		d.Heading(2, "Busy DOM")
		d.Para("testdata/pagecost/busy.html (%s; %d samples of %d rounds: a table rebuilt, a feed changed, cells' text set, two declarative resources' content now and then), "+
			"with the module's tag with and without data-declarative.", dom.Conditions, len(dom.Without.Samples), dom.Rounds)
		d.Table([]gendoc.Col{{Name: "page"}, {Name: "ms", Num: true}}, [][]string{
			{"without data-declarative", spreadCell(dom.Without, 1, 1, false)},
			{"with data-declarative", spreadCell(dom.With, 1, 1, false)},
			{"with / without, paired", fmt.Sprintf("%.2f× [%.2f–%.2f], %+.0f µs a round", dom.Ratio.Median, dom.Ratio.Min, dom.Ratio.Max, dom.PerRoundUs)},
		})
	}
	d.Targets(len(res.Targets), func(i int) (bool, string, string) {
		t := res.Targets[i]
		return t.Met, t.Name, targetDetail(t)
	})
	return d
}

// renderFrom reads a run's JSON and writes its Markdown to md.
func renderFrom(from, md string) error { return gendoc.RenderFrom(from, md, markdown) }
