package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// wasm/CONTRACT.md §7: no input from page code can stop the Go runtime. Hostile
// input that robustness_test.go does not cover: every member with wrong types,
// symbols and BigInts, throwing accessors and Proxies that throw on every trap
// (as descriptor, annotations, get, subscribe, handler and value), 10 MB
// strings, getters that never settle, a subscribe that calls onChange 10,000
// times, a get that re-enters onChange without end, and the raw wasm exports
// called with out-of-range arguments. Each page ends with roundTrip: the
// runtime has not exited and a register / read / push / subscribe round trip
// works. Module only: the reference has no runtime to lose.

// faultPrelude gives scenarios I (the test build's hooks), the checks below
// and roundTrip().
const faultPrelude = `
const I = mc[Symbol.for('modelcontext.internals')];
const ex = I.exports;
// allTraps returns a Proxy that throws on every trap; a function target
// makes it callable (typeof 'function').
const TRAPS = ['get', 'set', 'has', 'deleteProperty', 'ownKeys', 'getOwnPropertyDescriptor', 'defineProperty',
  'getPrototypeOf', 'setPrototypeOf', 'isExtensible', 'preventExtensions', 'apply', 'construct'];
const allTraps = (label, fn) => new Proxy(fn ? function () {} : {}, Object.fromEntries(TRAPS.map((k) => [k, () => { throw new Error(label + ': ' + k + ' trap'); }])));
const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };
const thrower = (label) => { throw new Error(label); };
const errorsMentioning = (s) => H.log.filter((l) => l.level === 'error' && l.args.join(' ').includes(s)).length;
async function roundTrip() {
  try {
    return await roundTripOnce();
  } catch (e) {
    return {exited: I.goExited, error: String(e)};
  }
}
async function roundTripOnce() {
  const uri = 'state://roundtrip/' + Math.random();
  let n = 0, onChange = null;
  const unregister = mc.registerResource({uri, name: 'rt', get: () => ({n}), subscribe: (cb) => { onChange = cb; return () => {}; }});
  const handler = [], events = [];
  const listener = (ev) => { if (ev.detail.uri === uri) events.push(ev.detail.value.n); };
  mc.addEventListener('resourceupdated', listener);
  const unsubscribe = mc.subscribeResource(uri, (v) => handler.push(v.n));
  n = 1; onChange(); onChange(); n = 2; onChange();
  const read = (await mc.readResource(uri)).n;
  const listed = mc.getResources().some((d) => d.uri === uri);
  unsubscribe(); unregister();
  mc.removeEventListener('resourceupdated', listener);
  return {exited: I.goExited, handler, events, read, listed, gone: !mc.getResources().some((d) => d.uri === uri)};
}
`

const roundTripWant = `{"exited": false, "handler": [1, 2], "events": [1, 2], "read": 2, "listed": true, "gone": true}`

// faultRun runs body (with faultPrelude) in a fresh page of the module's
// test build, then the round trip, and returns what body returned.
func faultRun(t *testing.T, body string, out any) {
	t.Helper()
	requireTestBuild(t)
	p := open(t, "wasm", "", testBuild)
	p.Timeout = 60 * time.Second
	var got struct {
		Result    json.RawMessage
		RoundTrip json.RawMessage
		Uncaught  []string
	}
	p.run(faultPrelude+"const result = await (async () => {\n"+body+"\n})();\nawait H.settle();\n"+
		"return {result, roundTrip: await roundTrip(), uncaught: H.uncaught};", &got)
	if d := jsonDiff(got.RoundTrip, roundTripWant); d != "" {
		t.Errorf("afterwards, the round trip failed:\n%s", d)
	}
	for _, u := range got.Uncaught {
		if strings.Contains(u, "Go program has already exited") {
			t.Errorf("uncaught: %s", u)
		}
	}
	if out != nil {
		if err := json.Unmarshal(got.Result, out); err != nil {
			t.Fatalf("decoding %s: %v", got.Result, err)
		}
	}
	if t.Failed() {
		t.Logf("result: %s\n%s", got.Result, p.ConsoleText())
	}
}

// expectNoProblems runs body, which returns a list of problems, and fails
// the test with each one.
func expectNoProblems(t *testing.T, body string) {
	t.Helper()
	var got struct {
		Checked  int
		Problems []string
	}
	faultRun(t, body, &got)
	for _, p := range got.Problems {
		t.Error(p)
	}
	if got.Checked == 0 {
		t.Error("nothing was checked")
	}
	t.Logf("%d calls checked", got.Checked)
}

