package e2e

import (
	"slices"
	"testing"
)

// The boundary between Go and the loader under fault: the module's raw exports called with
// arguments the loader never passes, and host functions of the loader that
// break. Module only.

func TestRawExports(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		t.Run("out-of-range arguments", func(t *testing.T) {
			expectNoProblems(t, `
const problems = [];
mc.registerResource({uri: 'state://fault/raw', name: 'raw', get: () => 1, subscribe: () => () => {}});
mc.serveMCP({channel: 'fault-raw'});
const server = 1; // the first server's ID
const start = I.stats();
// 'error': an argument out of range or inconsistent, which must return a
// failure (a negative result, wasm/bridge/answer.go) and report a console
// error; 'quiet': an ID nothing has (e.g. a late result for a resource
// unregistered since), which may be ignored silently (0); 'answer': a
// record's address (positive), with no console error.
const calls = [
  ['mc_register(1000, 1e9)', () => ex.mc_register(1000, 1e9), 'error'],
  ['mc_register(1000, -5)', () => ex.mc_register(1000, -5), 'error'],
  ['mc_register(1000, 3): a truncated registration', () => ex.mc_register(1000, 3), 'error'],
  ['mc_register(1000, 0): no fields', () => ex.mc_register(1000, 0), 'error'],
  ['mc_register(0, 0)', () => ex.mc_register(0, 0), 'error'],
  ['mc_list(7)', () => ex.mc_list(7), 'answer'],
  ['mc_list(-1)', () => ex.mc_list(-1), 'answer'],
  ['mc_match(-5)', () => ex.mc_match(-5), 'error'],
  ['mc_match(2**31-1)', () => ex.mc_match(2 ** 31 - 1), 'error'],
  ['mc_match(1e9)', () => ex.mc_match(1e9), 'error'],
  ['mc_subscribe(-1)', () => ex.mc_subscribe(-1), 'quiet'],
  ['mc_subscribe(1e9)', () => ex.mc_subscribe(1e9), 'quiet'],
  ['mc_unsubscribe(123456)', () => ex.mc_unsubscribe(123456), 'quiet'],
  ['mc_unsubscribe(-1)', () => ex.mc_unsubscribe(-1), 'quiet'],
  ['mc_unregister(-1)', () => ex.mc_unregister(-1), 'quiet'],
  ['mc_unregister(1e9)', () => ex.mc_unregister(1e9), 'quiet'],
  ['mc_list_changed()', () => ex.mc_list_changed(), 'quiet'],
  // mc_push(id, push, result, value, debug); results 0 same, 1 different, 2 no key, 3 threw.
  ['mc_push(unknown id, push 1, different, no value)', () => ex.mc_push(999999, 1, 1, 0, 0), 'quiet'],
  ['mc_push(-7, 1, same, 0, debug)', () => ex.mc_push(-7, 1, 0, 0, 1), 'quiet'],
  ['mc_push(-1, -1, no key, 0, -1)', () => ex.mc_push(-1, -1, 2, 0, -1), 'quiet'],
  ['mc_push(-1, 2**31-1, threw, 0, 0)', () => ex.mc_push(-1, 2 ** 31 - 1, 3, 0, 0), 'quiet'],
  ['mc_push(unknown id, push 1, result 9)', () => ex.mc_push(999999, 1, 9, 0, 0), 'error'],
  ['mc_push(unknown id, push 1, result -1)', () => ex.mc_push(999999, 1, -1, 0, 0), 'error'],
  ['mc_stats(99)', () => ex.mc_stats(99), 'quiet'],
  ['mc_mcp_start(1e9)', () => ex.mc_mcp_start(1e9), 'error'],
  ['mc_mcp_start(-1)', () => ex.mc_mcp_start(-1), 'error'],
  ['mc_mcp_stop(-3)', () => ex.mc_mcp_stop(-3), 'quiet'],
  ['mc_mcp_message(unknown server, garbage length)', () => ex.mc_mcp_message(42, 1e9, 1), 'quiet'],
  ['mc_mcp_message(server, -1)', () => ex.mc_mcp_message(server, -1, 1), 'error'],
  ['mc_mcp_message(server, 1e9)', () => ex.mc_mcp_message(server, 1e9, 1), 'error'],
  ['mc_mcp_message(server, 0)', () => ex.mc_mcp_message(server, 0, 1), 'error'],
  ['mc_mcp_message(server, 3) on stale bytes', () => ex.mc_mcp_message(server, 3, 0), 'quiet'],
  ['mc_mcp_read_done(unknown server, no value)', () => ex.mc_mcp_read_done(42, 1, 1, 0, 5, 0), 'quiet'],
  ['mc_mcp_read_done(server, unknown request, errLen 1e9)', () => ex.mc_mcp_read_done(server, 99999, 0, 0, 0, 1e9), 'error'],
  ['mc_mcp_read_done(server, unknown request, negative errLen)', () => ex.mc_mcp_read_done(server, 99999, 7, 0, -1, -1), 'error'],
];
for (const [label, call, want] of calls) {
  H.clearLog();
  let r;
  try { r = call(); } catch (e) { problems.push(label + ' threw ' + e); continue; }
  const errors = H.log.filter((l) => l.level === 'error').map((l) => l.args.join(' '));
  if (I.goExited) { problems.push(label + ': the Go runtime exited'); break; }
  const reported = errors.some((e) => e.includes('modelcontext: internal error'));
  if (want === 'error' && (!(r < 0) || !reported)) problems.push(label + ' returned ' + r + (reported ? ' with' : ' without') + ' a console error; want a failure and a console error');
  if (want === 'quiet' && r > 0) problems.push(label + ' returned ' + r + ', want 0 or a failure');
  if (want === 'quiet' && r < 0 && !reported) problems.push(label + ' returned a failure without a console error');
  if (want === 'answer' && (!(r > 0) || errors.length > 0)) problems.push(label + ' returned ' + r + ' with ' + errors.length + ' console errors; want an address and none');
}
const end = I.goExited ? start : I.stats();
for (const k of ['registrations', 'subscriptions', 'loaderRegistrations', 'loaderHandlers', 'heldValues', 'mcpServers', 'goValueRefs']) {
  if (end[k] !== start[k]) problems.push(k + ' went from ' + start[k] + ' to ' + end[k]);
}
if (end.wasmMemoryBytes - start.wasmMemoryBytes > 64 << 20) {
  problems.push('WebAssembly memory grew from ' + (start.wasmMemoryBytes >> 20) + ' MiB to ' + (end.wasmMemoryBytes >> 20) + ' MiB');
}
// The registration made before is still served.
if (!I.goExited && await mc.readResource('state://fault/raw') !== 1) problems.push('state://fault/raw no longer reads');
return {checked: calls.length, problems};
`)
		})

		t.Run("value handles the loader never issued", func(t *testing.T) {
			// mc_push for an unknown registration leaves the value handle it
			// is given to the loader; mc_mcp_read_done for an unknown server
			// releases it. A handle the loader never issued must not be
			// released: it would corrupt the loader's value table (and a live
			// handle would be freed while in use).
			expectNoProblems(t, `
const problems = [];
const start = I.stats();
const calls = [
  ['mc_push(unknown id, push 1, different, handle 77)', () => ex.mc_push(999999, 1, 1, 77, 0)],
  ['mc_push(unknown id, push 1, threw, handle -3)', () => ex.mc_push(999999, 1, 3, -3, 0)],
  ['mc_mcp_read_done(unknown server, handle 88)', () => ex.mc_mcp_read_done(42, 1, 1, 88, 5, 0)],
];
for (const [label, call] of calls) {
  H.clearLog();
  let r;
  try { r = call(); } catch (e) { problems.push(label + ' threw ' + e); continue; }
  if (I.goExited) { problems.push(label + ': the Go runtime exited'); break; }
  if (r > 0) problems.push(label + ' returned ' + r + ', want 0 or a failure');
  const s = I.stats();
  if (s.heldValues !== start.heldValues) problems.push(label + ': heldValues went from ' + start.heldValues + ' to ' + s.heldValues);
}
return {checked: calls.length, problems};
`)
		})
	})
}

