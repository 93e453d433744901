package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/internal/stats"
)

// The floors of the issue: read_changes against re-reading everything and
// against re-reading the changed resources whole, in bytes and in tokens
// (both must hold); a 10 KB push with one patch subscriber against a plain
// one; changesSince over 1,000 resources.
const (
	floorVsAll     = 0.30
	aimVsAll       = 0.15
	floorVsChanged = 0.50
	floorPatchPush = 2.0
	floorChangesUs = 1000.0
)

// agents are the agents of testdata/agentsession/agent.js, in table order.
var agents = []struct{ Key, Label string }{
	{"all", "(a)  every resource each turn (read_resource)"},
	{"changed", "(b)  changesSince, changed ones whole"},
	{"tool", "(c)  read_changes (values, then patches)"},
	{"mcp", "(c') MCP, the changes capability (_meta)"},
	{"mcpread", "     MCP, stock: updated, then resources/read"},
	{"patches", "(c'') in-page, subscribeResource {patch: true}"},
}

// ratioNames names a ratio's agents as the tables do: "tool/changed" is
// "(c)/(b)".
var ratioNames = strings.NewReplacer("tool", "(c)", "mcpread", "MCP stock", "mcp", "(c')", "patches", "(c'')", "changed", "(b)", "all", "(a)")

// Count is a number of texts, their UTF-8 bytes and their tokens.
type Count struct {
	Messages int `json:"messages"`
	Bytes    int `json:"bytes"`
	Tokens   int `json:"tokens"`
}

// Received is what one agent received in the whole session, and of it at
// its start (the list and every value).
type Received struct {
	Key      string `json:"agent"`
	Label    string `json:"label"`
	Messages int    `json:"messages"`
	Bytes    int    `json:"bytes"`
	Tokens   int    `json:"tokens"`
	Start    Count  `json:"start"`
}

// Ratio is one agent's total over another's, and the same of what they
// received after their start (Follow).
type Ratio struct {
	Name         string  `json:"name"`
	Bytes        float64 `json:"bytes"`
	Tokens       float64 `json:"tokens"`
	FollowBytes  float64 `json:"follow_bytes"`
	FollowTokens float64 `json:"follow_tokens"`
}

// Stats summarises samples: µs per operation, or paired ratios.
type Stats struct {
	Median  float64   `json:"median"`
	Q1      float64   `json:"q1"`
	Q3      float64   `json:"q3"`
	Samples []float64 `json:"samples,omitempty"`
}

// Timed is one timed row.
type Timed struct {
	Key   string `json:"row"`
	Label string `json:"label"`
	Ops   int    `json:"ops"`
	Us    Stats  `json:"us"`
	// Paired is the row over the plain push, round by round (push rows).
	Paired *Stats `json:"paired,omitempty"`
}

// Turn is what each agent received in one turn (UTF-8 bytes), after the
// step it followed.
type Turn struct {
	Step  int            `json:"step"` // the last step before the turn, from 1
	Kind  string         `json:"kind"`
	Label string         `json:"label"`
	Bytes map[string]int `json:"bytes"`
}

// Check is one floor, met or not.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Results is what -out receives.
type Results struct {
	Date      string            `json:"date"`
	Commit    string            `json:"commit,omitempty"` // checked out at the start (gendoc.Commit)
	Browser   string            `json:"browser"`
	CPUs      int               `json:"cpus"`
	Load      [2]float64        `json:"loadavg"`
	Every     int               `json:"every"`
	Visitor   int               `json:"visitor_actions"`
	Server    int               `json:"server_steps"`
	Turns     int               `json:"turns"`
	Resources int               `json:"resources_at_end"`
	Tokenizer string            `json:"tokenizer"`
	Agents    []Received        `json:"agents"`
	Ratios    []Ratio           `json:"ratios"`
	Stale     map[string]int    `json:"stale_turns"` // agent → turns its mirror disagreed with the page
	StaleURIs map[string]string `json:"stale_example,omitempty"`
	Followed  map[string]any    `json:"followed"` // how the followers were handed each change
	PerTurn   []Turn            `json:"per_turn"`
	Rounds    int               `json:"rounds"`
	Timed     []Timed           `json:"timed"`
	Targets   []Check           `json:"targets"`
	Seconds   float64           `json:"seconds"`
}