// checkCalls (page JavaScript) runs [label, call, expectation] cases and
// collects the problems. An expectation is
//
//	['throws', ErrorName, ...substrings]   a synchronous throw
//	['rejects', ErrorName, ...substrings]  a returned Promise that rejects (no synchronous throw)
//	['returns']                            no throw (a returned Promise may do anything)
//	['either']                             anything, as long as the runtime survives
//
// ErrorName is TypeError, NotFoundError (a DOMException) or Error; each
// substring must appear in the message.
const checkCalls = `
async function checkCalls(cases) {
  const problems = [];
  for (const [label, call, want] of cases) {
    let threw = null, rejected = null, returned;
    try { returned = call(); } catch (e) { threw = e; }
    if (returned instanceof Promise) { try { await returned; } catch (e) { rejected = e; } }
    const got = threw !== null ? ['throws', threw] : rejected !== null ? ['rejects', rejected] : ['returns'];
    const show = (e) => { try { return e instanceof Error || e instanceof DOMException ? e.name + ': ' + String(e.message).slice(0, 200) : typeof e; } catch (_) { return '?'; } };
    const problem = (why) => problems.push(label + ': ' + why + ' (got ' + got[0] + (got[1] !== undefined ? ' ' + show(got[1]) : '') + ')');
    if (I.goExited) { problem('the Go runtime exited'); break; }
    if (want[0] === 'either') continue;
    if (got[0] !== want[0]) { problem('want ' + want[0] + ' ' + (want[1] || '')); continue; }
    if (want[0] === 'returns') continue;
    const e = got[1];
    const nameOK = want[1] === 'TypeError' ? e instanceof TypeError
      : want[1] === 'NotFoundError' ? e instanceof DOMException && e.name === 'NotFoundError'
      : e instanceof Error;
    if (!nameOK) { problem('want a ' + want[1]); continue; }
    for (const s of want.slice(2)) if (!String(e.message).includes(s)) problem('the message does not mention ' + JSON.stringify(s).slice(0, 80));
  }
  return {checked: cases.length, problems};
}
`

