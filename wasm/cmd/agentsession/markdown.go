package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
)

// markdown renders a run's results as testdata/bench/AGENT.md, the table the
// docs link to for what an agent receives while it follows a page.
func markdown(res *Results) *gendoc.Doc {
	d := gendoc.New("bench-agent", "wasm/cmd/agentsession", "from the results of one run (testdata/out/agentsession.json)")
	d.Heading(1, "Agent session: what an agent receives while it follows a page")
	commit := gendoc.CommitOr(res.Commit)
	d.Para("Run of %s, commit %s: %s, %d CPUs, load average %.1f at the start and %.1f at the end.",
		res.Date, commit, res.Browser, res.CPUs, res.Load[0], res.Load[1])
	d.Para("Regenerate with `make bench-agent` (or `go run ./wasm/cmd/agentsession`); render a run's JSON again with " +
		"`go run ./wasm/cmd/agentsession -md-from testdata/out/agentsession.json`. [PERFORMANCE.md](PERFORMANCE.md) is the history and the analysis of these numbers.")
	if len(res.Agents) > 0 {
		turn := "a turn after each step"
		if res.Every > 1 {
			turn = fmt.Sprintf("a turn after every %d steps", res.Every)
		}
		by := map[string]Received{}
		for _, r := range res.Agents {
			by[r.Key] = r
		}
		all := by["all"]
		d.Heading(2, "What the agent received")
		d.Para("The demo shop: %d visitor actions and %d order updates, %s (%d turns, %d resources at the end). Tokens: %s; bytes: UTF-8. "+
			"Every agent starts with the list and every value (%d bytes for (a), %d for (c)).",
			res.Visitor, res.Server, turn, res.Turns, res.Resources, res.Tokenizer, all.Start.Bytes, by["tool"].Start.Bytes)
		var rows [][]string
		for _, r := range res.Agents {
			rows = append(rows, []string{r.Label, fmt.Sprint(r.Messages), fmt.Sprint(r.Bytes), fmt.Sprint(r.Tokens),
				fmt.Sprintf("%.3f", float64(r.Bytes)/float64(max(all.Bytes, 1))), fmt.Sprintf("%.3f", float64(r.Tokens)/float64(max(all.Tokens, 1)))})
		}
		d.Table([]gendoc.Col{{Name: "agent"}, {Name: "messages", Num: true}, {Name: "bytes", Num: true}, {Name: "tokens", Num: true},
			{Name: "bytes / (a)", Num: true}, {Name: "tokens / (a)", Num: true}}, rows)
		rows = nil
		for _, r := range res.Ratios {
			rows = append(rows, []string{ratioNames.Replace(r.Name), fmt.Sprintf("%.3f", r.Bytes), fmt.Sprintf("%.3f", r.Tokens),
				fmt.Sprintf("%.3f", r.FollowBytes), fmt.Sprintf("%.3f", r.FollowTokens)})
		}
		d.Para("Ratios; \"after the start\" leaves out what each agent received at its start.")
		d.Table([]gendoc.Col{{Name: "ratio"}, {Name: "bytes", Num: true}, {Name: "tokens", Num: true},
			{Name: "after the start: bytes", Num: true}, {Name: "after the start: tokens", Num: true}}, rows)
		if len(res.Stale) == 0 {
			d.Para("Every agent's mirror, rebuilt from what it received alone, matched the page after every turn.")
		} else {
			for _, k := range slices.Sorted(maps.Keys(res.Stale)) {
				d.Para("**%s's mirror disagreed with the page** after %d turns (%s).", k, res.Stale[k], res.StaleURIs[k])
			}
		}
	}
	if len(res.Timed) > 0 {
		d.Heading(2, "What following costs the page")
		d.Para("µs per operation, wall-clock: the median of %d rounds and its quartiles; paired: the median over the rounds of the row / the plain push in the same round, with its quartiles.", res.Rounds)
		var rows [][]string
		for _, t := range res.Timed {
			pair := ""
			if t.Paired != nil {
				pair = fmt.Sprintf("%.2f× (%.2f–%.2f)", t.Paired.Median, t.Paired.Q1, t.Paired.Q3)
			}
			rows = append(rows, []string{t.Label, fmt.Sprintf("%.2f", t.Us.Median), fmt.Sprintf("%.2f–%.2f", t.Us.Q1, t.Us.Q3), pair})
		}
		d.Table([]gendoc.Col{{Name: "operation"}, {Name: "µs", Num: true}, {Name: "quartiles", Num: true}, {Name: "paired", Num: true}}, rows)
	}
	d.Targets(len(res.Targets), func(i int) (bool, string, string) {
		c := res.Targets[i]
		return c.OK, c.Name, c.Detail
	})
	if line := besideTheFloor(res); line != "" && len(res.Targets) > 0 {
		d.Para("Informational, not a target row: %s.", line)
	}
	return d
}

// renderFrom reads a run's JSON and writes its Markdown to md.
func renderFrom(from, md string) error { return gendoc.RenderFrom(from, md, markdown) }
