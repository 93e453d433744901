// Command visit measures what a visitor pays to open the demo shop through
// each of its servers: the net/http server of make demo (wasm/serve with
// brotli/gzip, ETags, revalidation) and the Cloudflare Worker of make edge
// under workerd (the same handler behind github.com/syumai/workers).
//
//	make bench-visit
//	go run ./wasm/cmd/visit -n 10        # after make edge-build and make test-edge's npm ci
//
// Each sample starts Chromium with a fresh profile (empty HTTP cache) and
// opens the demo twice in it: the first visit, then, after -pause, the
// repeat visit in a new tab, with the HTTP cache (and the compiled
// WebAssembly Chromium keeps beside it) warm. The time is from navigation
// start until the demo's agent panel turns ready, which it does as soon as
// document.modelContext.ready resolves. Samples alternate which server goes
// first. The table gives the median and quartiles of -n samples per server
// and visit, and the bytes that crossed the network (resource timing's
// transferSize, headers included: a 304 costs its headers only).
//
// Both servers run on this machine, so the network is loopback: the figures
// are what the servers and the browser cost, not a visitor's connection.
// -rtt and -down emulate one in Chromium (e.g. -rtt 40ms -down 10 for 10
// Mbit/s). The Worker under workerd sends plain bytes (Cloudflare compresses
// at its edge, workerd does not), so throttled figures for it are what an
// uncompressed download costs.
//
// It writes every sample as JSON to -out (default testdata/out/visit.json).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/demosite"
	"github.com/modelcontext-go/modelcontext/wasm/internal/stats"
	"github.com/modelcontext-go/modelcontext/wasm/internal/workerd"
	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "modelcontext: visit:", err)
		os.Exit(1)
	}
}

type options struct {
	n     int
	pause time.Duration
	out   string
	rtt   time.Duration
	down  float64 // Mbit/s; 0: no throttling
}

// Visit is one page load.
type Visit struct {
	ReadyMs       float64 `json:"ready_ms"`       // navigation start → panel ready
	TransferBytes int     `json:"transfer_bytes"` // navigation + resources, headers included
	WasmBytes     int     `json:"wasm_transfer_bytes"`
	WasmMs        float64 `json:"wasm_ms"` // the .wasm request: start → response end
	Requests      int     `json:"requests"`
}

// Stats summarises samples.
type Stats struct {
	Median  float64   `json:"median"`
	Q1      float64   `json:"q1"`
	Q3      float64   `json:"q3"`
	Samples []float64 `json:"samples"`
}

// Server is the result of one server.
type Server struct {
	Name          string  `json:"server"`
	First         []Visit `json:"first"`
	Repeat        []Visit `json:"repeat"`
	FirstReady    Stats   `json:"first_ready_ms"`
	RepeatReady   Stats   `json:"repeat_ready_ms"`
	FirstWasm     Stats   `json:"first_wasm_ms"`
	RepeatWasm    Stats   `json:"repeat_wasm_ms"`
	FirstBytes    Stats   `json:"first_transfer_bytes"`
	RepeatBytes   Stats   `json:"repeat_transfer_bytes"`
	RepeatOverFst float64 `json:"repeat_over_first"`
}

// Results is what -out receives.
type Results struct {
	Date    string   `json:"date"`
	N       int      `json:"n"`
	PauseMs float64  `json:"pause_ms"`
	RTTMs   float64  `json:"rtt_ms,omitempty"`
	DownMbs float64  `json:"down_mbit_s,omitempty"`
	Servers []Server `json:"servers"`
}

