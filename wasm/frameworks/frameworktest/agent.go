//go:build unix

package frameworktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The agent panel's checks are unix only, as the *Output of Start they
// print is.

// Agent is what CheckAgent expects an app's agent panel to see: the
// resources it lists, each "<uri> <name>", in order; what its first
// readResource of URI gives (as JSON); a push for each click of Steps but
// those that change nothing; then what readResource(URI) gives (Final).
type Agent struct {
	Listed           []string
	URI, Read, Final string
	Steps            []Step
}

// Step is a click of Agent.Steps: the element's selector, and the push it
// makes as "<uri> <value as compact JSON>", or "" for none (an equal
// value: the next step's push is the sentinel that shows it made none).
type Step struct{ Click, Push string }

// CheckAgent checks, in the page of tab, what its agent panel (the element
// #agent: seen) and a listener of the test's see, as a describes; within
// bounds the wait for the panel's first list and read. A panel that shows
// an error fails t with the page's console and what server (if not nil)
// printed.
func CheckAgent(t testing.TB, tab *browsertest.Tab, a Agent, within time.Duration, server *Output) {
	t.Helper()
	s := readAgent(t, tab, `s.list && "read" in s`, within, server)
	var listed []string
	for _, r := range s.List {
		listed = append(listed, r.URI+" "+r.Name)
	}
	if fmt.Sprint(listed) != fmt.Sprint(a.Listed) {
		t.Errorf("getResources() = %q, want %q, once each", listed, a.Listed)
	}
	if string(s.Read) != a.Read {
		t.Errorf("readResource(%q) = %s, want %s", a.URI, s.Read, a.Read)
	}
	tab.Eval(`window.testPushes = [];
		document.modelContext.addEventListener("resourceupdated", (e) => testPushes.push(JSON.parse(JSON.stringify(e.detail)))); true`, nil)
	var want []string
	for i, step := range a.Steps {
		tab.Eval(fmt.Sprintf(`document.querySelector(%q).click(); true`, step.Click), nil)
		if step.Push == "" {
			continue
		}
		want = append(want, step.Push)
		n := len(want)
		s := readAgent(t, tab, fmt.Sprintf(`s.pushes?.length >= %d && testPushes.length >= %d`, n, n), 15*time.Second, server)
		var mine []push
		tab.Eval(`testPushes`, &mine)
		if fmt.Sprint(pushes(s.Pushes)) != fmt.Sprint(want) || fmt.Sprint(pushes(mine)) != fmt.Sprint(want) {
			t.Fatalf("after %d clicks the panel saw the pushes %q and the test's listener %q, want %q", i+1, pushes(s.Pushes), pushes(mine), want)
		}
	}
	if read := Read(t, tab, a.URI); read != a.Final {
		t.Errorf("readResource(%q) after the clicks = %s, want %s", a.URI, read, a.Final)
	}
}

// seen is what an app's agent panel shows: the element #agent, whose text
// is the JSON of what the panel's own consumer got (getResources, one
// readResource and every resourceupdated since), or the error it met.
type seen struct {
	Error  string
	List   []struct{ URI, Name string }
	Read   json.RawMessage
	Pushes []push
}

// push is a resourceupdated event's detail, as far as the tests compare it.
type push struct {
	URI   string
	Value json.RawMessage
}

// pushes are the events, each "<uri> <value as compact JSON>".
func pushes(list []push) []string {
	var out []string
	for _, p := range list {
		var b bytes.Buffer
		if err := json.Compact(&b, p.Value); err != nil {
			b.Reset()
			b.Write(p.Value)
		}
		out = append(out, p.URI+" "+b.String())
	}
	return out
}

// readAgent waits until the agent panel's state s meets the JavaScript
// condition cond, for up to within, and returns it (as it is then, if it
// never does); it fails t when the panel shows an error.
func readAgent(t testing.TB, tab *browsertest.Tab, cond string, within time.Duration, server *Output) seen {
	t.Helper()
	var s seen
	tab.Eval(fmt.Sprintf(`(async () => {
		const seen = () => JSON.parse(document.getElementById("agent")?.textContent || "{}");
		const end = performance.now() + %d;
		for (let s = seen(); ; s = seen()) {
			if (s.error || (%s) || performance.now() > end) return s;
			await new Promise((r) => setTimeout(r, 20));
		}
	})()`, within.Milliseconds(), cond), &s)
	if s.Error != "" {
		said := ""
		if server != nil {
			said = "\nthe server said:\n" + server.String()
		}
		t.Fatalf("the agent panel shows an error: %s\n%s%s", s.Error, tab.ConsoleText(), said)
	}
	return s
}
