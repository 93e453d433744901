package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
)

// The floor: what the module's crossings between Go and JavaScript cost at
// the least, and what every push pays on both sides for its event. testdata/bench/floor
// (built like the module) runs on bench.html?impl=floor; its workloads are
// in bench.js. A row of the main table minus the reference's time is what
// the module spends beyond the same JavaScript work; these rows say how much
// of that the crossings it makes must cost.
var floorWorkloads = []struct{ Key, Label string }{
	{"floor-enter", "enter Go: an empty //go:wasmexport call"},
	{"floor-host-call", "Go calls JS: a //go:wasmimport call"},
	{"floor-host-call-wrapped", "the same through the loader's wrapper"},
	{"floor-event", "dispatchEvent(new CustomEvent), 1 listener"},
	{"floor-event-from-go", "the same event, made in a call out of Go"},
}

// FloorRow is one floor workload, in µs per operation.
type FloorRow struct {
	Key   string `json:"workload"`
	Label string `json:"label"`
	Ops   int    `json:"ops"`
	CPU   Stats  `json:"cpu_us"`
	Wall  Stats  `json:"wall_us"`
}

// buildFloor builds testdata/bench/floor to out with the flags make build
// gives the module.
func buildFloor(goCmd, root, out string) error {
	cmd := exec.Command(goCmd, "build", "-trimpath", "-gcflags=all=-l", "-ldflags=-s -w", "-o", out, "./testdata/bench/floor")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building testdata/bench/floor: %v\n%s", err, b)
	}
	return nil
}

// measureFloor builds and serves the floor program, and runs the floor
// workloads in a tab of their own for o.rounds rounds.
func (d *driver) measureFloor(o options, root, tmp string, res *Results) error {
	wasm := filepath.Join(tmp, "floor.wasm")
	d.logf("building testdata/bench/floor")
	if err := buildFloor(o.goCmd, root, wasm); err != nil {
		return err
	}
	d.srv.Handle("/bench/floor.wasm", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, wasm) }))
	p, err := d.openTab("floor")
	if err != nil {
		return err
	}
	defer d.closeTab(p)
	if err := d.load(p, "floor", ""); err != nil {
		return err
	}
	if err := p.eval(`Bench.setup("floor")`, nil); err != nil {
		return err
	}
	if err := p.measureOverhead(); err != nil {
		return err
	}
	ops := make([]int, len(floorWorkloads))
	for i, w := range floorWorkloads {
		if ops[i], err = calibrate(o.batchMs, 250, func(k int) ([]float64, error) {
			s, err := p.batch(w.Key, k)
			return []float64{s.cpu}, err
		}); err != nil {
			return err
		}
	}
	samples := make([][]sample, len(floorWorkloads))
	for r := 0; r < o.rounds; r++ {
		d.logf("floor round %d/%d", r+1, o.rounds)
		for i, w := range floorWorkloads {
			s, err := p.batch(w.Key, ops[i])
			if err != nil {
				return err
			}
			samples[i] = append(samples[i], s)
		}
	}
	for i, w := range floorWorkloads {
		res.Floor = append(res.Floor, FloorRow{Key: w.Key, Label: w.Label, Ops: ops[i],
			CPU: summarize(cpuOf(samples[i]), ops[i]), Wall: summarize(wallOf(samples[i]), ops[i])})
	}
	return nil
}

func printFloor(w io.Writer, rows []FloorRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "\nthe crossings' floor (testdata/bench/floor), CPU µs per operation (median, quartiles)")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-46s %8.3f  %.3f–%.3f\n", r.Label, r.CPU.Median, r.CPU.Q1, r.CPU.Q3)
	}
}