// TestHostileArguments: every member called with wrong types, symbols,
// BigInts, throwing accessors, and values and functions that are Proxies
// throwing on every trap.
func TestHostileArguments(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		t.Run("wrong types, symbols, BigInts, throwing accessors and Proxies", func(t *testing.T) {
			expectNoProblems(t, checkCalls+`
const G = () => 1;
const U = (k) => 'state://fault/' + k;
const T = (...s) => ['throws', 'TypeError', ...s];
// d builds a descriptor for uri k with one field changed.
const d = (k, extra) => Object.assign({uri: U(k), name: 'n', get: G}, extra);
mc.registerResource({uri: U('known'), name: 'known', get: G, subscribe: () => () => {}});
mc.registerResource({uriTemplate: U('t/{id}'), name: 'template', get: G});
const cases = [
  // registerResource: every field with a symbol, a BigInt or a function.
  ['uri bigint', () => mc.registerResource({uri: 10n, name: 'n', get: G}), T('"uri"', 'bigint')],
  ['uri function', () => mc.registerResource({uri: () => 'a:b', name: 'n', get: G}), T('"uri"', 'function')],
  ['uri Proxy', () => mc.registerResource({uri: allTraps('uri'), name: 'n', get: G}), T('"uri"')],
  ['name symbol', () => mc.registerResource(d('a', {name: Symbol('n')})), T('"name"', U('a'))],
  ['name bigint', () => mc.registerResource(d('b', {name: 1n})), T('"name"', U('b'))],
  ['name function', () => mc.registerResource(d('c', {name: G})), T('"name"', U('c'))],
  ['title symbol', () => mc.registerResource(d('d', {title: Symbol()})), T('"title"', U('d'))],
  ['description bigint', () => mc.registerResource(d('e', {description: 2n})), T('"description"', U('e'))],
  ['mimeType symbol', () => mc.registerResource(d('f', {mimeType: Symbol()})), T('"mimeType"', U('f'))],
  ['get symbol', () => mc.registerResource(d('g', {get: Symbol()})), T('"get"', U('g'))],
  ['get bigint', () => mc.registerResource(d('h', {get: 3n})), T('"get"', U('h'))],
  ['subscribe symbol', () => mc.registerResource(d('i', {subscribe: Symbol()})), T('"subscribe"', U('i'))],
  ['annotations symbol', () => mc.registerResource(d('j', {annotations: Symbol()})), T('"annotations"', U('j'))],
  ['annotations function', () => mc.registerResource(d('k', {annotations: G})), T('"annotations"', U('k'))],
  ['priority symbol', () => mc.registerResource(d('l', {annotations: {priority: Symbol()}})), T('"annotations.priority"', U('l'))],
  ['priority bigint', () => mc.registerResource(d('m', {annotations: {priority: 0n}})), T('"annotations.priority"', U('m'))],
  ['audience entry symbol', () => mc.registerResource(d('n', {annotations: {audience: [Symbol()]}})), T('"annotations.audience[0]"', U('n'))],
  ['lastModified bigint', () => mc.registerResource(d('o', {annotations: {lastModified: 2025n}})), T('"annotations.lastModified"', U('o'))],
  ['uriTemplate symbol', () => mc.registerResource({uriTemplate: Symbol(), name: 'n', get: G}), T('"uriTemplate"')],
  // Accessors that throw, field by field: a TypeError naming the field.
  ['title getter throws', () => mc.registerResource({uri: U('p'), name: 'n', get: G, get title() { thrower('title'); }}), T('"title"')],
  ['description getter throws', () => mc.registerResource({uri: U('q'), name: 'n', get: G, get description() { thrower('d'); }}), T('"description"')],
  ['mimeType getter throws', () => mc.registerResource({uri: U('r'), name: 'n', get: G, get mimeType() { thrower('m'); }}), T('"mimeType"')],
  ['get getter throws', () => mc.registerResource({uri: U('s'), name: 'n', get get() { thrower('get'); }}), T('"get"')],
  ['subscribe getter throws', () => mc.registerResource({uri: U('t'), name: 'n', get: G, get subscribe() { thrower('s'); }}), T('"subscribe"')],
  ['annotations getter throws', () => mc.registerResource({uri: U('u'), name: 'n', get: G, get annotations() { thrower('a'); }}), T('"annotations"')],
  ['priority getter throws', () => mc.registerResource(d('v', {annotations: {get priority() { thrower('p'); }}})), T('"annotations.priority"')],
  ['lastModified getter throws', () => mc.registerResource(d('w', {annotations: {get lastModified() { thrower('l'); }}})), T('"annotations.lastModified"')],
  ['getter throws a non-Error', () => mc.registerResource({get uri() { throw Symbol('odd'); }, name: 'n', get: G}), T('"uri"')],
  ['getter throws an unprintable', () => mc.registerResource({get uri() { throw allTraps('thrown'); }, name: 'n', get: G}), T('"uri"')],
  // Proxies that throw on every trap, and a revoked Proxy.
  ['descriptor Proxy', () => mc.registerResource(allTraps('descriptor')), T('"uri"')],
  ['descriptor callable Proxy', () => mc.registerResource(allTraps('descriptor', true)), T('descriptor must be an object', 'function')],
  ['descriptor revoked Proxy', () => mc.registerResource(revoked()), T('"uri"')],
  ['annotations Proxy', () => mc.registerResource(d('x', {annotations: allTraps('annotations')})), T('"annotations.audience"')],
  ['annotations revoked Proxy', () => mc.registerResource(d('y', {annotations: revoked()})), T('"annotations')],
  ['audience Proxy', () => mc.registerResource(d('z', {annotations: {audience: allTraps('audience')}})), T('"annotations.audience"')],
  ['audience revoked Proxy', () => mc.registerResource(d('aa', {annotations: {audience: revoked()}})), T('"annotations.audience"')],
  // readResource: a Promise-returning member rejects, it never throws.
  ['read no argument', () => mc.readResource(), ['rejects', 'TypeError', '"uri"']],
  ['read bigint', () => mc.readResource(5n), ['rejects', 'TypeError', '"uri"', 'bigint']],
  ['read function', () => mc.readResource(G), ['rejects', 'TypeError', '"uri"', 'function']],
  ['read Proxy', () => mc.readResource(allTraps('read')), ['rejects', 'TypeError', '"uri"']],
  ['read revoked Proxy', () => mc.readResource(revoked()), ['rejects', 'TypeError', '"uri"']],
  ['read unknown', () => mc.readResource(U('nothing')), ['rejects', 'NotFoundError', U('nothing')]],
  ['read NUL and lone surrogate', () => mc.readResource('state://\u0000\ud800'), ['rejects', 'NotFoundError']],
  // subscribeResource.
  ['subscribe bigint uri', () => mc.subscribeResource(1n, G), T('"uri"', 'bigint')],
  ['subscribe Proxy uri', () => mc.subscribeResource(allTraps('uri'), G), T('"uri"')],
  ['subscribe symbol handler', () => mc.subscribeResource(U('known'), Symbol()), T('"handler"', 'symbol')],
  ['subscribe bigint handler', () => mc.subscribeResource(U('known'), 1n), T('"handler"', 'bigint')],
  ['subscribe Proxy handler object', () => mc.subscribeResource(U('known'), allTraps('handler')), T('"handler"')],
  ['subscribe unknown', () => mc.subscribeResource(U('nothing'), G), ['throws', 'NotFoundError', U('nothing')]],
  ['subscribe to a uri only a template serves', () => mc.subscribeResource(U('t/1'), G), ['throws', 'NotFoundError', U('t/1')]],
  // The listing members ignore their arguments.
  ['getResources with junk', () => mc.getResources(Symbol(), 1n, allTraps('x')), ['returns']],
  ['getResourceTemplates with junk', () => mc.getResourceTemplates(Symbol(), allTraps('x')), ['returns']],
  // serveMCP validates its options with TypeErrors naming the option.
  ['serveMCP symbol', () => mc.serveMCP(Symbol()), T('options must be an object')],
  ['serveMCP bigint', () => mc.serveMCP(1n), T('options must be an object')],
  ['serveMCP channel symbol', () => mc.serveMCP({channel: Symbol()}), T('"channel"')],
  ['serveMCP channel empty', () => mc.serveMCP({channel: ''}), T('"channel"')],
  ['serveMCP allowedOrigins string', () => mc.serveMCP({channel: 'c1', allowedOrigins: '*'}), T('"allowedOrigins"')],
  ['serveMCP allowedOrigins with a symbol', () => mc.serveMCP({channel: 'c2', allowedOrigins: [Symbol()]}), T('"allowedOrigins"')],
  ['serveMCP pageSize negative', () => mc.serveMCP({channel: 'c3', pageSize: -1}), T('"pageSize"')],
  ['serveMCP maxBytes NaN', () => mc.serveMCP({channel: 'c4', maxBytes: NaN}), T('"maxBytes"')],
  ['serveMCP options Proxy', () => mc.serveMCP(allTraps('options')), ['either']],
  ['serveMCP allowedOrigins Proxy', () => mc.serveMCP({channel: 'c5', allowedOrigins: allTraps('origins')}), ['either']],
  ['registerResourceTools without registerTool', () => mc.registerResourceTools(Symbol()), ['throws', 'Error', 'registerTool']],
  // unregister and unsubscribe ignore their arguments and this.
  ['unregister with junk', () => mc.registerResource({uri: U('junk'), name: 'n', get: G}).call(allTraps('this'), Symbol(), 1n), ['returns']],
  ['unsubscribe with junk', () => mc.subscribeResource(U('known'), G).call(allTraps('this'), Symbol(), 1n), ['returns']],
  // Unbound members.
  ['unbound registerResource', () => { const f = mc.registerResource; return f(d('unbound', {})); }, ['returns']],
  ['unbound readResource', () => { const f = mc.readResource; return f.call(allTraps('this'), U('known')); }, ['returns']],
];
const r = await checkCalls(cases);
// Nothing invalid was registered.
const listed = mc.getResources().map((x) => x.uri).filter((u) => u.startsWith('state://fault/'));
const want = [U('known'), U('unbound')];
if (JSON.stringify(listed) !== JSON.stringify(want)) r.problems.push('listed ' + JSON.stringify(listed) + ', want ' + JSON.stringify(want));
return r;
`)
		})
		t.Run("values and functions that throw on every trap", func(t *testing.T) {
			var got struct {
				OnChangeThrew                    []string
				Outcomes                         map[string]string
				Tail                             []string
				ProxyHandlerErrors, OtherHandler int
				Reads                            []string
				SubscribeErrors                  any
				Subscribable                     any
			}
			faultRun(t, `
const uri = 'state://fault/values';
const values = [
  ['throwing getter', () => ({ok: 1, get bad() { thrower('value getter'); }})],
  ['throwing toJSON', () => ({toJSON() { thrower('toJSON'); }})],
  ['Proxy', () => allTraps('value')],
  ['callable Proxy', () => allTraps('value', true)],
  ['revoked Proxy', revoked],
  ['thenable whose then throws', () => ({get then() { thrower('then'); }})],
  ['A', () => 'A'], ['A again', () => 'A'], ['B', () => 'B'],
];
let current = null, onChange = null;
mc.registerResource({uri, name: 'v', get: () => current(), subscribe: (cb) => { onChange = cb; return () => {}; }});
const events = [];
mc.addEventListener('resourceupdated', (ev) => { if (ev.detail.uri === uri) events.push(ev.detail.value); });
// A handler that is a Proxy throwing on every trap (apply included), and an
// ordinary one after it.
const other = [];
mc.subscribeResource(uri, allTraps('handler', true));
mc.subscribeResource(uri, (v) => other.push(v));
const out = {onChangeThrew: [], outcomes: {}, reads: [], proxyHandlerErrors: 0};
for (const [label, make] of values) {
  H.clearLog();
  const before = events.length;
  current = make;
  try { onChange(); } catch (e) { out.onChangeThrew.push(label + ': ' + e); }
  await H.settle();
  const dispatched = events.length - before, reported = errorsMentioning('get() of "' + uri + '"');
  out.outcomes[label] = dispatched === 1 && reported === 0 ? 'dispatched' : dispatched === 0 && reported === 1 ? 'reported' : dispatched + ' dispatched, ' + reported + ' reported';
  out.proxyHandlerErrors += errorsMentioning('subscribeResource handler of "' + uri + '" threw');
  try { await mc.readResource(uri); out.reads.push(label + ': resolved'); } catch (e) { out.reads.push(label + ': rejected'); }
}
out.tail = events.slice(-2);
out.otherHandler = other.length;
// A subscribe and a get that are Proxies throwing on every trap.
H.clearLog();
let threw = null;
try { mc.registerResource({uri: 'state://fault/proxy-fns', name: 'p', get: allTraps('get', true), subscribe: allTraps('subscribe', true)}); } catch (e) { threw = String(e); }
out.subscribeErrors = threw || errorsMentioning('subscribe() of "state://fault/proxy-fns" threw');
out.subscribable = mc.getResources().find((x) => x.uri === 'state://fault/proxy-fns').subscribable;
try { await mc.readResource('state://fault/proxy-fns'); out.reads.push('Proxy get: resolved'); } catch (e) { out.reads.push('Proxy get: rejected'); }
return out;
`, &got)
			if len(got.OnChangeThrew) > 0 {
				t.Errorf("onChange threw: %q", got.OnChangeThrew)
			}
			// Values without a comparison key fail open (dispatched,
			// wasm/CONTRACT.md §3.1.4); values that cannot even be awaited may
			// instead be reported like a throwing get. Each push has exactly
			// one outcome.
			either := "dispatched or reported"
			for label, want := range map[string]string{
				"throwing getter": "dispatched", "throwing toJSON": "dispatched",
				"Proxy": either, "callable Proxy": either, "revoked Proxy": either, "thenable whose then throws": either,
				"A": "dispatched", "A again": "0 dispatched, 0 reported", "B": "dispatched",
			} {
				g := got.Outcomes[label]
				if g != want && !(want == either && (g == "dispatched" || g == "reported")) {
					t.Errorf("push of a %s: %s, want %s", label, g, want)
				}
			}
			if d := jsonDiff(mustJSON(got.Tail), `["A", "B"]`); d != "" {
				t.Errorf("after the hostile values, pushes A, A, B dispatched:\n%s", d)
			}
			if got.OtherHandler == 0 || got.ProxyHandlerErrors != got.OtherHandler {
				t.Errorf("a handler Proxy throwing on every trap: %d errors reported, the next handler called %d times (want equal, > 0)", got.ProxyHandlerErrors, got.OtherHandler)
			}
			if d := jsonDiff(mustJSON(got.SubscribeErrors), `1`); d != "" {
				t.Errorf("a subscribe Proxy throwing on every trap: want one console.error naming the uri, got %v", got.SubscribeErrors)
			}
			if d := jsonDiff(mustJSON(got.Subscribable), `false`); d != "" {
				t.Errorf("a resource whose subscribe threw: subscribable %v, want false", got.Subscribable)
			}
			t.Logf("pushes: %v\nreads: %q", got.Outcomes, got.Reads)
		})
	})
}