func run(args []string, stdout io.Writer) error {
	root := browsertest.RepoRoot()
	fl := flag.NewFlagSet("visit", flag.ContinueOnError)
	var o options
	fl.IntVar(&o.n, "n", 10, "fresh-profile samples per server")
	fl.DurationVar(&o.pause, "pause", 5*time.Second, "wait between the first and the repeat visit (lets Chromium finish compiling and caching the module)")
	fl.StringVar(&o.out, "out", filepath.Join(root, "testdata", "out", "visit.json"), "write the samples as JSON to this `file`")
	fl.DurationVar(&o.rtt, "rtt", 0, "emulated round-trip time (with -down)")
	fl.Float64Var(&o.down, "down", 0, "emulated download speed in `Mbit/s` (0: no throttling)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 || o.n < 1 || o.down < 0 || o.rtt < 0 {
		return errors.New("usage: visit [-n N] [-pause D] [-rtt D -down Mbit/s] [-out FILE]")
	}
	logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "visit: "+format+"\n", a...) }

	// net/http: the handler of make demo, in this process.
	var vendor = os.DirFS(filepath.Join(root, "testdata", "out"))
	if _, err := os.Stat(filepath.Join(root, "testdata", "out", "mcpclient.js")); err != nil {
		return errors.New("testdata/out/mcpclient.js not found: run make mcpclient (make bench-visit does)")
	}
	h, err := demosite.Handler(os.DirFS(filepath.Join(root, "demo")), os.DirFS(filepath.Join(root, "dist")), vendor, serve.Options{})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	w, err := workerd.Start(root)
	if err != nil {
		return err
	}
	defer w.Stop()

	servers := []struct{ name, url string }{
		{"net/http", "http://" + ln.Addr().String() + "/"},
		{"workerd", w.URL},
	}
	res := Results{Date: time.Now().UTC().Format(time.RFC3339), N: o.n, PauseMs: ms(o.pause), RTTMs: ms(o.rtt), DownMbs: o.down}
	res.Servers = make([]Server, len(servers))
	for i, s := range servers {
		res.Servers[i].Name = s.name
	}
	for i := 0; i < o.n; i++ {
		for k := range servers {
			j := (i + k) % len(servers) // alternate which server goes first
			first, repeat, err := sample(servers[j].url, o)
			if err != nil {
				return fmt.Errorf("%s, sample %d: %w\n%s", servers[j].name, i+1, err, w.Log())
			}
			res.Servers[j].First = append(res.Servers[j].First, first)
			res.Servers[j].Repeat = append(res.Servers[j].Repeat, repeat)
			logf("%-8s sample %2d/%d: first %6.0f ms (%d KB), repeat %6.0f ms (%d KB)", servers[j].name, i+1, o.n,
				first.ReadyMs, first.TransferBytes/1000, repeat.ReadyMs, repeat.TransferBytes/1000)
		}
	}
	for i := range res.Servers {
		s := &res.Servers[i]
		s.FirstReady = summarize(s.First, func(v Visit) float64 { return v.ReadyMs })
		s.RepeatReady = summarize(s.Repeat, func(v Visit) float64 { return v.ReadyMs })
		s.FirstWasm = summarize(s.First, func(v Visit) float64 { return v.WasmMs })
		s.RepeatWasm = summarize(s.Repeat, func(v Visit) float64 { return v.WasmMs })
		s.FirstBytes = summarize(s.First, func(v Visit) float64 { return float64(v.TransferBytes) })
		s.RepeatBytes = summarize(s.Repeat, func(v Visit) float64 { return float64(v.TransferBytes) })
		s.RepeatOverFst = round(s.RepeatReady.Median/s.FirstReady.Median, 3)
	}
	printTable(stdout, res)
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	logf("wrote %s", o.out)
	return os.WriteFile(o.out, append(b, '\n'), 0o644)
}

// markReady runs before the page's own scripts: it notes performance.now()
// when the agent panel's status turns ready (or error), which the panel does
// in document.modelContext.ready's then.
const markReady = `(() => {
  const mark = () => {
    const el = document.getElementById('agent-status');
    const state = el && el.dataset.state;
    if (!window.__visit && (state === 'ready' || state === 'error')) window.__visit = { state, at: performance.now() };
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
})()`

// readVisit waits for the mark and adds up what the load transferred.
const readVisit = `new Promise((resolve) => {
  const done = () => {
    if (!window.__visit) return false;
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    const wasm = entries.filter((e) => e.name.endsWith('.wasm'));
    resolve({ state: window.__visit.state, readyMs: window.__visit.at,
      transferBytes: entries.reduce((n, e) => n + e.transferSize, 0),
      wasmBytes: wasm.reduce((n, e) => n + e.transferSize, 0),
      wasmMs: wasm.reduce((n, e) => n + (e.responseEnd - e.startTime), 0), requests: entries.length });
    return true;
  };
  if (!done()) { const t = setInterval(() => done() && clearInterval(t), 20); }
})`

// sample opens url twice in a fresh browser profile.
func sample(url string, o options) (first, repeat Visit, err error) {
	br, err := browsertest.NewBrowser()
	if err != nil {
		return first, repeat, err
	}
	defer br.Close()
	if first, err = visit(br, url, o); err != nil {
		return first, repeat, fmt.Errorf("first visit: %w", err)
	}
	time.Sleep(o.pause)
	if repeat, err = visit(br, url, o); err != nil {
		return first, repeat, fmt.Errorf("repeat visit: %w", err)
	}
	return first, repeat, nil
}

