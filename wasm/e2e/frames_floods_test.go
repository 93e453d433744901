package e2e

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/heapprofiler"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// A frame cannot hold the page hostage (CONTRACT.md §6.1): the floods of
// issue #45, sent by frame-child.html's hand server (frame-floods.js) from
// another site, so that the frame runs in a process of its own, as an ad or
// a widget of another site does, and what the page measures is its own.
// During each flood the page stays responsive and afterwards its memory is
// what it was; each flood ends in a sentinel that shows the page applied
// the frame's latest list (or value).

// floodsTiming holds the floods to their time bounds (make bench-floods).
var floodsTiming = flag.Bool("floods-timing", false, "hold the frame floods to their time bounds (longest task, timer ticks), as make bench-floods does")

// floodSite is a second loopback address: a site other than the page's
// (127.0.0.1), which the shared browser's host rules would refuse.
const floodSite = "127.0.0.2"

// floodPage opens the parent page in a browser that may load floodSite and
// serves the child pages there; it returns the tab and the child's origin.
func floodPage(t *testing.T) (*browsertest.Tab, string) {
	t.Helper()
	requireTestBuild(t)
	requireMCPBundles(t)
	tab := browsertest.NewTabWith(t, browsertest.Options{Flags: map[string]any{
		"host-resolver-rules": "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE " + floodSite,
	}})
	tab.Timeout = 60 * time.Second
	tab.Navigate(browsertest.URL(t, "/frame-parent.html?"+testBuild))
	pages := browsertest.NewServer(nil)
	t.Cleanup(pages.Close)
	ln, err := net.Listen("tcp", floodSite+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", floodSite, err)
	}
	child := &httptest.Server{Listener: ln, Config: &http.Server{Handler: pages.Server.Config.Handler}}
	child.Start()
	t.Cleanup(child.Close)
	return tab, child.URL
}

// heapUsed collects the page's garbage and answers the bytes its JavaScript
// heap uses (the DevTools protocol's Runtime.getHeapUsage).
func heapUsed(t *testing.T, tab *browsertest.Tab) float64 {
	t.Helper()
	var used float64
	err := chromedp.Run(tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		for range 2 {
			if err := heapprofiler.CollectGarbage().Do(ctx); err != nil {
				return err
			}
		}
		var err error
		used, _, _, _, err = cdpruntime.GetHeapUsage().Do(ctx)
		return err
	}))
	if err != nil {
		t.Fatalf("measuring the heap: %v", err)
	}
	return used
}

// floodMeasure is what FR.probe measured during a flood (frame-parent.html),
// with what the frame reported it sent and was asked (Done), the page's own
// resource read after it, the warnings and the module's memory.
type floodMeasure struct {
	Longest, Raw, Module, Deserialized float64
	Ticks, MS                          float64
	FrameListed                        float64
	Done                               struct{ Ticks, Lists, Reads float64 }
	Own                                string
	Warnings                           []string
	Wasm                               float64
}

const (
	floodMS = 3000
	// The longest task of the page's own that a flood may cause, the
	// browser's deserialization of a message aside.
	floodLongestTask = 50
	// How much the page's JavaScript heap may grow through a flood, and its
	// WebAssembly memory (which never shrinks: Go's heap grows to about
	// 4 MiB before its first collection, then stays).
	floodHeapGrowth = 4 << 20
	floodWasmGrowth = 8 << 20
	// Times are measured on a clock that runs while other processes have
	// the CPU: a flood whose times are over its bounds is measured again,
	// up to this many times in all, and one measure within them passes.
	floodTries = 4
)

