package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// step is one of visitor.js's steps.
type step struct {
	Kind   string `json:"kind"` // "visitor" or "server"
	Label  string `json:"label"`
	Settle int    `json:"settle"` // ms the agents wait before their turn
}

// turnResult is what AgentSession.turn and setup answer.
type turnResult struct {
	Revision   int                         `json:"revision"`
	Resources  int                         `json:"resources"`
	Mismatches map[string][]map[string]any `json:"mismatches"`
	Bytes      map[string]int              `json:"bytes"`
}

// summary is AgentSession.summary().
type summary struct {
	Turns   int            `json:"turns"`
	Started map[string]int `json:"started"`
	Tool    map[string]int `json:"tool"`
	MCP     map[string]int `json:"mcp"`
	MCPRead map[string]int `json:"mcpread"`
	Patches map[string]int `json:"patches"`
	Errors  []string       `json:"errors"`
}

// counted is count.mjs's answer.
type counted struct {
	Encoding  string `json:"encoding"`
	Tokenizer string `json:"tokenizer"`
	Version   string `json:"version"`
	Agents    map[string]struct {
		Messages, Bytes, Tokens int
	} `json:"agents"`
}

// runSession opens the demo at url in a tab of br, runs the visitor and the
// agents, and counts what each agent received.
func runSession(br *browsertest.Browser, url, root string, o options, res *Results, logf func(string, ...any)) error {
	tab, closeTab, err := br.ProgramTab()
	if err != nil {
		return err
	}
	defer closeTab()
	var texts map[string][]string
	var failed error
	if err := browsertest.Try(func() { texts, failed = session(tab, url, root, o, res, logf) }); err != nil {
		return fmt.Errorf("%w\n%s", err, tab.ConsoleText())
	}
	if failed != nil {
		return failed
	}
	b, err := json.Marshal(texts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.texts), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(o.texts, b, 0o644); err != nil {
		return err
	}
	logf("wrote %s; counting tokens", o.texts)
	node := exec.Command("node", "count.mjs", o.texts)
	node.Dir = filepath.Join(root, "testdata", "agentsession")
	node.Stderr = os.Stderr
	out, err := node.Output()
	if err != nil {
		return fmt.Errorf("node testdata/agentsession/count.mjs: %w", err)
	}
	var c counted
	if err := json.Unmarshal(out, &c); err != nil {
		return fmt.Errorf("count.mjs answered %q: %w", out, err)
	}
	res.Tokenizer = fmt.Sprintf("%s %s, %s", c.Tokenizer, c.Version, c.Encoding)
	for _, a := range agents {
		n, ok := c.Agents[a.Key]
		if !ok {
			return fmt.Errorf("count.mjs counted no texts of the agent %q", a.Key)
		}
		st := c.Agents["start:"+a.Key]
		res.Agents = append(res.Agents, Received{Key: a.Key, Label: a.Label, Messages: n.Messages, Bytes: n.Bytes, Tokens: n.Tokens,
			Start: Count{Messages: st.Messages, Bytes: st.Bytes, Tokens: st.Tokens}})
	}
	res.Ratios = ratios(res.Agents)
	return nil
}

// session is runSession in its tab, whose helpers panic with a
// *browsertest.Failure where they fail.
func session(tab *browsertest.Tab, url, root string, o options, res *Results, logf func(string, ...any)) (map[string][]string, error) {
	tab.Timeout = 2 * time.Minute
	tab.Navigate(url + "?tick=manual")
	tab.Eval(`document.modelContext.ready.then(() => navigator.userAgent)`, &res.Browser)
	res.Browser = browserName(res.Browser)
	for _, f := range []string{"visitor.js", "agent.js"} {
		src, err := os.ReadFile(filepath.Join(root, "testdata", "agentsession", f))
		if err != nil {
			return nil, err
		}
		tab.Eval(string(src)+"\n;true", nil)
	}
	var steps []step
	tab.Eval(`Visitor.actions`, &steps)
	for _, s := range steps {
		if s.Kind == "visitor" {
			res.Visitor++
		} else {
			res.Server++
		}
	}
	logf("%d visitor actions, %d order updates; the agents start", res.Visitor, res.Server)
	res.Stale, res.StaleURIs = map[string]int{}, map[string]string{}
	stale := func(t turnResult, label string) {
		for agent, ms := range t.Mismatches {
			res.Stale[agent]++
			if _, ok := res.StaleURIs[agent]; !ok && len(ms) > 0 {
				res.StaleURIs[agent] = fmt.Sprintf("first after %q: %v", label, ms[0]["uri"])
				logf("%s's mirror disagrees with the page after %q: %v", agent, label, ms)
			}
		}
	}
	var t turnResult
	tab.Eval(`AgentSession.setup()`, &t)
	stale(t, "the start")
	settle, resources := 0, t.Resources
	for i, s := range steps {
		var path string
		tab.Eval(fmt.Sprintf(`Visitor.act(%d)`, i), &path)
		settle = max(settle, s.Settle)
		if (i+1)%o.every != 0 && i != len(steps)-1 {
			continue
		}
		var t turnResult // a fresh one: Unmarshal would merge into the last one's maps
		tab.Eval(fmt.Sprintf(`AgentSession.turn(%d)`, settle), &t)
		settle = 0
		res.Turns++
		res.PerTurn = append(res.PerTurn, Turn{Step: i + 1, Kind: s.Kind, Label: s.Label, Bytes: t.Bytes})
		stale(t, s.Label)
		resources = t.Resources
		if res.Turns%20 == 0 || i == len(steps)-1 {
			logf("turn %d (step %d/%d, %s): revision %d, %d resources", res.Turns, i+1, len(steps), path, t.Revision, t.Resources)
		}
	}
	res.Resources = resources
	var sum summary
	tab.Eval(`AgentSession.summary()`, &sum)
	if len(sum.Errors) > 0 {
		return nil, fmt.Errorf("the MCP clients reported errors: %s", strings.Join(sum.Errors, "; "))
	}
	res.Followed = map[string]any{"tool": sum.Tool, "mcp": sum.MCP, "mcpread": sum.MCPRead, "patches": sum.Patches}
	if len(res.Stale) == 0 {
		res.Stale, res.StaleURIs = nil, nil
	}
	var texts map[string][]string
	tab.Eval(`AgentSession.received`, &texts)
	// What each agent received at its start (the list and every value, the
	// same for all) is counted apart as well, under "start:<agent>".
	for _, a := range agents {
		n, ok := sum.Started[a.Key]
		if !ok || n > len(texts[a.Key]) {
			return nil, fmt.Errorf("AgentSession.summary() gives %d texts of %d as %s's start", n, len(texts[a.Key]), a.Key)
		}
		texts["start:"+a.Key] = texts[a.Key][:n]
	}
	return texts, nil
}

// browserName shortens a user agent to "Chrome/NNN…".
func browserName(ua string) string {
	for _, f := range strings.Fields(ua) {
		if strings.HasPrefix(f, "HeadlessChrome/") || strings.HasPrefix(f, "Chrome/") {
			return f
		}
	}
	if ua == "" {
		return "Chromium"
	}
	return ua
}
