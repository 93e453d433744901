package main

import (
	"bytes"
	"strings"
	"testing"
)

// The command's pure pieces: the ratios, the floors and the table. The
// session itself needs Chromium and is make bench-agent's.

func sample() []Received {
	return []Received{
		{Key: "all", Messages: 100, Bytes: 10000, Tokens: 4000, Start: Count{Messages: 8, Bytes: 2000, Tokens: 800}},
		{Key: "changed", Messages: 50, Bytes: 5000, Tokens: 1800, Start: Count{Messages: 8, Bytes: 2000, Tokens: 800}},
		{Key: "tool", Messages: 20, Bytes: 2800, Tokens: 1000, Start: Count{Messages: 2, Bytes: 2200, Tokens: 850}},
		{Key: "mcp", Messages: 40, Bytes: 6000, Tokens: 2000},
		{Key: "mcpread", Messages: 60, Bytes: 9000, Tokens: 3000},
		{Key: "patches", Messages: 30, Bytes: 3000, Tokens: 1200, Start: Count{Messages: 9, Bytes: 2100, Tokens: 820}},
	}
}

func TestRatios(t *testing.T) {
	got := map[string]Ratio{}
	for _, r := range ratios(sample()) {
		got[r.Name] = r
	}
	want := map[string]Ratio{
		"tool/all":        {Name: "tool/all", Bytes: 0.28, Tokens: 0.25, FollowBytes: 0.075, FollowTokens: 0.0469},
		"tool/changed":    {Name: "tool/changed", Bytes: 0.56, Tokens: 0.5556, FollowBytes: 0.2, FollowTokens: 0.15},
		"mcp/all":         {Name: "mcp/all", Bytes: 0.6, Tokens: 0.5, FollowBytes: 0.75, FollowTokens: 0.625},
		"patches/all":     {Name: "patches/all", Bytes: 0.3, Tokens: 0.3, FollowBytes: 0.1125, FollowTokens: 0.1188},
		"patches/changed": {Name: "patches/changed", Bytes: 0.6, Tokens: 0.6667, FollowBytes: 0.3, FollowTokens: 0.38},
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %+v, want %+v", name, got[name], w)
		}
	}
	if len(got) != 7 {
		t.Errorf("got %d ratios, want 7: %v", len(got), got)
	}
	if rs := ratios([]Received{{Key: "tool", Bytes: 1, Tokens: 1}}); len(rs) != 0 {
		t.Errorf("ratios without the agents they divide by: %v", rs)
	}
}

func TestTargets(t *testing.T) {
	res := &Results{Ratios: ratios(sample()), Timed: []Timed{
		{Key: "push-patch", Paired: &Stats{Median: 2.5, Q1: 2.1, Q3: 2.9}},
		{Key: "changes-recent", Us: Stats{Median: 12}},
		{Key: "changes-all", Us: Stats{Median: 40}},
	}}
	var lines []string
	for _, c := range checkTargets(res) {
		mark := "MISS"
		if c.OK {
			mark = "ok"
		}
		lines = append(lines, mark+" "+c.Name+": "+c.Detail)
	}
	want := []string{
		"ok read_changes / every resource each turn (c/a) ≤ 0.30: bytes 0.280, tokens 0.250 (aim ≤0.15 not met)",
		"MISS read_changes / changed ones whole (c/b) ≤ 0.50: bytes 0.560, tokens 0.556",
		"MISS 10 KB push with one patch subscriber ≤ 2× a plain push: 2.50× paired (quartiles 2.10–2.90)",
		"ok changesSince over 1,000 resources < 1 ms: recent 12.0 µs, all 40.0 µs (median per call)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// (c'')/(b) is a line beside the floor, not a target row.
	if got, want := besideTheFloor(res), "in-page subscribeResource {patch: true} / changed ones whole (c''/b): bytes 0.600, tokens 0.667, not within the 0.50 of the c/b floor, which is read_changes'"; got != want {
		t.Errorf("beside the floor: got %q, want %q", got, want)
	}
	res = &Results{Ratios: []Ratio{{Name: "patches/changed", Bytes: 0.45, Tokens: 0.5}}}
	if got := besideTheFloor(res); !strings.Contains(got, "bytes 0.450, tokens 0.500, within the 0.50") {
		t.Errorf("beside the floor, within: %q", got)
	}
	if c := checkTargets(res); len(c) != 0 {
		t.Errorf("(c'')/(b) made a target row: %+v", c)
	}
	if got := besideTheFloor(&Results{}); got != "" {
		t.Errorf("beside the floor without the ratio: %q", got)
	}
	// Both bytes and tokens must be within the floor.
	res = &Results{Ratios: []Ratio{{Name: "tool/all", Bytes: 0.29, Tokens: 0.31}}}
	if c := checkTargets(res); len(c) != 1 || c[0].OK {
		t.Errorf("tokens over the floor passed: %+v", c)
	}
	// A part left out (-only) has no check.
	if c := checkTargets(&Results{}); len(c) != 0 {
		t.Errorf("checks without results: %+v", c)
	}
}

func TestTable(t *testing.T) {
	res := &Results{Visitor: 102, Server: 6, Every: 1, Turns: 108, Resources: 8, Browser: "HeadlessChrome/1", Tokenizer: "gpt-tokenizer 4.0.0, o200k_base",
		Rounds: 3, Stale: map[string]int{"tool": 2}, StaleURIs: map[string]string{"tool": `first after "x": state://note`}}
	for i, r := range sample() {
		r.Label = agents[i].Label
		res.Agents = append(res.Agents, r)
	}
	res.Ratios = ratios(res.Agents)
	p := paired([]float64{2, 4, 6}, []float64{1, 2, 2})
	res.Timed = []Timed{{Key: "push-plain", Label: "push", Ops: 8, Us: summarize([]float64{1, 2, 3})}, {Key: "push-patch", Label: "patch", Us: summarize([]float64{2, 4, 6}), Paired: &p}}
	res.Targets = checkTargets(res)
	var b bytes.Buffer
	printTable(&b, res)
	out := b.String()
	for _, want := range []string{
		"102 visitor actions and 6 order updates, a turn after each step (108 turns, 8 resources at the end)",
		"(a)  every resource each turn (read_resource)       100      10000      4000    1.000    1.000",
		"(c)  read_changes (values, then patches)             20       2800      1000    0.280    0.250",
		"(c)/(a)                                           0.280    0.250   0.075   0.047",
		"MCP stock/(a)",
		"(c'') in-page, subscribeResource {patch: true}       30       3000      1200    0.300    0.300",
		"(c'')/(b)                                         0.600    0.667   0.300   0.380",
		"  (informational) in-page subscribeResource {patch: true} / changed ones whole (c''/b): bytes 0.600",
		"! tool's mirror disagreed with the page after 2 turns (first after \"x\": state://note)",
		"  patch                                                     4.00  3.00–5.00  2.00× paired (2.00–2.50)",
		"  ok   10 KB push with one patch subscriber ≤ 2× a plain push: 2.00× paired (quartiles 2.00–2.50)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}