// TestHugeAndEndless: inputs too large or that never end.
func TestHugeAndEndless(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		t.Run("10 MB strings", func(t *testing.T) {
			var got map[string]any
			faultRun(t, `
const big = 'state://big/' + 'x'.repeat(10 << 20);
const bigName = 'n'.repeat(10 << 20);
const out = {};
const t0 = performance.now();
let onChange;
const unregister = mc.registerResource({uri: big, name: bigName, title: bigName, get: () => ({ok: true}), subscribe: (cb) => { onChange = cb; return () => {}; }});
const listed = mc.getResources().find((d) => d.uri === big);
out.listed = !!listed && listed.name === bigName && listed.title === bigName;
out.read = (await mc.readResource(big)).ok;
const handler = [];
mc.subscribeResource(big, (v, u) => handler.push(u === big));
onChange();
out.handler = handler;
const missing = big + 'y';
try { await mc.readResource(missing); out.readMissing = 'resolved'; } catch (e) { out.readMissing = e.name + (e.message.includes(missing) ? ' naming the uri' : ''); }
try { mc.subscribeResource(missing, () => {}); out.subscribeMissing = 'subscribed'; } catch (e) { out.subscribeMissing = e.name; }
try { mc.registerResource({uri: 'x'.repeat(10 << 20), name: 'n', get: () => 1}); out.noScheme = 'registered'; } catch (e) { out.noScheme = e.name + (e.message.includes('"uri"') ? ' naming "uri"' : ''); }
unregister();
out.gone = !mc.getResources().some((d) => d.uri === big);
out.seconds = (performance.now() - t0) / 1000;
return out;
`, &got)
			t.Logf("10 MB uri, name and title round trip in %.2f s", got["seconds"])
			delete(got, "seconds")
			if d := jsonDiff(mustJSON(got), `{"listed": true, "read": true, "handler": [true], "readMissing": "NotFoundError naming the uri",
				"subscribeMissing": "NotFoundError", "noScheme": "TypeError naming \"uri\"", "gone": true}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("getters that never settle", func(t *testing.T) {
			var got map[string]any
			faultRun(t, `
const start = I.stats();
let mode = 'never', onChange;
const uri = 'state://fault/never';
const unregister = mc.registerResource({uri, name: 'never', get: () => mode === 'never' ? new Promise(() => {}) : mode, subscribe: (cb) => { onChange = cb; return () => {}; }});
const events = [];
mc.addEventListener('resourceupdated', (ev) => { if (ev.detail.uri === uri) events.push(ev.detail.value); });
for (let i = 0; i < 1000; i++) onChange();
const reads = [];
for (let i = 0; i < 100; i++) reads.push(mc.readResource(uri));
await H.settle();
const out = {eventsWhilePending: events.length};
mode = 'now';
onChange();
out.eventsAfter = events.slice();
out.read = await mc.readResource(uri);
unregister();
await H.settle();
const end = I.stats();
out.heldValues = end.heldValues - start.heldValues;
out.registrations = end.registrations - start.registrations;
return out;
`, &got)
			if d := jsonDiff(mustJSON(got), `{"eventsWhilePending": 0, "eventsAfter": ["now"], "read": "now", "heldValues": 0, "registrations": 0}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("subscribe calling onChange 10,000 times synchronously", func(t *testing.T) {
			var got map[string]any
			faultRun(t, `
const start = I.stats();
const out = {};
let n = 0;
const events = [];
mc.addEventListener('resourceupdated', (ev) => { if (ev.detail.uri === 'state://fault/eager') events.push(ev.detail.value); });
let threw = null;
try {
  mc.registerResource({uri: 'state://fault/eager', name: 'e', get: () => n,
    subscribe: (onChange) => { for (let i = 0; i < 10000; i++) { n++; onChange(); } return () => {}; }});
} catch (e) { threw = String(e); }
out.threw = threw;
out.events = events.length;
out.inOrder = events.every((v, i) => v === i + 1);
// The same with an async get: 10,000 pending results, settled newest first:
// only the newest is dispatched.
const deferreds = [];
const asyncEvents = [];
mc.addEventListener('resourceupdated', (ev) => { if (ev.detail.uri === 'state://fault/eager-async') asyncEvents.push(ev.detail.value); });
mc.registerResource({uri: 'state://fault/eager-async', name: 'e', get: () => { const d = H.deferred(); deferreds.push(d); return d.promise; },
  subscribe: (onChange) => { for (let i = 0; i < 10000; i++) onChange(); return () => {}; }});
for (let i = deferreds.length - 1; i >= 0; i--) deferreds[i].resolve(i);
await H.settle();
out.asyncEvents = asyncEvents;
out.listed = mc.getResources().filter((d) => d.uri.startsWith('state://fault/eager')).length;
out.heldValues = I.stats().heldValues - start.heldValues;
return out;
`, &got)
			if d := jsonDiff(mustJSON(got), `{"threw": null, "events": 10000, "inOrder": true, "asyncEvents": [9999], "listed": 2, "heldValues": 0}`); d != "" {
				t.Error(d)
			}
		})
		t.Run("get re-entering onChange without end", func(t *testing.T) {
			// Each round recurses until the JavaScript stack is exhausted
			// (or until the module refuses to nest deeper). The RangeError
			// (or the refusal) must be reported with console.error, and the
			// runtime must survive any number of rounds.
			var got struct {
				Rounds []struct {
					Threw    string
					Errors   int
					Reported bool
					Exited   bool
					StatsErr string
				}
				After struct {
					Events []int `json:"events"`
					Exited bool  `json:"exited"`
				}
			}
			faultRun(t, `
const uri = 'state://fault/endless';
let onChange, calls = 0, reenter = true;
mc.registerResource({uri, name: 'endless', get: () => { calls++; if (reenter) onChange(); return calls; }, subscribe: (cb) => { onChange = cb; return () => {}; }});
const events = [];
mc.addEventListener('resourceupdated', (ev) => { if (ev.detail.uri === uri) events.push(ev.detail.value); });
const rounds = [];
for (let k = 0; k < 10; k++) {
  H.clearLog();
  const r = {threw: '', errors: 0, reported: false, exited: false, statsErr: ''};
  try { onChange(); } catch (e) { r.threw = String(e); }
  const errors = H.log.filter((l) => l.level === 'error');
  r.errors = errors.length;
  r.reported = errors.some((l) => /RangeError|call stack/i.test(l.args.join(' ')) || l.args.join(' ').includes(uri));
  r.exited = I.goExited;
  try { I.stats(); } catch (e) { r.statsErr = String(e); }
  rounds.push(r);
  if (r.exited || r.statsErr) break;
}
reenter = false;
events.length = 0;
calls = 100;
try { onChange(); } catch (_) {}
return {rounds, after: {events: events.slice(), exited: I.goExited}};
`, &got)
			for i, r := range got.Rounds {
				if r.Threw != "" || r.Exited || r.StatsErr != "" || !r.Reported {
					t.Errorf("round %d: onChange threw %q, Go exited: %v, stats() threw %q, a RangeError or the uri reported: %v (%d console errors)",
						i+1, r.Threw, r.Exited, r.StatsErr, r.Reported, r.Errors)
				}
			}
			if len(got.Rounds) != 10 {
				t.Errorf("stopped after %d of 10 rounds", len(got.Rounds))
			}
			if d := jsonDiff(mustJSON(got.After), `{"events": [101], "exited": false}`); d != "" {
				t.Errorf("afterwards, a push of the same resource:\n%s", d)
			}
		})
		t.Run("uris that differ only in lone surrogates", func(t *testing.T) {
			// A uri is a JavaScript string: two strings are two resources,
			// even when they are not well-formed UTF-16 and TextEncoder
			// would encode both as U+FFFD.
			var got map[string]any
			faultRun(t, `
let teardowns = 0;
mc.registerResource({uri: 'state://lone/\ud800', name: 'high', get: () => 'high', subscribe: () => () => { teardowns++; }});
mc.registerResource({uri: 'state://lone/\udfff', name: 'low', get: () => 'low'});
const out = {teardowns};
out.listed = mc.getResources().filter((d) => d.uri.startsWith('state://lone/')).map((d) => d.name);
out.high = await mc.readResource('state://lone/\ud800').catch((e) => e.name);
out.replacementChar = await mc.readResource('state://lone/\ufffd').catch((e) => e.name);
mc.registerResource({uriTemplate: 'state://lone-tpl/{x}', name: 'tpl', get: ({x}) => x});
const param = await mc.readResource('state://lone-tpl/a\ud800b').catch((e) => e.name);
out.param = param === 'a\ud800b' ? 'exact' : escape(param);
return out;
`, &got)
			if d := jsonDiff(mustJSON(got), `{"teardowns": 0, "listed": ["high", "low"], "high": "high", "replacementChar": "NotFoundError", "param": "exact"}`); d != "" {
				t.Error(d)
			}
		})
	})
}

// TestFaultCSP adds to TestLoadFailures and TestCSPWithWasmUnsafeEval
// (wasm/CONTRACT.md §2): the error a strict policy gives says where to add
// what, and a page with 'wasm-unsafe-eval' in script-src causes no CSP
// violation at all (no eval, inline script or blocked fetch hidden behind a
// working page). That no violation came is proven with a sentinel: the page
// then violates the policy itself (a script from another origin), and violation
// events are dispatched in order, so one of the module's would have come before
// the page's own.
func TestFaultCSP(t *testing.T) {
	wasmOnly(t, func(t *testing.T) {
		// cspPage opens path with a securitypolicyviolation recorder that
		// DevTools installs before any script of the page runs. The page
		// gets waitViolation(s): a Promise of the violations so far once
		// one of them mentions s (or of those there are after 15 s).
		cspPage := func(t *testing.T, path string) *page {
			tab := browsertest.NewTab(t)
			err := chromedp.Run(tab.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				_, err := cdppage.AddScriptToEvaluateOnNewDocument(`window.__violations = [];
const seen = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(e.violatedDirective + ' ' + e.blockedURI);
  for (const f of seen.splice(0)) f();
});
window.waitViolation = (s) => new Promise((resolve) => {
  const timer = setTimeout(() => resolve(window.__violations.slice()), 15000);
  const check = () => {
    if (window.__violations.some((v) => v.includes(s))) { clearTimeout(timer); resolve(window.__violations.slice()); } else seen.push(check);
  };
  check();
});`).Do(ctx)
				return err
			}))
			if err != nil {
				t.Fatal(err)
			}
			tab.Navigate(browsertest.URL(t, path+"?impl=wasm"))
			return &page{Tab: tab, impl: "wasm"}
		}
		t.Run("strict policy", func(t *testing.T) {
			p := cspPage(t, "/csp-strict.html")
			var got struct {
				Message    string
				Violations []string
			}
			p.runRaw(`let message = 'resolved';
try { await document.modelContext.ready; } catch (e) { message = e.message; }
// The violation event is queued as a task of its own: wait for it.
return {message, violations: await window.waitViolation('')};`, &got)
			for _, s := range []string{"Content-Security-Policy", "add 'wasm-unsafe-eval'", "script-src"} {
				if !strings.Contains(got.Message, s) {
					t.Errorf("ready rejected with %q; want it to mention %q", got.Message, s)
				}
			}
			if len(got.Violations) == 0 {
				t.Error("no securitypolicyviolation on the strict page: the check of the other page would see none either")
			}
			t.Logf("violations on the strict page: %q", got.Violations)
		})
		t.Run("policy with wasm-unsafe-eval", func(t *testing.T) {
			p := cspPage(t, "/csp-wasm.html")
			var got struct {
				Read       string
				Violations []string
			}
			const sentinel = "http://127.0.0.1:1/csp-sentinel.js"
			p.run(`mc.registerResource({uri: 'state://csp', name: 'c', get: () => 'ok'});
const read = await mc.readResource('state://csp');
// The sentinel: a violation of the page's own, after everything the module did.
const s = document.createElement('script');
s.src = `+jsString(sentinel)+`;
document.head.append(s);
return {read, violations: await window.waitViolation(`+jsString(sentinel)+`)};`, &got)
			if got.Read != "ok" {
				t.Errorf("read %q, want \"ok\"", got.Read)
			}
			switch {
			case len(got.Violations) == 0 || !strings.Contains(got.Violations[len(got.Violations)-1], sentinel):
				t.Errorf("the page's own script from another origin caused no securitypolicyviolation (got %q): the sentinel never came", got.Violations)
			case len(got.Violations) > 1:
				t.Errorf("CSP violations on a page whose policy has 'wasm-unsafe-eval', before the page's own: %q", got.Violations[:len(got.Violations)-1])
			}
		})
	})
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
