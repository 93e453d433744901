package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc/gendoctest"
)

// agentFixture is a small run: the six agents, one stale mirror, two timed
// rows and the floors.
func agentFixture() *Results {
	res := &Results{Date: "2026-01-02T03:04:05Z", Commit: "0123456789ab", Browser: "HeadlessChrome/156.0.0.0", CPUs: 2, Load: [2]float64{3.25, 4.5},
		Visitor: 102, Server: 6, Every: 1, Turns: 108, Resources: 8, Tokenizer: "gpt-tokenizer 4.0.0, o200k_base",
		Rounds: 3, Stale: map[string]int{"tool": 2}, StaleURIs: map[string]string{"tool": `first after "x": state://note`}}
	for i, r := range sample() {
		r.Label = agents[i].Label
		res.Agents = append(res.Agents, r)
	}
	res.Ratios = ratios(res.Agents)
	p := paired([]float64{2, 4, 6}, []float64{1, 2, 2})
	res.Timed = []Timed{{Key: "push-plain", Label: "push", Ops: 8, Us: summarize([]float64{1, 2, 3})}, {Key: "push-patch", Label: "patch | one subscriber", Us: summarize([]float64{2, 4, 6}), Paired: &p}}
	res.Targets = checkTargets(res)
	return res
}

func TestMarkdown(t *testing.T) {
	md := markdown(agentFixture()).String()
	for _, want := range []string{
		"<!-- Written by make bench-agent (wasm/cmd/agentsession) from the results of one run (testdata/out/agentsession.json); do not edit. -->\n",
		"Run of 2026-01-02T03:04:05Z, commit 0123456789ab: HeadlessChrome/156.0.0.0, 2 CPUs, load average 3.2 at the start and 4.5 at the end.",
		"102 visitor actions and 6 order updates, a turn after each step (108 turns, 8 resources at the end)",
		"(2000 bytes for (a), 2200 for (c))",
		"| (a)  every resource each turn (read_resource) | 100 | 10000 | 4000 | 1.000 | 1.000 |\n",
		"| (c)  read_changes (values, then patches) | 20 | 2800 | 1000 | 0.280 | 0.250 |\n",
		"| (c)/(a) | 0.280 | 0.250 | 0.075 | 0.047 |\n",
		"**tool's mirror disagreed with the page** after 2 turns (first after \"x\": state://note).",
		"median of 3 rounds",
		"| push | 2.00 | 1.50–2.50 |  |\n",
		`| patch \| one subscriber | 4.00 | 3.00–5.00 | 2.00× (2.00–2.50) |` + "\n",
		"| ok | 10 KB push with one patch subscriber ≤ 2× a plain push | 2.00× paired (quartiles 2.00–2.50) |\n",
		"| MISS | read_changes / changed ones whole (c/b) ≤ 0.50 | bytes 0.560, tokens 0.556 |\n",
		"| (c'') in-page, subscribeResource {patch: true} | 30 | 3000 | 1200 | 0.300 | 0.300 |\n",
		"| (c'')/(a) | 0.300 | 0.300 | 0.113 | 0.119 |\n",
		"| (c'')/(b) | 0.600 | 0.667 | 0.300 | 0.380 |\n",
		"Informational, not a target row: in-page subscribeResource {patch: true} / changed ones whole (c''/b): bytes 0.600, tokens 0.667, not within the 0.50 of the c/b floor, which is read_changes'.\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	// The timed rows alone (-only timed): no session table.
	res := agentFixture()
	res.Agents, res.Ratios = nil, nil
	if md := markdown(res).String(); strings.Contains(md, "## What the agent received") || !strings.Contains(md, "## What following costs the page") {
		t.Errorf("the timed rows alone:\n%s", md)
	}
}

// -md-from renders a run's JSON as the run itself would have.
func TestRenderFrom(t *testing.T) {
	gendoctest.RenderFrom(t, agentFixture(), renderFrom, func(r *Results) string { return markdown(r).String() })
}

// A full run writes AGENT.md by default; a partial one only where -md says.
func TestMarkdownDefault(t *testing.T) {
	def := filepath.Join("/r", "testdata", "bench", "AGENT.md")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, def},
		{[]string{"-rounds", "5"}, def},
		{[]string{"-only", "timed"}, ""},
		{[]string{"-every", "2"}, ""},
		{[]string{"-only", "session", "-md", "/tmp/x.md"}, "/tmp/x.md"},
		{[]string{"-md-from", "/tmp/a.json"}, def},
	} {
		o, err := parseFlags(c.args, "/r")
		if err != nil {
			t.Fatal(err)
		}
		if o.md != c.want {
			t.Errorf("%q: -md %q, want %q", c.args, o.md, c.want)
		}
	}
	if _, err := parseFlags([]string{"-only", "both"}, "/r"); err == nil {
		t.Error("-only both: no error")
	}
}