// TestConnectFrameFloods: each flood of issue #45 for 3 s, against a page
// with a resource of its own. The page stays responsive: no task of its own
// over 50 ms (the browser's deserialization of a message aside: a list of
// 100,000 is the browser's to parse), the module's side of no message over
// 50 ms, a 10 ms interval ticks at least half the time; its memory is what
// it was; at most 1,000 of the frame's resources are listed; each kind of
// warning comes once; a burst of updates makes no more reads than one in
// flight. Times on a busy machine are noisy (floodTries).
func TestConnectFrameFloods(t *testing.T) {
	for _, c := range []struct {
		name, op, sentinel string
		arg                string
	}{
		// 100,000 resources in every list, a list change every 10 ms.
		{"100,000 resources", "big", "list", `{ms: FLOOD_MS}`},
		// 2,000 resources shuffled every 10 ms.
		{"2,000 reordered every 10 ms", "reorder", "list", `{ms: FLOOD_MS}`},
		// 2,000 invalid entries with new uris every 10 ms.
		{"invalid entries with new keys", "invalid", "list", `{ms: FLOOD_MS}`},
		// 50 updates of a uri every 10 ms (5,000 a second; at 20,000 the
		// browser alone cannot keep up), no read answered.
		{"updates, no read answered", "updates", "value", `{ms: FLOOD_MS, per: 50}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, growth, wasmGrowth := flood(t, c.op, c.sentinel, c.arg)
			if m.FrameListed > 1000 {
				t.Errorf("%v of the frame's resources listed at once, want at most 1,000", m.FrameListed)
			}
			if m.Own != "own value" {
				t.Errorf("the page's own read %q after the flood", m.Own)
			}
			if len(m.Warnings) > 2 {
				t.Errorf("%d warnings, want at most one per kind: %q", len(m.Warnings), m.Warnings[:3])
			}
			if growth > floodHeapGrowth {
				t.Errorf("the page's heap grew by %.1f MiB, want at most %d MiB", growth/(1<<20), floodHeapGrowth>>20)
			}
			if wasmGrowth > floodWasmGrowth {
				t.Errorf("the module's memory grew by %.1f MiB, want at most %d MiB", wasmGrowth/(1<<20), floodWasmGrowth>>20)
			}
			// A list change every 10 ms, applied at most every 100 ms.
			if c.sentinel == "list" && m.Done.Lists > floodMS/100+3 {
				t.Errorf("the frame was asked %v lists in %d ms, want one each 100 ms at most", m.Done.Lists, floodMS)
			}
			// The read before the flood, the one held through it.
			if c.op == "updates" && m.Done.Reads > 2 {
				t.Errorf("the frame was asked %v reads, want 2: the read before the flood and one in flight", m.Done.Reads)
			}
			// Time is measured, and held to its bounds only by make bench
			// (-floods-timing): wall-clock bounds fail for a busy machine's
			// sake, not the module's, beside make test's other targets.
			if !*floodsTiming {
				if slow := floodSlow(m); slow != "" {
					t.Logf("%s (held to it by make bench-floods)", slow)
				}
				return
			}
			for try := 2; ; try++ {
				slow := floodSlow(m)
				if slow == "" {
					break
				}
				if try > floodTries {
					t.Error(slow)
					break
				}
				t.Logf("%s; measuring again", slow)
				m, _, _ = flood(t, c.op, c.sentinel, c.arg)
			}
		})
	}
}

// floodSlow says what of m is over its bound, or "".
func floodSlow(m floodMeasure) string {
	var slow []string
	if m.Longest > floodLongestTask {
		slow = append(slow, fmt.Sprintf("the longest task of the page's own took %.0f ms (the browser's deserialization of messages aside), want at most %d", m.Longest, floodLongestTask))
	}
	if m.Module > floodLongestTask {
		slow = append(slow, fmt.Sprintf("the module's side of one message took %.0f ms, want at most %d", m.Module, floodLongestTask))
	}
	if m.Ticks < m.MS/10/2 {
		slow = append(slow, fmt.Sprintf("a 10 ms interval ticked %v times in %.0f ms, want at least half as many as it could", m.Ticks, m.MS))
	}
	return strings.Join(slow, "; ")
}

// flood opens a page with a resource of its own, connects a hand frame and
// measures what the flood op(arg) does to it, until the sentinel ("list"
// or "value") shows the page took the frame's last word; it answers the
// measures and the growth of the page's heap and of the module's memory.
func flood(t *testing.T, op, sentinel, arg string) (m floodMeasure, growth, wasmGrowth float64) {
	t.Helper()
	tab, childOrigin := floodPage(t)
	frameRun(tab, childOrigin, `
mc.registerResource({uri: 'page://own', name: 'own', get: () => 'own value'});
const iframe = await FR.frame(child('hand'));
window.floodFrame = iframe;
mc.connectFrame(iframe, {origin: CHILD});
await FR.until(() => FR.uris().includes('frame://ok'), 'the frame listed');
await mc.readResource('frame://ok');
FR.quiet = true;
return null;
`, nil)
	before := heapUsed(t, tab)
	var wasmBefore float64
	tab.Eval(`document.modelContext[Symbol.for('modelcontext.internals')].stats().wasmMemoryBytes`, &wasmBefore)
	frameRun(tab, childOrigin, `
const FLOOD_MS = `+fmt.Sprint(floodMS)+`;
const iframe = window.floodFrame;
const from = FR.reports.length;
const ended = new Promise((resolve) => mc.addEventListener('resourceupdated', (ev) => { if (ev.detail.value === 'end') resolve(); }));
const probe = FR.probe();
await FR.command(iframe, `+jsString(op)+`, `+arg+`);
const done = await FR.report(iframe, 'flood-done', from);
if (`+jsString(sentinel)+` === 'list') {
  await FR.until(() => { const u = FR.uris(); return u.includes('frame://end') && !u.includes('frame://ok'); }, 'the list after the flood');
} else {
  await Promise.race([ended, new Promise((_, reject) => setTimeout(() => reject(new Error('no push of the value after the flood')), 20000))]);
}
const m = await probe.stop();
return Object.assign(m, {done, own: await mc.readResource('page://own'), warnings: H.mine('warn'), wasm: I.stats().wasmMemoryBytes});
`, &m)
	after := heapUsed(t, tab)
	t.Logf("%s: longest task %.0f ms (%.0f ms with the browser's deserialization of messages; the longest %.0f ms), the module's side of one message %.1f ms; %v of %.0f timer ticks; JS heap %.1f → %.1f MiB; wasm %.1f → %.1f MiB; the frame sent %v ticks, answered %v lists and %v reads; at most %v of its resources listed; %d warnings",
		op, m.Longest, m.Raw, m.Deserialized, m.Module, m.Ticks, m.MS/10, before/(1<<20), after/(1<<20), wasmBefore/(1<<20), m.Wasm/(1<<20), m.Done.Ticks, m.Done.Lists, m.Done.Reads, m.FrameListed, len(m.Warnings))
	return m, after - before, m.Wasm - wasmBefore
}
