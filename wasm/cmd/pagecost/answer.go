package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// cartURI is the resource the first answer reads.
const cartURI = "state://cart"

// AnswerResults are the first-answer section's.
type AnswerResults struct {
	N          int             `json:"n"`
	PauseMs    float64         `json:"pause_ms"`
	Conditions string          `json:"conditions"`
	Variants   []AnswerVariant `json:"variants"`
}

// AnswerVariant is one variant's visits and their summary.
type AnswerVariant struct {
	Name     string  `json:"variant"`
	Cold     []Visit `json:"cold"`
	Repeat   []Visit `json:"repeat"`
	ColdMs   Spread  `json:"cold_answer_ms"`
	RepeatMs Spread  `json:"repeat_answer_ms"`
	// The eager boot's wait, from the call (right after the load event and
	// -contact-delay) until ready resolved; nil for the others, whose
	// ready is not awaited (that would boot them).
	ColdReadyWait   *Spread `json:"cold_ready_wait_ms,omitempty"`
	RepeatReadyWait *Spread `json:"repeat_ready_wait_ms,omitempty"`
}

// Visit is one page load and its first answer.
type Visit struct {
	AnswerMs     float64   `json:"answer_ms"`               // readResource called → resolved
	AwaitedReady bool      `json:"awaited_ready,omitempty"` // data-boot="eager": ready was awaited before the call
	ReadyWaitMs  float64   `json:"ready_wait_ms,omitempty"` // that wait
	AfterLoadMs  float64   `json:"after_load_ms"`           // the load event's end → the evaluation's start
	Wasm         WasmFetch `json:"wasm"`
}

// WasmFetch is how a visit got the .wasm: the module's own fetch (Requests
// is 0 or 1), and a prefetch hint's requests apart.
type WasmFetch struct {
	How             string  `json:"how"` // "network", "304", "cache" or "none"
	Requests        int     `json:"requests"`
	Status          int64   `json:"status,omitempty"` // DevTools' Network domain
	FromDiskCache   bool    `json:"from_disk_cache,omitempty"`
	TransferSize    float64 `json:"transfer_size"` // Resource Timing: bytes over the network, headers included
	EncodedBodySize float64 `json:"encoded_body_size"`
	Ms              float64 `json:"ms"` // Resource Timing: start → response end
	// A <link rel="prefetch"> of the .wasm (lazy-prefetch): its requests
	// and their transfer size, apart from the module's own fetch above.
	Prefetches           int     `json:"prefetches,omitempty"`
	PrefetchTransferSize float64 `json:"prefetch_transfer_size,omitempty"`
}

// classify says how the .wasm arrived: not requested, from the cache
// without asking (DevTools says so, or no bytes crossed), revalidated (304:
// fewer bytes crossed than the body has), or downloaded.
func classify(w WasmFetch) string {
	switch {
	case w.Requests == 0:
		return "none"
	case w.Status == 304:
		return "304"
	case w.FromDiskCache || (w.TransferSize == 0 && w.EncodedBodySize > 0):
		return "cache"
	case w.TransferSize > 0 && w.TransferSize < w.EncodedBodySize:
		return "304"
	}
	return "network"
}

// answerJS times the first answer in the page, after waiting delay ms; on
// a page whose tag says data-boot="eager" it awaits ready first.
const answerJS = `(async (delay) => {
  const mc = document.modelContext;
  const nav = performance.getEntriesByType('navigation')[0];
  const tag = document.querySelector('script[data-boot]');
  const awaitedReady = !!tag && tag.dataset.boot === 'eager';
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const start = performance.now();
  let readyWaitMs = 0;
  if (awaitedReady) { await mc.ready; readyWaitMs = performance.now() - start; }
  const t = performance.now();
  const cart = await mc.readResource(%q);
  const answerMs = performance.now() - t;
  if (!cart || !Array.isArray(cart.items)) throw new Error('readResource returned ' + JSON.stringify(cart));
  const all = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('.wasm'));
  const wasm = all.filter((e) => e.initiatorType !== 'link'); // the module's own fetch, not a prefetch
  return { answerMs, awaitedReady, readyWaitMs, afterLoadMs: start - nav.loadEventEnd, requests: wasm.length,
    hinted: all.length - wasm.length, hintTransferSize: all.filter((e) => e.initiatorType === 'link').reduce((n, e) => n + e.transferSize, 0),
    transferSize: wasm.reduce((n, e) => n + e.transferSize, 0),
    encodedBodySize: wasm.reduce((n, e) => n + e.encodedBodySize, 0),
    ms: wasm.reduce((n, e) => n + (e.responseEnd - e.startTime), 0) };
})(%g)`

