package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// workloadRun is one measurement of the selected workloads: their tabs,
// their batch sizes and the batches measured.
type workloadRun struct {
	d        *driver
	o        options
	selected []workload
	pages    map[string]*page // "ours/main", "ref/list", "mcpb/mcp"
	bare     *page
	ops      map[string]int // a workload's batch size, by key
	crossOps int            // the crossing's batch size
	// samples[key][impl] are a workload's batches, one per round.
	samples map[string]map[string][]sample
	cross   []sample // the crossing's batches, one per round
}

// measureWorkloads opens one tab per implementation and workload set (and
// one for the bare program), calibrates every workload and runs the rounds:
// o.rounds for every workload, then more (up to o.maxRounds) for each
// workload whose target is still within the uncertainty of its paired median
// (see unsettled).
func (d *driver) measureWorkloads(o options, selected []workload, res *Results) error {
	wr := &workloadRun{d: d, o: o, selected: selected, pages: map[string]*page{}}
	if err := wr.openTabs(res); err != nil {
		return err
	}
	d.noteHiddenTabs()
	if err := wr.calibrate(); err != nil {
		return err
	}
	wr.samples = map[string]map[string][]sample{}
	for _, w := range selected {
		wr.samples[w.Key] = map[string][]sample{}
	}
	if err := wr.runRounds(); err != nil {
		return err
	}
	wr.record(res)
	return nil
}

// openTabs opens and sets up a tab per implementation of every workload set
// that a selected workload is in, then the bare program's tab.
func (wr *workloadRun) openTabs(res *Results) error {
	sets := map[string]bool{}
	for _, w := range wr.selected {
		sets[w.Set] = true
	}
	for _, set := range workloadSets {
		if !sets[set] {
			continue
		}
		for _, impl := range setImpls[set] {
			if err := wr.openSetTab(impl, set, res); err != nil {
				return err
			}
		}
	}
	bare, err := wr.d.openTab("bare")
	if err != nil {
		return err
	}
	if err := wr.d.load(bare, "bare", ""); err != nil {
		return err
	}
	if err := bare.measureOverhead(); err != nil {
		return err
	}
	wr.bare = bare
	return nil
}