// TestLoaderFaultBehindTheSharedGuard: a host function off the push and
// registration paths (endSubscription, behind the guard all such functions
// share) that throws fails the call that reached it with an internal error,
// reported once, and the next call works.
func TestLoaderFaultBehindTheSharedGuard(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		var got struct {
			Threw   string
			Reports int
			Got     []int
		}
		faultRun(t, `
const a = H.pushable(mc, {value: 1});
I.breakHost('endSubscription');
let threw = '';
const unsubscribe = mc.subscribeResource(a.uri, () => {});
try { unsubscribe(); } catch (e) { threw = e.message; }
const got = [];
mc.subscribeResource(a.uri, (v) => got.push(v));
a.push(2);
return {
  threw,
  reports: H.mine('error').filter((m) => m.includes("internal error in the loader's endSubscription")).length,
  got,
};
`, &got)
		if want := "modelcontext: internal error in unsubscribe: the loader's endSubscription failed"; got.Threw != want {
			t.Errorf("the unsubscribe that met the broken endSubscription threw %q, want %q", got.Threw, want)
		}
		if got.Reports != 1 {
			t.Errorf("the loader's failure was reported %d times, want once", got.Reports)
		}
		if !slices.Equal(got.Got, []int{2}) {
			t.Errorf("the handler subscribed after the failure got %v, want [2]", got.Got)
		}
	})
}

// TestLoaderFaultsAreNotAnswers: a host function of the loader that throws
// (a bug in the loader) reaches Go as a failure, never as a result that
// also means something: 0 from deliver is "the handler did not throw". The
// push fails loudly instead, and the next one works.
func TestLoaderFaultsAreNotAnswers(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		for _, fn := range []string{"dispatch", "deliver"} {
			t.Run(fn, func(t *testing.T) {
				var got struct {
					Handled []int
					Threw   string
					Reports int
					Held    int
				}
				faultRun(t, `
const uri = 'state://fault/host';
let n = 0, onChange;
mc.registerResource({uri, name: 'h', get: () => ({n}), subscribe: (f) => { onChange = f; return () => {}; }});
const handled = [];
mc.subscribeResource(uri, (v) => handled.push(v.n));
n = 1; onChange();
n = 2; I.breakHost(`+jsString(fn)+`);
let threw = '';
try { onChange(); } catch (e) { threw = e.message; }
n = 3; onChange();
await H.settle();
return {handled, threw, reports: H.mine('error').filter((m) => m.includes("internal error in the loader's `+fn+`")).length, held: I.stats().heldValues};
`, &got)
				if want := "modelcontext: internal error in onChange: the loader's " + fn + " failed"; got.Threw != want {
					t.Errorf("the broken push threw %q, want %q", got.Threw, want)
				}
				if got.Reports != 1 {
					t.Errorf("the loader's failure was reported %d times, want once", got.Reports)
				}
				if !slices.Equal(got.Handled, []int{1, 3}) {
					t.Errorf("handler got %v, want [1 3]: the push after the failure must be delivered", got.Handled)
				}
				if got.Held != 0 {
					t.Errorf("%d values still held: the failed delivery's value was not released", got.Held)
				}
			})
		}
	})
}