// answerSection takes o.answers samples per variant, alternating which
// variant goes first.
func answerSection(base string, o options) (*AnswerResults, error) {
	res := &AnswerResults{N: o.answers, PauseMs: ms(o.pause), Conditions: conditions(o)}
	for _, name := range o.answerVariants {
		res.Variants = append(res.Variants, AnswerVariant{Name: name})
	}
	for i := 0; i < o.answers; i++ {
		for k := range o.answerVariants {
			j := (i + k) % len(o.answerVariants)
			v := &res.Variants[j]
			cold, repeat, err := answerSample(base+"/"+v.Name+".html", o)
			if err != nil {
				return nil, fmt.Errorf("first answer, %s, sample %d: %w", v.Name, i+1, err)
			}
			v.Cold, v.Repeat = append(v.Cold, cold), append(v.Repeat, repeat)
			logf("first answer %-5s sample %d/%d: cold %6.1f ms (.wasm %s), repeat %6.1f ms (.wasm %s)", v.Name, i+1, o.answers,
				cold.AnswerMs, cold.Wasm.How, repeat.AnswerMs, repeat.Wasm.How)
		}
	}
	for i := range res.Variants {
		v := &res.Variants[i]
		get := func(vs []Visit, f func(Visit) float64) Spread {
			s := make([]float64, len(vs))
			for i, x := range vs {
				s[i] = f(x)
			}
			return summarize(s)
		}
		answer := func(x Visit) float64 { return x.AnswerMs }
		v.ColdMs, v.RepeatMs = get(v.Cold, answer), get(v.Repeat, answer)
		if len(v.Cold) > 0 && v.Cold[0].AwaitedReady {
			wait := func(x Visit) float64 { return x.ReadyWaitMs }
			c, r := get(v.Cold, wait), get(v.Repeat, wait)
			v.ColdReadyWait, v.RepeatReadyWait = &c, &r
		}
	}
	return res, nil
}

func conditions(o options) string {
	var c []string
	if o.down > 0 {
		c = append(c, fmt.Sprintf("network emulated: %.0f ms round trip, %.1f Mbit/s", ms(o.rtt), o.down))
	} else {
		c = append(c, "network: loopback, not throttled")
	}
	if o.cpu > 1 {
		c = append(c, fmt.Sprintf("CPU slowed down %gx", o.cpu))
	} else {
		c = append(c, "CPU not throttled")
	}
	if o.delay > 0 {
		c = append(c, fmt.Sprintf("the first call %.0f ms after the load event", ms(o.delay)))
	} else {
		c = append(c, "the first call right after the load event")
	}
	return strings.Join(c, "; ")
}

func (r *AnswerResults) variant(name string) *AnswerVariant {
	if r == nil {
		return nil
	}
	for i := range r.Variants {
		if r.Variants[i].Name == name {
			return &r.Variants[i]
		}
	}
	return nil
}

// answerSample opens url in a fresh profile (the cold visit) and, after
// o.pause, again in a new tab of that profile (the repeat visit). The cold
// tab stays open through the pause, so that Chromium can finish compiling
// and caching the module, and is closed before the repeat visit opens.
func answerSample(url string, o options) (cold, repeat Visit, err error) {
	br, err := browsertest.NewBrowser()
	if err != nil {
		return cold, repeat, err
	}
	defer br.Close()
	tab, closeTab, err := br.ProgramTab()
	if err != nil {
		return cold, repeat, err
	}
	cold, err = answerVisit(tab, url, o)
	time.Sleep(o.pause)
	closeTab()
	if err != nil {
		return cold, repeat, fmt.Errorf("cold visit: %w", err)
	}
	tab, closeTab, err = br.ProgramTab()
	if err != nil {
		return cold, repeat, err
	}
	defer closeTab()
	if repeat, err = answerVisit(tab, url, o); err != nil {
		return cold, repeat, fmt.Errorf("repeat visit: %w", err)
	}
	return cold, repeat, nil
}

// answerVisit loads url in tab, waits for its load event, and times the
// first answer.
func answerVisit(tab *browsertest.Tab, url string, o options) (v Visit, err error) {
	tab.Timeout = 2 * time.Minute
	var mu sync.Mutex
	var netw WasmFetch
	chromedp.ListenTarget(tab.Ctx, func(ev any) {
		// The module's own fetch: a prefetch hint's request has another type.
		if e, ok := ev.(*network.EventResponseReceived); ok && e.Response != nil && isWasm(e.Response.URL) && e.Type == network.ResourceTypeFetch {
			mu.Lock()
			netw.Status, netw.FromDiskCache = e.Response.Status, netw.FromDiskCache || e.Response.FromDiskCache
			mu.Unlock()
		}
	})
	actions := []chromedp.Action{network.Enable()}
	if o.down > 0 {
		actions = append(actions, network.EmulateNetworkConditions(false, ms(o.rtt), o.down*1e6/8, o.down*1e6/8))
	}
	if o.cpu > 1 {
		actions = append(actions, emulation.SetCPUThrottlingRate(o.cpu))
	}
	ctx, cancel := context.WithTimeout(tab.Ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		return v, err
	}
	var got struct {
		AnswerMs, ReadyWaitMs, AfterLoadMs, TransferSize, EncodedBodySize, Ms float64
		Requests, Hinted                                                      int
		HintTransferSize                                                      float64
		AwaitedReady                                                          bool
	}
	if err := browsertest.Try(func() {
		tab.Navigate(url)
		tab.Eval(fmt.Sprintf(answerJS, cartURI, ms(o.delay)), &got)
	}); err != nil {
		return v, err
	}
	mu.Lock()
	w := WasmFetch{Requests: got.Requests, Status: netw.Status, FromDiskCache: netw.FromDiskCache,
		TransferSize: got.TransferSize, EncodedBodySize: got.EncodedBodySize, Ms: round1(got.Ms),
		Prefetches: got.Hinted, PrefetchTransferSize: got.HintTransferSize}
	mu.Unlock()
	w.How = classify(w)
	return Visit{AnswerMs: round1(got.AnswerMs), AwaitedReady: got.AwaitedReady, ReadyWaitMs: round1(got.ReadyWaitMs),
		AfterLoadMs: round1(got.AfterLoadMs), Wasm: w}, nil
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
