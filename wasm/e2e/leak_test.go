package e2e

import (
	"fmt"
	"testing"
	"time"
)

// wasm/CONTRACT.md §7: every js.Func (here: every loader table entry and value
// handle) the module creates is released when its registration, subscription or
// push ends; 100,000 register/unregister cycles and 1,000,000 pushes leave the
// live counts at their starting level, and WebAssembly memory stops growing.
// The counts come from the test build's hooks
// (document.modelContext[Symbol.for("modelcontext.internals")].stats(),
// js/testhooks/hooks.js). The runtime's live JavaScript references are held
// to their start by its calls into syscall/js, the only way they change:
// there must be none during the cycles and pushes.

// leakStats is internals.stats().
type leakStats struct {
	Registrations       int
	Subscriptions       int
	LoaderRegistrations int
	LoaderHandlers      int
	HeldValues          int
	MCPServers          int
	GoJSCalls           int
	GoJSImports         int
	WasmMemoryBytes     int
}

func (s leakStats) counts() [7]int {
	return [7]int{s.Registrations, s.Subscriptions, s.LoaderRegistrations, s.LoaderHandlers, s.HeldValues, s.MCPServers, s.GoJSCalls}
}

// leakSetup defines window.__leak in the page: batches that run inside page
// JavaScript, so that a million operations cost a handful of CDP calls.
const leakSetup = `
const I = mc[Symbol.for('modelcontext.internals')];
let teardowns = 0, subscribes = 0, handled = 0, events = 0, listChanges = 0;
// The resource the pushes go to: one listener (below), no other consumer.
let value = 0, onChange = null;
mc.registerResource({uri: 'leak://pushed', name: 'pushed', get: () => ({n: value}),
  subscribe: (cb) => { onChange = cb; return () => {}; }});
// Pushed once before the counts are taken: the baseline is set.
onChange();
mc.addEventListener('resourceupdated', () => { events++; });
mc.addEventListener('resourcelistchanged', () => { listChanges++; });
let next = 0;
window.__leak = {
  stats: () => I.stats(),
  goExited: () => I.goExited,
  // cycles registers, subscribes (subscribe/teardown and subscribeResource),
  // pushes once and unregisters n fresh uris; every other subscribeResource
  // is ended by its unsubscribe, the others by the unregistration.
  cycles(n) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const uri = 'leak://cycle/' + (next++);
      let cb;
      const unregister = mc.registerResource({uri, name: 'c', get: () => i,
        subscribe: (f) => { subscribes++; cb = f; return () => { teardowns++; }; }});
      const unsubscribe = mc.subscribeResource(uri, () => { handled++; });
      cb();
      if (i % 2 === 0) unsubscribe();
      unregister();
    }
    return performance.now() - t0;
  },
  // pushes calls onChange n times with alternating values, so each dispatches.
  pushes(n) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      value = value === 0 ? 1 : 0;
      onChange();
    }
    return performance.now() - t0;
  },
  counters: () => ({teardowns, subscribes, handled, events, listChanges}),
};
`

