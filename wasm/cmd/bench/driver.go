package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// benchRoutes serves testdata/bench/ at /bench/, with the bare program and
// the wasm_exec.js of the Go that built it, (withDist) the build of the
// module in dist at /bench/dist/, (-against) another at /bench/against/, and
// testdata/out/ (the stock MCP client and MCP-B's server, built by make
// mcpclient) at /out/.
func benchRoutes(root, bareWasm, wasmExec string, withDist bool, dist, against string) func(*http.ServeMux) {
	return func(mux *http.ServeMux) {
		mux.Handle("/out/", http.StripPrefix("/out/", http.FileServer(http.Dir(filepath.Join(root, "testdata", "out")))))
		if withDist {
			mux.Handle("/bench/dist/", http.StripPrefix("/bench/dist/", http.FileServer(http.Dir(dist))))
		}
		if against != "" {
			mux.Handle("/bench/against/", http.StripPrefix("/bench/against/", http.FileServer(http.Dir(against))))
		}
		dir := filepath.Join(root, "testdata", "bench")
		mux.Handle("/bench/", isolated(http.StripPrefix("/bench/", http.FileServer(http.Dir(dir)))))
		mux.HandleFunc("/bench/bare.wasm", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bareWasm) })
		mux.HandleFunc("/bench/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, wasmExec) })
	}
}

// isolated serves the bench pages cross-origin isolated (COOP and COEP), so
// that performance.now() counts in steps of 5 µs instead of 100 µs. Every
// script they load comes from the same origin, so nothing else changes.
func isolated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".html") {
			w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
			w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		}
		h.ServeHTTP(w, r)
	})
}

// page is one tab on bench.html or mcp.html.
type page struct {
	name  string
	tab   *browsertest.Tab
	close func() // closes the tab
	// overheadMs is the main-thread CPU time of evaluating an empty batch
	// in this tab (the DevTools round trip), subtracted from every batch's:
	// the median of overheads, measured before the batches and once a round.
	overheadMs float64
	overheads  []float64
}

type driver struct {
	br        *browsertest.Browser
	srv       *browsertest.Server
	logf      func(string, ...any)
	open      []*page
	userAgent string
	query     string // added to the bench page's URL for ours
	against   bool   // "ref" is the build at /bench/against/, not the reference
}

func (d *driver) openTab(name string) (*page, error) {
	tab, close, err := d.br.ProgramTab()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	tab.Timeout = time.Minute
	p := &page{name: name, tab: tab, close: close}
	d.open = append(d.open, p)
	return p, nil
}

func (d *driver) closeTab(p *page) {
	p.close()
	for i, x := range d.open {
		if x == p {
			d.open = append(d.open[:i], d.open[i+1:]...)
			break
		}
	}
}

func (d *driver) closeAll() {
	for len(d.open) > 0 {
		d.closeTab(d.open[len(d.open)-1])
	}
}

// eval evaluates expr in p, with the page console in the error.
func (p *page) eval(expr string, out any) error {
	if err := p.tab.TryEval(expr, out); err != nil {
		return fmt.Errorf("%s: %w\n  expression: %s\n%s", p.name, err, expr, p.tab.ConsoleText())
	}
	return nil
}

// pageURL is the page of impl for a workload set: bench.html?impl=impl, or
// for the MCP sets mcp.html?server=impl (ours, mcpb or floor). In -against mode the build at /bench/against/ stands in for the reference and for MCP-B.
func (d *driver) pageURL(impl, set string) string {
	if isMCP(set) {
		switch {
		case impl == "ours":
			return d.srv.URL("/bench/mcp.html?server=ours" + d.query)
		case impl == "mcpb" && d.against:
			return d.srv.URL("/bench/mcp.html?server=ours&dist=/bench/against/")
		}
		return d.srv.URL("/bench/mcp.html?server=" + impl)
	}
	switch {
	case impl == "ours":
		return d.srv.URL("/bench/bench.html?impl=ours" + d.query)
	case impl == "ref" && d.against:
		return d.srv.URL("/bench/bench.html?impl=ours&dist=/bench/against/")
	}
	return d.srv.URL("/bench/bench.html?impl=" + impl)
}

