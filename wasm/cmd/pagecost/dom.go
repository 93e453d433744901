package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// DOMResults are the busy-DOM section's: what declarative resources cost a
// page that changes its DOM all the time (testdata/pagecost/busy.html),
// with the module's tag with and without data-declarative.
type DOMResults struct {
	Rounds     int     `json:"rounds"`     // busy.js rounds per sample
	Without    Spread  `json:"without_ms"` // the workload's time, no data-declarative
	With       Spread  `json:"with_ms"`    // the same with data-declarative
	Ratio      Spread  `json:"ratio"`      // with / without, paired per sample
	Conditions string  `json:"conditions"`
	PerRoundUs float64 `json:"per_round_us"` // the median of the pairs' differences, per round, µs
}

// domWorkloadRounds is how many rounds of busy.js one sample times.
const domWorkloadRounds = 100

// domSection times busy.js in n pairs of fresh tabs of one browser, the
// two variants alternating which goes first.
func domSection(base string, n int) (*DOMResults, error) {
	br, err := browsertest.NewBrowser()
	if err != nil {
		return nil, err
	}
	defer br.Close()
	var without, with, ratio, diff []float64
	for i := 0; i < n; i++ {
		order := []string{"0", "1"}
		if i%2 == 1 {
			order = []string{"1", "0"}
		}
		got := map[string]float64{}
		for _, v := range order {
			ms, err := domSample(br, base+"/busy.html?declarative="+v)
			if err != nil {
				return nil, fmt.Errorf("busy.html?declarative=%s: %w", v, err)
			}
			got[v] = ms
		}
		without, with = append(without, got["0"]), append(with, got["1"])
		ratio = append(ratio, got["1"]/got["0"])
		diff = append(diff, (got["1"]-got["0"])/domWorkloadRounds*1000)
	}
	r := &DOMResults{Rounds: domWorkloadRounds, Without: summarize(without), With: summarize(with), Ratio: summarize(ratio),
		Conditions: "main-thread CPU time in headless Chromium, not throttled, a fresh tab per sample"}
	r.PerRoundUs = math.Round(summarize(diff).Median)
	return r, nil
}

// domSample loads url in a fresh tab and returns the CPU time, in ms, that
// the tab's main thread spent on busy.js's workload there (DevTools'
// ThreadTime before and after it): on a machine shared with other work the
// clock mostly measures the scheduler.
func domSample(br *browsertest.Browser, url string) (float64, error) {
	tab, closeTab, err := br.ProgramTab()
	if err != nil {
		return 0, err
	}
	defer closeTab()
	tab.Timeout = 2 * time.Minute
	if err := chromedp.Run(tab.Ctx, performance.Enable().WithTimeDomain(performance.EnableTimeDomainThreadTicks)); err != nil {
		return 0, err
	}
	var before, after float64
	err = browsertest.Try(func() {
		tab.Navigate(url)
		tab.Eval("window.busy(0)", nil) // the page is loaded and its first task done
		if before, err = threadTime(tab); err != nil {
			return
		}
		tab.Eval(fmt.Sprintf("window.busy(%d)", domWorkloadRounds), nil)
		after, err = threadTime(tab)
	})
	return (after - before) * 1000, err
}

// threadTime is the CPU seconds the tab's main thread has used.
func threadTime(tab *browsertest.Tab) (float64, error) {
	var metrics []*performance.Metric
	err := chromedp.Run(tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		metrics, err = performance.GetMetrics().Do(ctx)
		return err
	}))
	if err != nil {
		return 0, err
	}
	for _, m := range metrics {
		if m.Name == "ThreadTime" {
			return m.Value, nil
		}
	}
	return 0, fmt.Errorf("DevTools' performance metrics have no ThreadTime")
}

func printDOM(w io.Writer, d *DOMResults) {
	fmt.Fprintf(w, "\nbusy DOM (%s; %d samples of %d rounds: a 200-row table rebuilt, a feed changed, 50 cells' text set, two resources' content every fifth round)\n",
		d.Conditions, len(d.Without.Samples), d.Rounds)
	fmt.Fprintf(w, "  without data-declarative  %s ms\n", spreadCell(d.Without, 1, 1, false))
	fmt.Fprintf(w, "  with data-declarative     %s ms\n", spreadCell(d.With, 1, 1, false))
	fmt.Fprintf(w, "  with / without            %.2f× [%.2f–%.2f], %+.0f µs a round\n", d.Ratio.Median, d.Ratio.Min, d.Ratio.Max, d.PerRoundUs)
}