func TestLeaks(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		const (
			cycles      = 100_000
			pushes      = 1_000_000
			cycleChunk  = 25_000
			pushChunk   = 250_000
			evalTimeout = 60 * time.Second
		)
		requireTestBuild(t)
		p := open(t, "wasm", "", testBuild)
		p.Timeout = evalTimeout
		var start leakStats
		p.run(leakSetup+"return window.__leak.stats();", &start)
		if start.GoJSImports == 0 {
			t.Fatal("the test hooks wrapped no syscall/js import of the Go runtime: goJSCalls would count nothing (has wasm_exec.js changed?)")
		}

		// batch runs the cycles and then the pushes, in chunks, and returns
		// the stats afterwards; the times are measured in the page.
		type batchResult struct {
			stats           leakStats
			cycleMS, pushMS float64
		}
		batch := func(n int) batchResult {
			var r batchResult
			for done := 0; done < cycles; done += cycleChunk {
				var ms float64
				p.Eval(fmt.Sprintf("window.__leak.cycles(%d)", cycleChunk), &ms)
				r.cycleMS += ms
			}
			for done := 0; done < pushes; done += pushChunk {
				var ms float64
				p.Eval(fmt.Sprintf("window.__leak.pushes(%d)", pushChunk), &ms)
				r.pushMS += ms
			}
			// A release may follow the calls (a pending microtask or
			// timer): wait, with a generous deadline, until the counts are
			// back at their starting level; the checks below report them
			// if they never are.
			p.Eval(fmt.Sprintf(`(async () => {
  const start = %s;
  const back = () => { const s = window.__leak.stats(); return Object.keys(start).every((k) => s[k] === start[k]); };
  for (const end = Date.now() + 15000; !back() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
})()`, mustJSON(map[string]int{
				"registrations": start.Registrations, "subscriptions": start.Subscriptions,
				"loaderRegistrations": start.LoaderRegistrations, "loaderHandlers": start.LoaderHandlers,
				"heldValues": start.HeldValues, "mcpServers": start.MCPServers, "goJSCalls": start.GoJSCalls,
			})), nil)
			p.Eval("window.__leak.stats()", &r.stats)
			t.Logf("batch %d: %d register/unregister cycles in %.1f s (%.1f µs each), %d pushes in %.1f s (%.2f µs each)",
				n, cycles, r.cycleMS/1000, r.cycleMS*1000/cycles, pushes, r.pushMS/1000, r.pushMS*1000/pushes)
			return r
		}
		began := time.Now()
		b1 := batch(1)
		b2 := batch(2)
		elapsed := time.Since(began)

		var counters struct{ Teardowns, Subscribes, Handled, Events, ListChanges int }
		var exited bool
		p.Eval("window.__leak.counters()", &counters)
		p.Eval("window.__leak.goExited()", &exited)

		mib := func(b int) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
		t.Logf("live counts before → after batch 1 → after batch 2 (each batch: %d register/unregister cycles with subscribe/teardown, subscribeResource and one push, then %d pushes):", cycles, pushes)
		for _, row := range []struct {
			name      string
			a, b1, b2 int
		}{
			{"registrations (Go)", start.Registrations, b1.stats.Registrations, b2.stats.Registrations},
			{"subscriptions (Go)", start.Subscriptions, b1.stats.Subscriptions, b2.stats.Subscriptions},
			{"loaderRegistrations", start.LoaderRegistrations, b1.stats.LoaderRegistrations, b2.stats.LoaderRegistrations},
			{"loaderHandlers", start.LoaderHandlers, b1.stats.LoaderHandlers, b2.stats.LoaderHandlers},
			{"heldValues", start.HeldValues, b1.stats.HeldValues, b2.stats.HeldValues},
			{"mcpServers", start.MCPServers, b1.stats.MCPServers, b2.stats.MCPServers},
			{"goJSCalls", start.GoJSCalls, b1.stats.GoJSCalls, b2.stats.GoJSCalls},
		} {
			t.Logf("  %-20s %d → %d → %d", row.name, row.a, row.b1, row.b2)
		}
		t.Logf("  %-20s %s → %s → %s", "WebAssembly memory", mib(start.WasmMemoryBytes), mib(b1.stats.WasmMemoryBytes), mib(b2.stats.WasmMemoryBytes))
		t.Logf("  both batches took %v in all", elapsed.Round(100*time.Millisecond))
		t.Logf("  totals: %d subscribe calls, %d teardowns, %d handler calls, %d resourceupdated events, %d resourcelistchanged events",
			counters.Subscribes, counters.Teardowns, counters.Handled, counters.Events, counters.ListChanges)

		if exited {
			t.Fatal("the Go runtime exited")
		}
		if b1.stats.counts() != start.counts() || b2.stats.counts() != start.counts() {
			t.Errorf("live counts did not return to their starting level:\n  start   %+v\n  batch 1 %+v\n  batch 2 %+v", start, b1.stats, b2.stats)
		}
		if b2.stats.WasmMemoryBytes != b1.stats.WasmMemoryBytes {
			t.Errorf("WebAssembly memory still grows: %s after batch 1, %s after batch 2", mib(b1.stats.WasmMemoryBytes), mib(b2.stats.WasmMemoryBytes))
		}
		// Every cycle subscribed, tore down and dispatched its push to its
		// handler; every push dispatched (the values alternate).
		want := struct{ Teardowns, Subscribes, Handled, Events, ListChanges int }{
			Teardowns: 2 * cycles, Subscribes: 2 * cycles, Handled: 2 * cycles,
			Events: 2 * (cycles + pushes), ListChanges: 2 * 2 * cycles,
		}
		if counters != want {
			t.Errorf("counters: got %+v, want %+v", counters, want)
		}
	})
}