// load navigates p to the page of impl for a workload set (see pageURL) and
// waits until it is ready.
func (d *driver) load(p *page, impl, set string) error {
	if err := p.tab.TryNavigate(d.pageURL(impl, set)); err != nil {
		return fmt.Errorf("%s: %w\n%s", p.name, err, p.tab.ConsoleText())
	}
	if err := p.eval(`Bench.ready`, nil); err != nil {
		return err
	}
	if d.userAgent == "" {
		p.eval(`navigator.userAgent`, &d.userAgent)
	}
	return nil
}

// sample is one timed batch, per operation: wall-clock µs (performance.now()
// in the page) and µs of CPU time of the page's main thread, less the tab's
// overhead as it was known when the batch ran (refresh applies the final one).
type sample struct {
	wall, cpu float64
	rawCPUms  float64 // the batch's CPU ms, overhead included
	ops       int
	p         *page
}

// refresh recomputes s.cpu with its tab's overhead as it is now.
func (s *sample) refresh() {
	s.cpu = max(s.rawCPUms-s.p.overheadMs, 0) * 1000 / float64(s.ops)
}

func refreshAll(s []sample) {
	for i := range s {
		s[i].refresh()
	}
}

// batch runs one timed batch of a workload.
//
// Its CPU time is DevTools' ThreadTime metric (the CPU time of the tab's main
// thread) read before and after the evaluation, less the tab's overhead (see
// measureOverhead). On a machine shared with other jobs the wall-clock time
// of a batch is mostly the scheduler's doing (the main thread measured
// getting an eighth of the wall-clock time under a load of 20 on 2 cores);
// its CPU time is the work.
func (p *page) batch(js string, ops int) (sample, error) {
	wallMs, cpuMs, err := p.timed(js, ops)
	if err != nil {
		return sample{}, err
	}
	s := sample{wall: wallMs * 1000 / float64(ops), rawCPUms: cpuMs, ops: ops, p: p}
	s.refresh()
	return s, nil
}

// timed runs Bench.run(js, ops) and returns the batch's wall-clock ms and
// the main-thread CPU ms of its evaluation.
func (p *page) timed(js string, ops int) (wallMs, cpuMs float64, err error) {
	before, err := p.threadTime()
	if err != nil {
		return 0, 0, err
	}
	var r struct {
		Ms  float64 `json:"ms"`
		Ops int     `json:"ops"`
	}
	if err := p.eval(fmt.Sprintf("Bench.run(%q, %d)", js, ops), &r); err != nil {
		return 0, 0, err
	}
	after, err := p.threadTime()
	if err != nil {
		return 0, 0, err
	}
	return r.Ms, (after - before) * 1000, nil
}

// threadTime returns the CPU seconds the tab's main thread has used.
func (p *page) threadTime() (float64, error) {
	var metrics []*performance.Metric
	err := chromedp.Run(p.tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		metrics, err = performance.GetMetrics().Do(ctx)
		return err
	}))
	if err != nil {
		return 0, fmt.Errorf("%s: reading DevTools' ThreadTime: %w", p.name, err)
	}
	for _, m := range metrics {
		if m.Name == "ThreadTime" {
			return m.Value, nil
		}
	}
	return 0, fmt.Errorf("%s: DevTools' performance metrics have no ThreadTime", p.name)
}

// startupCPU returns the CPU ms the main thread of p's page has used since
// its renderer process started: for a page loaded in a fresh tab (the bench
// pages are cross-origin isolated, so each gets a new process), the main
// thread's work of starting the process and loading the page. The work of
// other threads (the .wasm's streaming compilation among it) is not in it.
func (p *page) startupCPU() (float64, error) {
	s, err := p.threadTime()
	return s * 1000, err
}

// measureOverhead sets p.overheadMs to the median main-thread CPU time of an
// empty batch (the workload "noop" of bench.js and mcp.js), over 9 of them.
func (p *page) measureOverhead() error {
	if err := chromedp.Run(p.tab.Ctx, performance.Enable()); err != nil {
		return fmt.Errorf("%s: enabling DevTools' performance metrics: %w", p.name, err)
	}
	for range 9 {
		if err := p.noteOverhead(); err != nil {
			return err
		}
	}
	return nil
}

// noteOverhead times one more empty batch and updates p.overheadMs.
func (p *page) noteOverhead() error {
	_, ms, err := p.timed("noop", 1)
	if err != nil {
		return err
	}
	p.overheadMs = median(append(p.overheads, ms))
	p.overheads = append(p.overheads, ms)
	return nil
}

