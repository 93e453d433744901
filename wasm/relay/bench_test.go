package relay

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The relay's costs, measured (not asserted): run
//
//	CHROMIUM=$PWD/.cache/bin/chromium go test -run '^$' -bench . -benchtime 20x ./wasm/relay
//
// Each reports medians (and the 90th percentile) of its b.N samples.

func report(b *testing.B, samples []time.Duration, unit string, scale time.Duration) {
	slices.Sort(samples)
	at := func(q float64) float64 { return float64(samples[int(q*float64(len(samples)-1))]) / float64(scale) }
	b.ReportMetric(at(0.5), "median-"+unit)
	b.ReportMetric(at(0.9), "p90-"+unit)
	b.ReportMetric(0, "ns/op") // the loop's mean time says nothing here
}

// BenchmarkStart: from starting the relay to it serving (the URL printed),
// launching Chromium (--url) or attaching to an open tab (--attach).
func BenchmarkStart(b *testing.B) {
	exe, err := browsertest.ChromiumPath()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("launch", func(b *testing.B) {
		u := browsertest.URL(b, "/relay.html?bench=launch")
		var samples []time.Duration
		for range b.N {
			start := time.Now()
			r := startRelay(b, "--url", u, "--chromium", exe, "--http", "127.0.0.1:0")
			samples = append(samples, time.Since(start))
			if err := r.stop(); err != nil {
				b.Fatal(err)
			}
		}
		report(b, samples, "ms", time.Millisecond)
	})
	b.Run("attach", func(b *testing.B) {
		p := openPage(b, "bench=attach")
		var samples []time.Duration
		for range b.N {
			start := time.Now()
			r := startRelay(b, append(p.attachArgs(), "--http", "127.0.0.1:0")...)
			samples = append(samples, time.Since(start))
			if err := r.stop(); err != nil {
				b.Fatal(err)
			}
		}
		report(b, samples, "ms", time.Millisecond)
	})
}

// BenchmarkRead: a resources/read round trip through the relay, by the Go
// SDK's client (2025-11-25), over stdio and over HTTP.
func BenchmarkRead(b *testing.B) {
	for _, tr := range transports {
		b.Run(tr.name, func(b *testing.B) {
			p := openPage(b, "bench=read")
			r := startRelay(b, append(p.attachArgs(), tr.args...)...)
			c := tr.connect(b, r, legacy)
			params := &mcp.ReadResourceParams{URI: "test://static-text"}
			for range 20 { // warm up
				c.read(params.URI)
			}
			samples := make([]time.Duration, 0, b.N)
			for range b.N {
				start := time.Now()
				if _, err := c.ReadResource(c.ctx(), params); err != nil {
					b.Fatal(err)
				}
				samples = append(samples, time.Since(start))
			}
			report(b, samples, "µs", time.Microsecond)
		})
	}
}

// BenchmarkClientMemory: what each HTTP client costs: the relay process's
// resident memory (the command, built and run on its own) and the page's
// wasm memory, for b.N clients with a session, a GET stream and a
// subscription each.
func BenchmarkClientMemory(b *testing.B) {
	requireBuild(b)
	bin := filepath.Join(b.TempDir(), "relay")
	build := exec.Command("go", "build", "-o", bin, "./wasm/cmd/relay")
	build.Dir = browsertest.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	p := openPage(b, fmt.Sprintf("maxSessions=%d", b.N+10))
	cmd := exec.Command(bin, append(p.attachArgs(), "--http", "127.0.0.1:0", "--max-sessions", strconv.Itoa(b.N+10))...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { // after the clients have gone (cleanups run last first)
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			b.Errorf("the relay: %v\n%s", err, stderr)
		}
	})
	done := make(chan error, 1)
	line, err := readLine(out, done)
	if err != nil {
		b.Fatal(err)
	}
	r := &relayRun{t: b, url: line}
	rss := func() float64 {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb
			}
		}
		return 0
	}
	wasm := func() float64 {
		var n float64
		p.Eval(`document.modelContext[Symbol.for('modelcontext.internals')].stats().wasmMemoryBytes`, &n)
		return n / 1024
	}
	first := connectHTTP(b, r, legacy) // the relay's and the page's fixed costs
	first.read("test://a")
	rss0, wasm0 := rss(), wasm()
	for range b.N {
		c := connectHTTP(b, r, legacy)
		if err := c.Subscribe(c.ctx(), &mcp.SubscribeParams{URI: "test://a"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((rss()-rss0)/float64(b.N), "relay-RSS-KB/client")
	b.ReportMetric((wasm()-wasm0)/float64(b.N), "page-wasm-KB/client")
	b.ReportMetric(0, "ns/op")
}