// openSetTab opens the tab of impl for a workload set, sets the set up in
// it (its info goes to res.Setup) and measures the tab's overhead.
func (wr *workloadRun) openSetTab(impl, set string, res *Results) error {
	name := impl + "/" + set
	p, err := wr.d.openTab(name)
	if err != nil {
		return err
	}
	if err := wr.d.load(p, impl, set); err != nil {
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
	wr.pages[name] = p
	return nil
}

// noteHiddenTabs logs the open tabs that are not visible: their timers may
// be throttled.
func (d *driver) noteHiddenTabs() {
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
}

// calibrate sizes the batches, and warms up: double ops until the faster
// implementation's batch takes a quarter of the target, then size the batch
// for the target, capped so that the slower one's stays under maxBatch.
func (wr *workloadRun) calibrate() error {
	const maxBatch = 250.0 // ms
	wr.ops = map[string]int{}
	for _, w := range wr.selected {
		n, err := calibrate(wr.o.batchMs, maxBatch, func(k int) ([]float64, error) {
			var per []float64
			for _, impl := range setImpls[w.Set] {
				s, err := wr.pages[impl+"/"+w.Set].batch(w.JS, k)
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
		wr.ops[w.Key] = n
		wr.d.logf("calibrated %-20s %6d ops per batch", w.Key, n)
	}
	crossOps, err := calibrate(wr.o.batchMs, maxBatch, func(k int) ([]float64, error) {
		s, err := wr.bare.batch("crossing", k)
		return []float64{s.cpu}, err
	})
	if err != nil {
		return err
	}
	wr.crossOps = crossOps
	wr.d.logf("calibrated %-20s %6d ops per batch", "crossing", crossOps)
	return nil
}

// paired returns the CPU-time ratios ours / other of a workload's rounds. A
// round in which either batch took no more CPU time than an empty one (the
// tab's overhead) has no ratio: it is left out, and unmeasured counts it.
func (wr *workloadRun) paired(w workload) (ratios []float64, unmeasured int) {
	pair := setImpls[w.Set]
	ours, other := wr.samples[w.Key][pair[0]], wr.samples[w.Key][pair[1]]
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

// runRounds runs o.rounds rounds of every workload, then, up to
// o.maxRounds, rounds of those whose target is still within the
// uncertainty of their median.
func (wr *workloadRun) runRounds() error {
	for r := 0; r < wr.o.rounds; r++ {
		wr.d.logf("round %d/%d", r+1, wr.o.rounds)
		if err := wr.round(r, wr.selected); err != nil {
			return err
		}
	}
	for r := wr.o.rounds; r < wr.o.maxRounds; r++ {
		var todo []workload
		for _, w := range wr.selected {
			if ratios, _ := wr.paired(w); w.Max > 0 && !wr.d.against && unsettled(ratios, w.Max) {
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
		wr.d.logf("round %d (of at most %d), for %s: the target is within the uncertainty of the median", r+1, wr.o.maxRounds, strings.Join(keys, ", "))
		if err := wr.round(r, todo); err != nil {
			return err
		}
	}
	return nil
}

// round runs round r of the workloads todo, a batch per implementation in
// an order that alternates from round to round, then a batch of the
// crossing.
func (wr *workloadRun) round(r int, todo []workload) error {
	// Follow the tabs' evaluation overhead through the run.
	for _, p := range append([]*page{wr.bare}, slices.Collect(maps.Values(wr.pages))...) {
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
			p := wr.pages[impl+"/"+w.Set]
			// An MCP round trip crosses the event loop twice and is
			// slowed, up to 3×, by work the previous batch left
			// running in its tab (garbage collection after the
			// register cycles): an untimed batch first lets it end.
			if isMCP(w.Set) {
				if _, err := p.batch(w.JS, wr.ops[w.Key]); err != nil {
					return err
				}
			}
			s, err := p.batch(w.JS, wr.ops[w.Key])
			if err != nil {
				return err
			}
			wr.samples[w.Key][impl] = append(wr.samples[w.Key][impl], s)
		}
	}
	s, err := wr.bare.batch("crossing", wr.crossOps)
	if err != nil {
		return err
	}
	wr.cross = append(wr.cross, s)
	return nil
}

// record writes the tabs' overheads, the crossing and a row per workload
// into res.
func (wr *workloadRun) record(res *Results) {
	refreshAll(wr.cross)
	overhead := map[string]float64{"bare": round3(wr.bare.overheadMs)}
	for name, p := range wr.pages {
		overhead[name] = round3(p.overheadMs)
	}
	res.Setup["eval_overhead_cpu_ms"] = overhead
	c := summarize(wallOf(wr.cross), wr.crossOps)
	cc := summarize(cpuOf(wr.cross), wr.crossOps)
	res.Crossing, res.CrossingCPU = &c, &cc
	for _, w := range wr.selected {
		row := wr.row(w)
		if isMCP(w.Set) {
			row.Vs = setImpls[w.Set][1]
			if row.Vs == "mcpb" && wr.d.against {
				row.Vs = "against"
			}
			res.MCP = append(res.MCP, row)
			continue
		}
		row.Crossings = round3((row.OursCPU.Median - row.RefCPU.Median) / cc.Median)
		res.Workloads = append(res.Workloads, row)
	}
}

// row summarizes a workload's rounds (refreshing its samples), logging the
// rounds that measured no CPU time in one tab.
func (wr *workloadRun) row(w workload) Row {
	pair := setImpls[w.Set]
	ratios, unmeasured := wr.paired(w) // refreshes the samples
	if unmeasured > 0 {
		wr.d.logf("%s: %d of %d rounds measured no CPU time beyond an empty batch's in one tab; the ratio is of the other %d", w.Key, unmeasured, len(ratios)+unmeasured, len(ratios))
	}
	ours, other := wr.samples[w.Key][pair[0]], wr.samples[w.Key][pair[1]]
	ops := wr.ops[w.Key]
	row := Row{Key: w.Key, Label: w.Label, Ops: ops, Rounds: len(ours), Target: w.Max,
		Ours: summarize(wallOf(ours), ops), Ref: summarize(wallOf(other), ops),
		OursCPU: summarize(cpuOf(ours), ops), RefCPU: summarize(cpuOf(other), ops),
		Paired: summarize(ratios, 0)}
	row.Ratio = round3(row.Ours.Median / row.Ref.Median)
	wall := make([]float64, len(ours))
	for i := range ours {
		wall[i] = ours[i].wall / other[i].wall
	}
	row.PairedRatio = round3(median(wall))
	row.CI = medianCI(ratios)
	return row
}