// timing is what Bench.timing() reports, in ms since navigation start.
type timing struct {
	Ready          float64   `json:"ready"`
	ScriptsRan     float64   `json:"scriptsRan"`
	ScriptsEnd     float64   `json:"scriptsEnd"`
	ResponseEnd    float64   `json:"responseEnd"`
	DOMInteractive float64   `json:"domInteractive"`
	Script         *resource `json:"script"`
	Wasm           *resource `json:"wasm"`
	Visibility     string    `json:"visibility"`
}

type resource struct {
	Start       float64 `json:"start"`
	ResponseEnd float64 `json:"responseEnd"`
	Bytes       int     `json:"bytes"`
}

// measureReady opens a fresh tab per sample, so that nothing compiled for an
// earlier page is reused, and takes performance.now() when ready resolved.
// Each round loads every implementation once, in turns, and pairs ours with
// the bare program of the same round; one discarded round warms the browser
// up. After n rounds, it adds rounds (up to maxN) while the target is within
// the uncertainty of the paired median (see unsettled).
func (d *driver) measureReady(n, maxN int) (*Ready, error) {
	order := []string{"ours", "ref", "bare"}
	samples := map[string][]float64{}
	fromWasm := map[string][]float64{} // ready − start of the .wasm request
	ran := map[string][]float64{}
	timings := map[string][]timing{}
	var paired []float64 // ours / bare, per round
	var pairedCPU []float64
	cpus := map[string][]float64{} // main-thread CPU ms until ready
	for i := -1; i < n || i < maxN && unsettled(paired, maxReadyRatio); i++ {
		if i < n {
			d.logf("start-up round %d/%d", i+1, n)
		} else {
			d.logf("start-up round %d (added: the verdict is uncertain; at most %d)", i+1, maxN)
		}
		got, gotCPU := map[string]float64{}, map[string]float64{}
		for k := range order {
			impl := order[(k+max(i, 0))%len(order)]
			p, err := d.openTab("ready/" + impl)
			if err != nil {
				return nil, err
			}
			if err := chromedp.Run(p.tab.Ctx, performance.Enable()); err != nil {
				return nil, fmt.Errorf("%s: enabling DevTools' performance metrics: %w", p.name, err)
			}
			if err := d.load(p, impl, ""); err != nil {
				return nil, err
			}
			var t timing
			if err := p.eval(`Bench.timing()`, &t); err != nil {
				return nil, err
			}
			cpu, err := p.startupCPU()
			if err != nil {
				return nil, err
			}
			d.closeTab(p)
			if i >= 0 {
				got[impl] = t.Ready
				gotCPU[impl] = cpu
				cpus[impl] = append(cpus[impl], cpu)
				samples[impl] = append(samples[impl], t.Ready)
				ran[impl] = append(ran[impl], t.ScriptsRan)
				if t.Wasm != nil {
					fromWasm[impl] = append(fromWasm[impl], t.Ready-t.Wasm.Start)
				}
				timings[impl] = append(timings[impl], t)
			}
		}
		if i >= 0 {
			paired = append(paired, got["ours"]/got["bare"])
			pairedCPU = append(pairedCPU, gotCPU["ours"]/gotCPU["bare"])
		}
	}
	r := &Ready{Ours: summarize(samples["ours"], 0), Ref: summarize(samples["ref"], 0),
		Bare: summarize(samples["bare"], 0), Timings: timings,
		OursFromWasm: summarize(fromWasm["ours"], 0), BareFromWasm: summarize(fromWasm["bare"], 0),
		Paired: summarize(paired, 0), PairedCPU: summarize(pairedCPU, 0),
		OursCPU: summarize(cpus["ours"], 0), RefCPU: summarize(cpus["ref"], 0), BareCPU: summarize(cpus["bare"], 0)}
	r.ScriptsRan = map[string]Stats{}
	for _, impl := range order {
		r.ScriptsRan[impl] = summarize(ran[impl], 0)
	}
	r.Ratio = round3(r.Ours.Median / r.Bare.Median)
	r.RatioFromWasm = round3(r.OursFromWasm.Median / r.BareFromWasm.Median)
	return r, nil
}
