package main

import (
	"fmt"
	"io"
)

// The start-up phases: the main-thread CPU time of compiling, instantiating
// and starting (go.run until main blocks) the module's .wasm and the bare Go
// program's, each phase on fresh copies (testdata/bench/startup.html and
// startup.js), paired round by round like the workloads. In -against mode
// the -against build takes the bare program's place. It tells a difference
// in ready apart: more to compile, more to instantiate, or more for Go's
// runtime to do before main blocks.
var startupPhases = []struct{ Key, Label string }{
	{"startup-compile", "compile (new WebAssembly.Module)"},
	{"startup-instantiate", "instantiate (new WebAssembly.Instance)"},
	{"startup-run", "go.run until main blocks (lazy compiles too)"},
}

// StartupRow is one phase, in CPU ms of the main thread per copy.
type StartupRow struct {
	Key    string `json:"phase"`
	Label  string `json:"label"`
	Vs     string `json:"vs"` // "bare", or "against"
	Ops    int    `json:"ops"`
	Ours   Stats  `json:"ours_cpu_ms"`
	Other  Stats  `json:"other_cpu_ms"`
	Paired Stats  `json:"paired"`
}

// measureStartup runs the start-up phases for o.rounds rounds.
func (d *driver) measureStartup(o options, res *Results) error {
	wasm := map[string]string{"ours": "/static/modelcontext.wasm", "bare": "/bench/bare.wasm"}
	if o.dist != "" {
		wasm["ours"] = "/bench/dist/modelcontext.wasm"
	}
	other := "bare"
	if d.against {
		other, wasm["against"] = "against", "/bench/against/modelcontext.wasm"
	}
	pages := map[string]*page{}
	for _, impl := range []string{"ours", other} {
		p, err := d.openTab("startup/" + impl)
		if err != nil {
			return err
		}
		defer d.closeTab(p)
		if err := p.tab.TryNavigate(d.srv.URL("/bench/startup.html?wasm=" + wasm[impl])); err != nil {
			return fmt.Errorf("%s: %w\n%s", p.name, err, p.tab.ConsoleText())
		}
		if err := p.eval(`Bench.ready`, nil); err != nil {
			return err
		}
		if err := p.measureOverhead(); err != nil {
			return err
		}
		pages[impl] = p
	}
	// batch prepares ops fresh copies for the phase (untimed) and runs it.
	batch := func(p *page, phase string, ops int) (sample, error) {
		if err := p.eval(fmt.Sprintf("Bench.prepare(%q, %d)", phase, ops), nil); err != nil {
			return sample{}, err
		}
		return p.batch(phase, ops)
	}
	const targetMs, maxMs = 40.0, 400.0
	ops := make([]int, len(startupPhases))
	for i, ph := range startupPhases {
		n, err := calibrate(targetMs, maxMs, func(k int) ([]float64, error) {
			var per []float64
			for _, impl := range []string{"ours", other} {
				s, err := batch(pages[impl], ph.Key, k)
				if err != nil {
					return nil, err
				}
				per = append(per, s.cpu)
			}
			return per, nil
		})
		if err != nil {
			return err
		}
		ops[i] = n
		d.logf("calibrated %-20s %6d copies per batch", ph.Key, n)
	}
	ours := make([][]float64, len(startupPhases))
	theirs := make([][]float64, len(startupPhases))
	for r := 0; r < o.rounds; r++ {
		d.logf("start-up phases round %d/%d", r+1, o.rounds)
		for i, ph := range startupPhases {
			order := []string{"ours", other}
			if r%2 == 1 {
				order = []string{other, "ours"}
			}
			for _, impl := range order {
				s, err := batch(pages[impl], ph.Key, ops[i])
				if err != nil {
					return err
				}
				if impl == "ours" {
					ours[i] = append(ours[i], s.cpu/1000) // ms per copy
				} else {
					theirs[i] = append(theirs[i], s.cpu/1000)
				}
			}
		}
	}
	for i, ph := range startupPhases {
		paired := make([]float64, len(ours[i]))
		for r := range ours[i] {
			paired[r] = ours[i][r] / theirs[i][r]
		}
		res.Startup = append(res.Startup, StartupRow{Key: ph.Key, Label: ph.Label, Vs: other, Ops: ops[i],
			Ours: summarize(ours[i], ops[i]), Other: summarize(theirs[i], ops[i]), Paired: summarize(paired, 0)})
	}
	return nil
}

func printStartup(w io.Writer, rows []StartupRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nstart-up phases, main-thread CPU ms per fresh copy (median), ours against %s\n", rows[0].Vs)
	fmt.Fprintf(w, "  %-46s %9s %9s %7s %13s\n", "phase", "ours", rows[0].Vs, "ratio", "quartiles")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-46s %9.2f %9.2f %6.2f× %6.2f–%-6.2f\n", r.Label, r.Ours.Median, r.Other.Median, r.Paired.Median, r.Paired.Q1, r.Paired.Q3)
	}
}
