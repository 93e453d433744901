package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// measureWorkloads opens one tab per implementation and workload set (and
// one for the bare program), calibrates every workload and runs the rounds:
// o.rounds for every workload, then more (up to o.maxRounds) for each
// workload whose target is still within the uncertainty of its paired median
// (see unsettled).
func (d *driver) measureWorkloads(o options, selected []workload, res *Results) error {
	pages := map[string]*page{} // "ours/main", "ref/list", "mcpb/mcp", "bare"
	sets := map[string]bool{}
	for _, w := range selected {
		sets[w.Set] = true
	}
	for _, set := range workloadSets {
		if !sets[set] {
			continue
		}
		for _, impl := range setImpls[set] {
			name := impl + "/" + set
			p, err := d.openTab(name)
			if err != nil {
				return err
			}
			if err := d.load(p, impl, set); err != nil {
				return err
			}
			var info map[string]any
			if err := p.eval(fmt.Sprintf("Bench.setup(%q)", set), &info); err != nil {
				return err
			}
			if err := p.measureOverhead(); err != nil {
				return err
			}
			res.Setup[name] = info
			pages[name] = p
		}
	}
	bare, err := d.openTab("bare")
	if err != nil {
		return err
	}
	if err := d.load(bare, "bare", ""); err != nil {
		return err
	}
	if err := bare.measureOverhead(); err != nil {
		return err
	}
	var visible []string
	for _, p := range append(d.open[:0:0], d.open...) {
		var v string
		p.eval(`document.visibilityState`, &v)
		if v != "visible" {
			visible = append(visible, p.name+": "+v)
		}
	}
	if len(visible) > 0 {
		d.logf("note: tabs not visible (timers may be throttled): %v", visible)
	}

	// Calibrate and warm up: double ops until the faster implementation's
	// batch takes a quarter of the target, then size the batch for the
	// target, capped so that the slower one's stays under maxBatch.
	const maxBatch = 250.0 // ms
	ops := map[string]int{}
	for _, w := range selected {
		n, err := calibrate(o.batchMs, maxBatch, func(k int) ([]float64, error) {
			var per []float64
			for _, impl := range setImpls[w.Set] {
				s, err := pages[impl+"/"+w.Set].batch(w.JS, k)
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
		ops[w.Key] = n
		d.logf("calibrated %-20s %6d ops per batch", w.Key, n)
	}
	crossOps, err := calibrate(o.batchMs, maxBatch, func(k int) ([]float64, error) {
		s, err := bare.batch("crossing", k)
		return []float64{s.cpu}, err
	})
	if err != nil {
		return err
	}
	d.logf("calibrated %-20s %6d ops per batch", "crossing", crossOps)

	// samples[key][impl] are a workload's batches, one per round.
	samples := map[string]map[string][]sample{}
	for _, w := range selected {
		samples[w.Key] = map[string][]sample{}
	}
	// paired returns the CPU-time ratios ours / other of a workload's
	// rounds. A round in which either batch took no more CPU time than an
	// empty one (the tab's overhead) has no ratio: it is left out, and
	// unmeasured counts it.
	paired := func(w workload) (ratios []float64, unmeasured int) {
		pair := setImpls[w.Set]
		ours, other := samples[w.Key][pair[0]], samples[w.Key][pair[1]]
		ratios = make([]float64, 0, len(ours))
		for i := range ours {
			ours[i].refresh()
			other[i].refresh()
			if ours[i].cpu <= 0 || other[i].cpu <= 0 {
				unmeasured++
				continue
			}
			ratios = append(ratios, ours[i].cpu/other[i].cpu)
		}
		return ratios, unmeasured
	}
	var cross []sample
	round := func(r int, todo []workload) error {
		// Follow the tabs' evaluation overhead through the run.
		for _, p := range append([]*page{bare}, slices.Collect(maps.Values(pages))...) {
			if err := p.noteOverhead(); err != nil {
				return err
			}
		}
		for _, w := range todo {
			order := setImpls[w.Set]
			if r%2 == 1 {
				order = []string{order[1], order[0]}
			}
			for _, impl := range order {
				p := pages[impl+"/"+w.Set]
				// An MCP round trip crosses the event loop twice and is
				// slowed, up to 3×, by work the previous batch left
				// running in its tab (garbage collection after the
				// register cycles): an untimed batch first lets it end.
				if isMCP(w.Set) {
					if _, err := p.batch(w.JS, ops[w.Key]); err != nil {
						return err
					}
				}
				s, err := p.batch(w.JS, ops[w.Key])
				if err != nil {
					return err
				}
				samples[w.Key][impl] = append(samples[w.Key][impl], s)
			}
		}
		s, err := bare.batch("crossing", crossOps)
		if err != nil {
			return err
		}
		cross = append(cross, s)
		return nil
	}
	for r := 0; r < o.rounds; r++ {
		d.logf("round %d/%d", r+1, o.rounds)
		if err := round(r, selected); err != nil {
			return err
		}
	}
	for r := o.rounds; r < o.maxRounds; r++ {
		var todo []workload
		for _, w := range selected {
			if ratios, _ := paired(w); w.Max > 0 && !d.against && unsettled(ratios, w.Max) {
				todo = append(todo, w)
			}
		}
		if len(todo) == 0 {
			break
		}
		var keys []string
		for _, w := range todo {
			keys = append(keys, w.Key)
		}
		d.logf("round %d (of at most %d), for %s: the target is within the uncertainty of the median", r+1, o.maxRounds, strings.Join(keys, ", "))
		if err := round(r, todo); err != nil {
			return err
		}
	}

	refreshAll(cross)
	overhead := map[string]float64{"bare": round3(bare.overheadMs)}
	for name, p := range pages {
		overhead[name] = round3(p.overheadMs)
	}
	res.Setup["eval_overhead_cpu_ms"] = overhead
	c := summarize(wallOf(cross), crossOps)
	cc := summarize(cpuOf(cross), crossOps)
	res.Crossing, res.CrossingCPU = &c, &cc
	for _, w := range selected {
		pair := setImpls[w.Set]
		ratios, unmeasured := paired(w) // refreshes the samples
		if unmeasured > 0 {
			d.logf("%s: %d of %d rounds measured no CPU time beyond an empty batch's in one tab; the ratio is of the other %d", w.Key, unmeasured, len(ratios)+unmeasured, len(ratios))
		}
		ours, other := samples[w.Key][pair[0]], samples[w.Key][pair[1]]
		row := Row{Key: w.Key, Label: w.Label, Ops: ops[w.Key], Rounds: len(ours), Target: w.Max,
			Ours: summarize(wallOf(ours), ops[w.Key]), Ref: summarize(wallOf(other), ops[w.Key]),
			OursCPU: summarize(cpuOf(ours), ops[w.Key]), RefCPU: summarize(cpuOf(other), ops[w.Key]),
			Paired: summarize(ratios, 0)}
		row.Ratio = round3(row.Ours.Median / row.Ref.Median)
		wall := make([]float64, len(ours))
		for i := range ours {
			wall[i] = ours[i].wall / other[i].wall
		}
		row.PairedRatio = round3(median(wall))
		row.CI = medianCI(ratios)
		if isMCP(w.Set) {
			row.Vs = setImpls[w.Set][1]
			if row.Vs == "mcpb" && d.against {
				row.Vs = "against"
			}
			res.MCP = append(res.MCP, row)
			continue
		}
		row.Crossings = round3((row.OursCPU.Median - row.RefCPU.Median) / cc.Median)
		res.Workloads = append(res.Workloads, row)
	}
	return nil
}