// summarize is the median and quartiles of samples.
func summarize(samples []float64) Stats {
	if len(samples) == 0 {
		return Stats{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	out := make([]float64, len(samples))
	for i, v := range samples {
		out[i] = round(v, 3)
	}
	return Stats{Median: round(stats.Quantile(s, 0.5), 3), Q1: round(stats.Quantile(s, 0.25), 3), Q3: round(stats.Quantile(s, 0.75), 3), Samples: out}
}

// paired summarizes num[i]/den[i].
func paired(num, den []float64) Stats {
	r := make([]float64, len(num))
	for i := range num {
		r[i] = num[i] / den[i]
	}
	return summarize(r)
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// ratios are (c) over (a) and over (b), and the same of the MCP follower
// and of the in-page patch subscriber.
func ratios(rs []Received) []Ratio {
	by := map[string]Received{}
	for _, r := range rs {
		by[r.Key] = r
	}
	var out []Ratio
	for _, p := range [][2]string{{"tool", "all"}, {"tool", "changed"}, {"mcp", "all"}, {"mcp", "changed"}, {"mcpread", "all"}, {"patches", "all"}, {"patches", "changed"}} {
		n, d := by[p[0]], by[p[1]]
		if d.Bytes == 0 || d.Tokens == 0 {
			continue
		}
		div := func(a, b int) float64 {
			if b == 0 {
				return 0
			}
			return round(float64(a)/float64(b), 4)
		}
		out = append(out, Ratio{Name: p[0] + "/" + p[1], Bytes: div(n.Bytes, d.Bytes), Tokens: div(n.Tokens, d.Tokens),
			FollowBytes: div(n.Bytes-n.Start.Bytes, d.Bytes-d.Start.Bytes), FollowTokens: div(n.Tokens-n.Start.Tokens, d.Tokens-d.Start.Tokens)})
	}
	return out
}

func ratioOf(rs []Ratio, name string) (Ratio, bool) {
	for _, r := range rs {
		if r.Name == name {
			return r, true
		}
	}
	return Ratio{}, false
}

func timedOf(ts []Timed, key string) (Timed, bool) {
	for _, t := range ts {
		if t.Key == key {
			return t, true
		}
	}
	return Timed{}, false
}

// checkTargets holds the results to the floors; a row not measured (a part
// left out with -only) has no check.
func checkTargets(res *Results) []Check {
	var out []Check
	if r, ok := ratioOf(res.Ratios, "tool/all"); ok {
		aim := "aim ≤0.15 met"
		if math.Max(r.Bytes, r.Tokens) > aimVsAll {
			aim = "aim ≤0.15 not met"
		}
		out = append(out, Check{Name: fmt.Sprintf("read_changes / every resource each turn (c/a) ≤ %.2f", floorVsAll),
			OK: r.Bytes <= floorVsAll && r.Tokens <= floorVsAll, Detail: fmt.Sprintf("bytes %.3f, tokens %.3f (%s)", r.Bytes, r.Tokens, aim)})
	}
	if r, ok := ratioOf(res.Ratios, "tool/changed"); ok {
		out = append(out, Check{Name: fmt.Sprintf("read_changes / changed ones whole (c/b) ≤ %.2f", floorVsChanged),
			OK: r.Bytes <= floorVsChanged && r.Tokens <= floorVsChanged, Detail: fmt.Sprintf("bytes %.3f, tokens %.3f", r.Bytes, r.Tokens)})
	}
	if t, ok := timedOf(res.Timed, "push-patch"); ok && t.Paired != nil {
		out = append(out, Check{Name: fmt.Sprintf("10 KB push with one patch subscriber ≤ %.0f× a plain push", floorPatchPush),
			OK: t.Paired.Median <= floorPatchPush, Detail: fmt.Sprintf("%.2f× paired (quartiles %.2f–%.2f)", t.Paired.Median, t.Paired.Q1, t.Paired.Q3)})
	}
	var worst Timed
	var parts []string
	for _, key := range []string{"changes-recent", "changes-all"} {
		if t, ok := timedOf(res.Timed, key); ok {
			parts = append(parts, fmt.Sprintf("%s %.1f µs", strings.TrimPrefix(key, "changes-"), t.Us.Median))
			if t.Us.Median >= worst.Us.Median {
				worst = t
			}
		}
	}
	if len(parts) > 0 {
		out = append(out, Check{Name: "changesSince over 1,000 resources < 1 ms", OK: worst.Us.Median < floorChangesUs,
			Detail: strings.Join(parts, ", ") + " (median per call)"})
	}
	return out
}

// printTable writes the tables and the floors.
func printTable(w io.Writer, res *Results) {
	if len(res.Agents) > 0 {
		turn := "a turn after each step"
		if res.Every > 1 {
			turn = fmt.Sprintf("a turn after every %d steps", res.Every)
		}
		fmt.Fprintf(w, "agent session on the demo shop: %d visitor actions and %d order updates, %s (%d turns, %d resources at the end), %s\n\n",
			res.Visitor, res.Server, turn, res.Turns, res.Resources, res.Browser)
		by := map[string]Received{}
		for _, r := range res.Agents {
			by[r.Key] = r
		}
		all := by["all"]
		fmt.Fprintf(w, "%-46s %8s %10s %9s %8s %8s\n", "what the agent received", "messages", "bytes", "tokens", "bytes/a", "tokens/a")
		for _, r := range res.Agents {
			fmt.Fprintf(w, "%-46s %8d %10d %9d %8.3f %8.3f\n", r.Label, r.Messages, r.Bytes, r.Tokens,
				float64(r.Bytes)/float64(max(all.Bytes, 1)), float64(r.Tokens)/float64(max(all.Tokens, 1)))
		}
		fmt.Fprintf(w, "\n%-46s %8s %8s   %s\n", "ratio", "bytes", "tokens", "after the start: bytes, tokens")
		for _, r := range res.Ratios {
			fmt.Fprintf(w, "%-46s %8.3f %8.3f %7.3f %7.3f\n", ratioNames.Replace(r.Name), r.Bytes, r.Tokens, r.FollowBytes, r.FollowTokens)
		}
		fmt.Fprintf(w, "  tokens: %s; bytes: UTF-8. Every agent starts with the list and every value\n", res.Tokenizer)
		fmt.Fprintf(w, "  (%d bytes for (a), %d for (c)); \"after the start\" leaves that out\n", all.Start.Bytes, by["tool"].Start.Bytes)
		if len(res.Stale) == 0 {
			fmt.Fprintln(w, "  every agent's mirror, rebuilt from what it received alone, matched the page after every turn")
		} else {
			for _, k := range slices.Sorted(maps.Keys(res.Stale)) {
				fmt.Fprintf(w, "  ! %s's mirror disagreed with the page after %d turns (%s)\n", k, res.Stale[k], res.StaleURIs[k])
			}
		}
	}
	if len(res.Timed) > 0 {
		if len(res.Agents) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "what following costs the page, µs per operation (median of %d rounds, quartiles)\n", res.Rounds)
		for _, t := range res.Timed {
			pair := ""
			if t.Paired != nil {
				pair = fmt.Sprintf("  %.2f× paired (%.2f–%.2f)", t.Paired.Median, t.Paired.Q1, t.Paired.Q3)
			}
			fmt.Fprintf(w, "  %-52s %9.2f  %.2f–%.2f%s\n", t.Label, t.Us.Median, t.Us.Q1, t.Us.Q3, pair)
		}
		fmt.Fprintln(w, "  paired = median over the rounds of the row / the plain push in the same round (wall-clock time)")
	}
	if len(res.Targets) > 0 {
		fmt.Fprintln(w, "\ntargets")
		for _, c := range res.Targets {
			mark := "MISS"
			if c.OK {
				mark = "ok  "
			}
			fmt.Fprintf(w, "  %s %s: %s\n", mark, c.Name, c.Detail)
		}
		if line := besideTheFloor(res); line != "" {
			fmt.Fprintf(w, "  (informational) %s\n", line)
		}
	}
}

// besideTheFloor is the in-page patch subscriber's ratio to (b), set against
// the c/b floor for the reader; the floor itself is read_changes' (c), and
// this is no target row. "" when the run has no such ratio.
func besideTheFloor(res *Results) string {
	r, ok := ratioOf(res.Ratios, "patches/changed")
	if !ok {
		return ""
	}
	met := "within"
	if r.Bytes > floorVsChanged || r.Tokens > floorVsChanged {
		met = "not within"
	}
	return fmt.Sprintf("in-page subscribeResource {patch: true} / changed ones whole (c''/b): bytes %.3f, tokens %.3f, %s the %.2f of the c/b floor, which is read_changes'",
		r.Bytes, r.Tokens, met, floorVsChanged)
}