// visit opens url in a new tab of br and returns the time to ready.
func visit(br *browsertest.Browser, url string, o options) (v Visit, err error) {
	tab, close, err := br.ProgramTab()
	if err != nil {
		return v, err
	}
	defer close()
	var failed error
	if err := browsertest.Try(func() { v, failed = visitTab(tab, url, o) }); err != nil {
		return v, err
	}
	return v, failed
}

// visitTab is visit in its tab; the tab's helpers panic with a
// *browsertest.Failure where they fail.
func visitTab(tab *browsertest.Tab, url string, o options) (v Visit, err error) {
	tab.Timeout = 2 * time.Minute
	ctx, cancel := context.WithTimeout(tab.Ctx, time.Minute)
	defer cancel()
	actions := []chromedp.Action{chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(markReady).Do(ctx)
		return err
	})}
	if o.down > 0 {
		actions = append(actions, network.Enable(), network.EmulateNetworkConditions(false, ms(o.rtt), o.down*1e6/8, o.down*1e6/8))
	}
	if err := chromedp.Run(ctx, actions...); err != nil {
		return v, err
	}
	tab.Navigate(url)
	var got struct {
		State                              string
		ReadyMs                            float64
		TransferBytes, WasmBytes, Requests int
		WasmMs                             float64
	}
	tab.Eval(readVisit, &got)
	if got.State != "ready" {
		return v, fmt.Errorf("the demo's panel says %q, not ready\n%s", got.State, tab.ConsoleText())
	}
	return Visit{ReadyMs: round(got.ReadyMs, 1), TransferBytes: got.TransferBytes, WasmBytes: got.WasmBytes,
		WasmMs: round(got.WasmMs, 1), Requests: got.Requests}, nil
}

func summarize(vs []Visit, f func(Visit) float64) Stats {
	s := make([]float64, len(vs))
	for i, v := range vs {
		s[i] = f(v)
	}
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	return Stats{Median: round(stats.Quantile(sorted, 0.5), 1), Q1: round(stats.Quantile(sorted, 0.25), 1), Q3: round(stats.Quantile(sorted, 0.75), 1), Samples: s}
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func printTable(w io.Writer, res Results) {
	fmt.Fprintf(w, "what a visitor pays: navigation start → document.modelContext.ready on the demo shop,\n")
	fmt.Fprintf(w, "median [q1–q3] of %d fresh Chromium profiles per server; repeat = same profile, HTTP cache warm, %.0f ms later\n", res.N, res.PauseMs)
	if res.DownMbs > 0 {
		fmt.Fprintf(w, "network emulated: %.0f ms round trip, %.1f Mbit/s\n", res.RTTMs, res.DownMbs)
	} else {
		fmt.Fprintf(w, "network: loopback, not throttled\n")
	}
	fmt.Fprintf(w, "\n%-9s %24s %24s %8s %10s %10s %12s %12s\n", "server", "first visit ms", "repeat visit ms", "rep/1st",
		"first KB", "repeat KB", "1st wasm ms", "rep wasm ms")
	for _, s := range res.Servers {
		fmt.Fprintf(w, "%-9s %24s %24s %7.2f× %10.1f %10.1f %12.0f %12.0f\n", s.Name,
			fmt.Sprintf("%.0f [%.0f–%.0f]", s.FirstReady.Median, s.FirstReady.Q1, s.FirstReady.Q3),
			fmt.Sprintf("%.0f [%.0f–%.0f]", s.RepeatReady.Median, s.RepeatReady.Q1, s.RepeatReady.Q3),
			s.RepeatOverFst, s.FirstBytes.Median/1000, s.RepeatBytes.Median/1000, s.FirstWasm.Median, s.RepeatWasm.Median)
	}
	fmt.Fprintf(w, "\n  KB: bytes over the network, headers included (a 304 costs its headers); wasm ms: the .wasm request, start to response end\n")
	if len(res.Servers) == 2 {
		a, b := res.Servers[0], res.Servers[1]
		fmt.Fprintf(w, "\n%s / %s: first visit %.2f×, repeat visit %.2f×\n", b.Name, a.Name,
			b.FirstReady.Median/a.FirstReady.Median, b.RepeatReady.Median/a.RepeatReady.Median)
	}
}
