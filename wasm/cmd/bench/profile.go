package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profileWorkload runs workload key in both implementations under V8's
// sampling profiler (the DevTools Performance panel's JavaScript profiler,
// which sees wasm functions by their Go names), writes one .cpuprofile per
// implementation next to -out (open it in DevTools), and prints where the
// time went: self and inclusive time per function.
func (d *driver) profileWorkload(o options, key string, stdout io.Writer) error {
	if key == "ready" {
		return d.profileReady(o, stdout)
	}
	var w *workload
	for i := range workloads {
		if workloads[i].Key == key {
			w = &workloads[i]
		}
	}
	if w == nil {
		var keys []string
		for _, x := range workloads {
			keys = append(keys, x.Key)
		}
		return fmt.Errorf("-profile %q: no such workload (have ready, %s)", key, strings.Join(keys, ", "))
	}
	for _, impl := range setImpls[w.Set] {
		p, err := d.openTab(impl + "/" + w.Set)
		if err != nil {
			return err
		}
		if err := d.load(p, impl, w.Set); err != nil {
			return err
		}
		if err := p.eval(fmt.Sprintf("Bench.setup(%q)", w.Set), nil); err != nil {
			return err
		}
		if err := p.measureOverhead(); err != nil {
			return err
		}
		ops, err := calibrate(o.batchMs, 250, func(k int) ([]float64, error) {
			s, err := p.batch(w.JS, k)
			return []float64{s.cpu}, err
		})
		if err != nil {
			return err
		}
		d.logf("profiling %s in %s: batches of %d ops for %v", key, impl, ops, o.profileFor)
		if err := p.startProfiler(50); err != nil {
			return err
		}
		var sum float64
		n := 0
		for t0 := time.Now(); time.Since(t0) < o.profileFor; n++ {
			s, err := p.batch(w.JS, ops)
			if err != nil {
				return err
			}
			sum += s.cpu
		}
		prof, err := p.stopProfiler()
		if err != nil {
			return err
		}
		file, err := writeProfile(o, key+"-"+impl, prof)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\n%s, %s: %d batches of %d ops, mean %.2f CPU µs/op (profiler on); %s\n",
			w.Label, impl, n, ops, sum/float64(n), file)
		printProfile(stdout, prof, 25)
	}
	return nil
}

// profileReady profiles the start-up of ours and of the bare Go program:
// -ready fresh tabs each, with the profiler started on a blank page of the
// same origin before the navigation to the bench page and stopped when ready
// resolved. The samples of all tabs are added up.
func (d *driver) profileReady(o options, stdout io.Writer) error {
	n := max(o.ready, 1)
	for _, impl := range []string{"ours", "bare"} {
		var profs []*profiler.Profile
		for i := 0; i < n; i++ {
			p, err := d.openTab("profile-ready/" + impl)
			if err != nil {
				return err
			}
			if err := p.tab.TryNavigate(d.srv.URL("/bench/blank.html")); err != nil {
				return err
			}
			if err := p.startProfiler(100); err != nil {
				return err
			}
			if err := d.load(p, impl, ""); err != nil {
				return err
			}
			prof, err := p.stopProfiler()
			if err != nil {
				return err
			}
			var t timing
			if err := p.eval(`Bench.timing()`, &t); err != nil {
				return err
			}
			d.closeTab(p)
			profs = append(profs, prof)
			fmt.Fprintf(stdout, "%s: ready at %.1f ms, script tags ran %.1f ms, profile %.1f ms\n",
				impl, t.Ready, t.ScriptsRan, (prof.EndTime-prof.StartTime)/1000)
		}
		file, err := writeProfile(o, "ready-"+impl, profs[len(profs)-1])
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nstart-up of %s, %d fresh tabs; the last profile is %s\n", impl, n, file)
		printProfile(stdout, mergeProfiles(profs), 30)
	}
	return nil
}

// startProfiler enables and starts V8's sampling profiler in p, taking a
// sample every intervalUs microseconds.
func (p *page) startProfiler(intervalUs int64) error {
	return chromedp.Run(p.tab.Ctx, profiler.Enable(), profiler.SetSamplingInterval(intervalUs), profiler.Start())
}

// stopProfiler stops the profiler startProfiler started and returns what it
// sampled.
func (p *page) stopProfiler() (*profiler.Profile, error) {
	var prof *profiler.Profile
	if err := chromedp.Run(p.tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		prof, err = profiler.Stop().Do(ctx)
		return err
	})); err != nil {
		return nil, err
	}
	return prof, nil
}

// writeProfile writes prof as profile-<name>.cpuprofile next to -out (for
// DevTools) and returns the file's path.
func writeProfile(o options, name string, prof *profiler.Profile) (string, error) {
	file := filepath.Join(filepath.Dir(o.out), "profile-"+name+".cpuprofile")
	b, err := json.Marshal(prof)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		return "", err
	}
	return file, nil
}

// mergeProfiles concatenates the nodes and samples of several profiles (node
// IDs are renumbered), for printProfile.
func mergeProfiles(profs []*profiler.Profile) *profiler.Profile {
	out := &profiler.Profile{}
	var base int64
	for _, p := range profs {
		var top int64
		for _, n := range p.Nodes {
			c := *n
			c.ID += base
			c.Children = nil
			for _, ch := range n.Children {
				c.Children = append(c.Children, ch+base)
			}
			out.Nodes = append(out.Nodes, &c)
			top = max(top, n.ID)
		}
		for _, s := range p.Samples {
			out.Samples = append(out.Samples, s+base)
		}
		base += top + 1
	}
	return out
}

// printProfile prints the functions with the most self time, with their
// inclusive time, as shares of the busy (non-idle) samples.
func printProfile(w io.Writer, prof *profiler.Profile, top int) {
	parent := map[int64]int64{}
	byID := map[int64]*profiler.ProfileNode{}
	for _, n := range prof.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	name := func(n *profiler.ProfileNode) string {
		f := n.CallFrame
		fn := f.FunctionName
		if fn == "" {
			fn = "(anonymous)"
		}
		if f.URL == "" {
			return fn
		}
		u := f.URL
		if i := strings.LastIndex(u, "/"); i >= 0 {
			u = u[i+1:]
		}
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
		return fmt.Sprintf("%s %s:%d", fn, u, f.LineNumber+1)
	}
	self := map[string]int{}
	incl := map[string]int{}
	busy := 0
	for _, s := range prof.Samples {
		n := byID[s]
		if n == nil {
			continue
		}
		switch n.CallFrame.FunctionName {
		case "(idle)", "(program)", "(root)":
			continue
		}
		busy++
		self[name(n)]++
		seen := map[string]bool{}
		for id, ok := s, true; ok; id, ok = parent[id] {
			k := name(byID[id])
			if !seen[k] {
				seen[k] = true
				incl[k]++
			}
		}
	}
	if busy == 0 {
		fmt.Fprintln(w, "  (no busy samples)")
		return
	}
	keys := make([]string, 0, len(self))
	for k := range self {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return self[keys[i]] > self[keys[j]] })
	fmt.Fprintf(w, "  %6s %6s  %s   (%% of %d busy samples)\n", "self", "total", "function", busy)
	for i, k := range keys {
		if i == top {
			break
		}
		fmt.Fprintf(w, "  %5.1f%% %5.1f%%  %s\n", 100*float64(self[k])/float64(busy), 100*float64(incl[k])/float64(busy), k)
	}
}
