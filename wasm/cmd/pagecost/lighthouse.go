package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// chromeFlags are the flags Lighthouse starts Chromium with (on top of
// chrome-launcher's own and, through the wrapper of make test-deps, the
// same again): headless, without sandbox or GPU, off the network.
var chromeFlags = strings.Join([]string{
	"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
	`--host-resolver-rules="MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"`,
}, " ")

// lighthouse runs the pinned Lighthouse CLI.
type lighthouse struct {
	node, cli, chrome string
}

func newLighthouse(o options) (*lighthouse, error) {
	cli := filepath.Join(o.root, "testdata", "lighthouse", "node_modules", "lighthouse", "cli", "index.js")
	if _, err := os.Stat(cli); err != nil {
		return nil, errors.New("Lighthouse is not installed: run make bench-page, or cd testdata/lighthouse && npm ci")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("Lighthouse needs Node.js: %w", err)
	}
	return &lighthouse{node: node, cli: cli, chrome: o.chromium}, nil
}

// run runs Lighthouse once against url and returns its report's JSON, which
// it also leaves in out.
func (l *lighthouse) run(url, out string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.node, l.cli, url,
		"--output=json", "--output-path="+out, "--quiet",
		"--only-categories=performance", "--disable-full-page-screenshot",
		"--chrome-flags="+chromeFlags)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+l.chrome)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("lighthouse %s: %w\n%s", url, err, stderr.String())
	}
	return os.ReadFile(out)
}

// lighthouseSection runs every variant o.runs times, interleaved, and
// summarises the reports.
func lighthouseSection(l *lighthouse, base string, o options) (*LighthouseResults, error) {
	if err := os.MkdirAll(o.lhrDir, 0o755); err != nil {
		return nil, err
	}
	names := o.variants
	runs := make(map[string][]Report, len(names))
	var order [][]string
	for i := 0; i < o.runs; i++ {
		var round []string
		for k := range names {
			v := names[(i+k)%len(names)] // rotate which variant goes first
			round = append(round, v)
			start := time.Now()
			data, err := l.run(base+"/"+v+".html", filepath.Join(o.lhrDir, fmt.Sprintf("%s-%d.json", v, i+1)))
			if err != nil {
				return nil, err
			}
			rep, err := parseLHR(data)
			if err != nil {
				return nil, fmt.Errorf("%s, round %d: %w", v, i+1, err)
			}
			runs[v] = append(runs[v], rep)
			m := rep.Metrics
			logf("lighthouse %-5s round %d/%d: TBT %4.0f ms, LCP %5.0f ms, TTI %5.0f ms, main thread %5.0f ms, %6.1f KB, %d .wasm (%.0f s)",
				v, i+1, o.runs, m.TBT, m.LCP, m.TTI, m.MainThread, m.Bytes/1000, m.WasmRequests, time.Since(start).Seconds())
		}
		order = append(order, round)
	}
	return summarizeLighthouse(runs, order, names), nil
}

func logf(format string, a ...any) { fmt.Fprintf(os.Stderr, "pagecost: "+format+"\n", a...) }
