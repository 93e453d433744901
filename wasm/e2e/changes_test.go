package e2e

import (
	"fmt"
	"testing"
)

// wasm/CONTRACT.md §11: the page's revision, changesSince, and patches for
// subscriptions. The plain-JS reference implements §1–§10 only, so these run
// against the module alone.

// applyJS applies an RFC 6902 patch to a copy of doc, written apart from the
// module's differ (add, remove, replace, move, copy, test), for the scenarios
// to check that the patches they are handed rebuild the value.
const applyJS = `
const applyPatch = (doc, ops) => {
  const unescape = (s) => s.replace(/~1/g, "/").replace(/~0/g, "~");
  const parts = (p) => p === "" ? [] : p.slice(1).split("/").map(unescape);
  const clone = (v) => JSON.parse(JSON.stringify(v));
  let root = clone(doc);
  const get = (p) => parts(p).reduce((o, k) => o[Array.isArray(o) && k === "-" ? o.length : k], root);
  const put = (p, v, insert) => {
    const ps = parts(p);
    if (ps.length === 0) { root = v; return; }
    const last = ps.pop(), o = ps.reduce((o, k) => o[k], root);
    if (Array.isArray(o)) {
      const i = last === "-" ? o.length : Number(last);
      if (insert) o.splice(i, 0, v); else o[i] = v;
    } else o[last] = v;
  };
  const del = (p) => {
    const ps = parts(p), last = ps.pop(), o = ps.reduce((o, k) => o[k], root);
    if (Array.isArray(o)) o.splice(Number(last), 1); else delete o[last];
  };
  for (const op of ops) {
    switch (op.op) {
      case "add": put(op.path, clone(op.value), true); break;
      case "remove": del(op.path); break;
      case "replace": put(op.path, clone(op.value), false); break;
      case "move": { const v = get(op.from); del(op.from); put(op.path, v, true); break; }
      case "copy": put(op.path, clone(get(op.from)), true); break;
      case "test": if (JSON.stringify(get(op.path)) !== JSON.stringify(op.value)) throw new Error("test failed at " + op.path); break;
      default: throw new Error("unknown op " + op.op);
    }
  }
  return root;
};
`

// changesPage opens a contract page of the module; each scenario gets its own tab.
func runChanges(t *testing.T, scenarios []scenario) {
	t.Helper()
	requireImpl(t, "wasm")
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			open(t, "wasm", "", sc.query).expect(applyJS+sc.js, sc.want)
		})
	}
}

func TestRevision(t *testing.T) {
	requireImpl(t, "wasm")
	t.Run("0 before the module runs, then one step per replayed registration", func(t *testing.T) {
		p := open(t, "wasm", "", "")
		var got map[string]any
		p.runRaw(lines(
			`const mc = document.modelContext;`,
			`const before = mc.revision;`,
			`mc.registerResource({uri: 'state://a', name: 'a', get: () => 1});`,
			`mc.registerResource({uri: 'state://b', name: 'b', get: () => 2});`,
			`const queued = mc.revision;`,
			`await mc.ready;`,
			`return {before, queued, after: mc.revision, type: typeof mc.revision};`,
		), &got)
		if fmt.Sprint(got) != "map[after:2 before:0 queued:0 type:number]" {
			t.Errorf("got %v", got)
		}
	})
	runChanges(t, []scenario{
		{
			name: "one step per resourceupdated and resourcelistchanged, heard or not; a suppressed push is none",
			js: lines(
				`let v = {n: 1}, ping;`,
				`const r0 = mc.revision;`,
				`mc.registerResource({uri: 'state://x', name: 'x', get: () => v, subscribe: (f) => (ping = f, () => {})});`,
				`const r1 = mc.revision;`,
				`ping();`, // unheard: nobody listens yet
				`const r2 = mc.revision;`,
				`ping();`, // the same value: suppressed
				`const r3 = mc.revision;`,
				`const seen = [];`,
				`mc.addEventListener('resourceupdated', (e) => seen.push(['updated', e.detail.revision, mc.revision]));`,
				`mc.addEventListener('resourcelistchanged', (e) => seen.push(['list', e.detail.revision, mc.revision]));`,
				`v = {n: 2}; ping();`,
				`mc.registerResource({uri: 'state://y', name: 'y', get: () => 1});`,
				`mc.registerResource({uriTemplate: 'app://o/{id}', name: 'o', get: () => 1});`,
				`return {steps: [r1 - r0, r2 - r1, r3 - r2], seen: seen.map(([k, d, now]) => [k, d - r0, now - r0])};`,
			),
			want: `{"steps": [1, 1, 0], "seen": [["updated", 3, 3], ["list", 4, 4], ["list", 5, 5]]}`,
		},
	})
}

func TestChangesSince(t *testing.T) {
	runChanges(t, []scenario{
		{
			name: "updated, added and removed since a revision, in list order, calling no get",
			js: lines(
				`let gets = 0; const pings = {};`,
				`const reg = (n, v) => mc.registerResource({uri: 'state://' + n, name: n, get: () => (gets++, v()),`,
				`  subscribe: (f) => (pings[n] = f, () => {})});`,
				`let a = 1, b = 1, c = 1;`,
				`const ua = reg('a', () => a), ub = reg('b', () => b), uc = reg('c', () => c);`,
				`const since = mc.revision; gets = 0;`,
				`c = 2; pings.c(); a = 2; pings.a();`,
				`ub();`,
				`reg('d', () => 1);`,
				`const gone = reg('e', () => 1); gone();`,                            // added and removed after since: in neither
				`mc.registerResource({uri: 'state://a', name: 'a2', get: () => 3});`, // a replacement counts as updated
				`const getsBefore = gets;`,
				`const ch = await mc.changesSince(since);`,
				`const none = await mc.changesSince(mc.revision);`,
				`return {ch: {...ch, revision: ch.revision === mc.revision}, none: {...none, revision: none.revision === mc.revision}, getsInChanges: gets - getsBefore};`,
			),
			want: `{"ch": {"revision": true, "updated": ["state://a", "state://c"], "added": ["state://d"], "removed": ["state://b"]},
				"none": {"revision": true, "updated": [], "added": [], "removed": []}, "getsInChanges": 0}`,
		},
		{
			name: "from 0: everything listed is added",
			js: lines(
				`mc.registerResource({uri: 'state://a', name: 'a', get: () => 1});`,
				`mc.registerResource({uri: 'state://b', name: 'b', get: () => 1});`,
				`const ch = await mc.changesSince(0);`,
				`return [ch.added, ch.updated, ch.removed];`,
			),
			want: `[["state://a", "state://b"], [], []]`,
		},
		{
			name: "a revision older than the module remembers answers reset",
			js: lines(
				`mc.registerResource({uri: 'state://keep', name: 'k', get: () => 1});`,
				`const old = mc.revision;`,
				`for (let i = 0; i < 1100; i++) mc.registerResource({uri: 'state://t' + i, name: 't', get: () => 1})();`,
				`const us = []; for (let i = 0; i < 1000; i++) us.push(mc.registerResource({uri: 'state://u' + i, name: 'u', get: () => 1}));`,
				`const recent = mc.revision;`,
				`for (const u of us) u();`, // 1,000 list changes: still remembered
				`const a = await mc.changesSince(old), b = await mc.changesSince(recent);`,
				`return {oldReset: a.reset === true && a.revision === mc.revision && !('added' in a), recent: b.reset === undefined && b.removed.length};`,
			),
			want: `{"oldReset": true, "recent": 1000}`,
		},
		{
			name: "bad revisions are a TypeError or RangeError naming revision",
			js: lines(
				`const errs = [];`,
				`for (const r of ['1', 1.5, NaN, null, undefined, -1, mc.revision + 1]) {`,
				`  try { await mc.changesSince(r); errs.push('no error'); } catch (e) { errs.push(e.name + ':' + e.message.includes('"revision"')); }`,
				`}`,
				`return errs;`,
			),
			want: `["TypeError:true", "TypeError:true", "TypeError:true", "TypeError:true", "TypeError:true", "RangeError:true", "RangeError:true"]`,
		},
	})
}

func TestSubscribePatches(t *testing.T) {
	runChanges(t, []scenario{
		{
			name: "each call has the revision and a patch from the value handed before",
			js: lines(
				`const pad = 'x'.repeat(200); let v = {items: [{sku: 'a', qty: 1}], note: '', pad}, ping;`,
				`mc.registerResource({uri: 'state://cart', name: 'cart', get: () => v, subscribe: (f) => (ping = f, () => {})});`,
				`ping();`, // dispatched before subscribing: the first patch starts from it
				`const calls = []; let mirror = JSON.parse(JSON.stringify(v));`,
				`mc.subscribeResource('state://cart', (value, uri, info) => {`,
				`  mirror = applyPatch(mirror, info.patch);`,
				`  calls.push({uri, same: JSON.stringify(mirror) === JSON.stringify(value), rev: info.revision === mc.revision, ops: info.patch.length, shorter: JSON.stringify(info.patch).length < JSON.stringify(value).length});`,
				`}, {patch: true});`,
				`v = {items: [{sku: 'a', qty: 2}], note: '', pad}; ping();`,
				`v = {items: [{sku: 'a', qty: 2}, {sku: 'b', qty: 1}], note: '', pad}; ping();`,
				`v = {items: [{sku: 'b', qty: 1}], note: 'ring twice', pad}; ping();`,
				`return calls;`,
			),
			want: `[{"uri": "state://cart", "same": true, "rev": true, "ops": 1, "shorter": true},
				{"uri": "state://cart", "same": true, "rev": true, "ops": 1, "shorter": true},
				{"uri": "state://cart", "same": true, "rev": true, "ops": 2, "shorter": true}]`,
		},
		{
			name: "null with no previous value, for values that are not JSON data, and when longer than the value",
			js: lines(
				`const pad = 'x'.repeat(100); let v = {a: 1, pad}, ping;`,
				`mc.registerResource({uri: 'state://x', name: 'x', get: () => v, subscribe: (f) => (ping = f, () => {})});`,
				`const got = [];`,
				`mc.subscribeResource('state://x', (value, uri, info) => got.push(info.patch === null ? null : info.patch.length), {patch: true});`,
				`v = {a: 2, pad}; ping();`,            // no value dispatched before it subscribed: null
				`v = {a: 3, pad}; ping();`,            // a patch
				`v = new Map([['a', 4]]); ping();`,    // a Map: null
				`v = {a: 5, pad}; ping();`,            // after a Map: null
				`v = new Uint8Array([1, 2]); ping();`, // binary: null
				`v = {a: 6, pad}; ping();`,
				`v = {a: 7, pad}; ping();`,
				`v = 1; ping();`, // a replace longer than the value: null
				`return got;`,
			),
			want: `[null, 1, null, null, null, null, 1, null]`,
		},
		{
			name: "plain subscriptions get two arguments; bad options are a TypeError naming them",
			js: lines(
				`let ping; mc.registerResource({uri: 'state://x', name: 'x', get: () => ({t: Date.now()}), subscribe: (f) => (ping = f, () => {})});`,
				`let args = -1; mc.subscribeResource('state://x', function () { args = arguments.length; });`,
				`ping();`,
				`const errs = [];`,
				`for (const o of [1, 'patch', {patch: 1}, {patch: 'yes'}]) {`,
				`  try { mc.subscribeResource('state://x', () => {}, o); errs.push('none'); } catch (e) { errs.push(e.name + ' ' + e.message); }`,
				`}`,
				`return {args, errs};`,
			),
			want: `{"args": 2, "errs": [
				"TypeError modelcontext: subscribeResource: \"options\" must be an object, got number",
				"TypeError modelcontext: subscribeResource: \"options\" must be an object, got string",
				"TypeError modelcontext: subscribeResource: \"options.patch\" must be a boolean, got number",
				"TypeError modelcontext: subscribeResource: \"options.patch\" must be a boolean, got string"]}`,
		},
		{
			name: "10,000 subscribers with patches each rebuild the value",
			js: lines(
				`const pad = 'x'.repeat(100); let v = {list: [1, 2, 3], n: 0, pad}, ping;`,
				`mc.registerResource({uri: 'state://x', name: 'x', get: () => v, subscribe: (f) => (ping = f, () => {})});`,
				`ping();`,
				`const mirrors = []; let wrong = 0, calls = 0;`,
				`for (let i = 0; i < 10000; i++) {`,
				`  mirrors.push(JSON.parse(JSON.stringify(v)));`,
				`  mc.subscribeResource('state://x', (value, uri, info) => { calls++; mirrors[i] = applyPatch(mirrors[i], info.patch);`,
				`    if (JSON.stringify(mirrors[i]) !== JSON.stringify(value)) wrong++; }, {patch: true});`,
				`}`,
				`for (let k = 1; k <= 3; k++) { v = {list: [1, 2, 3, k], n: k, pad}; ping(); }`,
				`return {calls, wrong};`,
			),
			want: `{"calls": 30000, "wrong": 0}`,
		},
		{
			name: "a handler that mutates its patch changes nothing for the next",
			js: lines(
				`const pad = 'x'.repeat(100); let v = {a: {b: 1}, pad}, ping;`,
				`mc.registerResource({uri: 'state://x', name: 'x', get: () => v, subscribe: (f) => (ping = f, () => {})});`,
				`ping();`,
				`mc.subscribeResource('state://x', (value, uri, info) => { for (const op of info.patch) if (op.value) op.value.hacked = true; }, {patch: true});`,
				`let mirror = JSON.parse(JSON.stringify(v)); const ok = [];`,
				`mc.subscribeResource('state://x', (value, uri, info) => { mirror = applyPatch(mirror, info.patch); ok.push(JSON.stringify(mirror) === JSON.stringify(value)); }, {patch: true});`,
				`v = {a: {b: 2, c: {d: 1}}, pad}; ping();`,
				`v = {a: {b: 2, c: {d: 2}}, pad}; ping();`,
				`return ok;`,
			),
			want: `[true, true]`,
		},
	})
}

// A connected frame's resources count as the page's (§6.1): changesSince
// names them added when the frame lists them, updated when the frame pushes,
// and removed when the frame leaves.
func TestChangesSinceFrames(t *testing.T) {
	tab, childOrigin := framePage(t)
	var got map[string]any
	frameRun(tab, childOrigin, `
mc.registerResource({uri: 'page://own', name: 'own', get: () => 1});
await mc.ready; // the registration is replayed at boot: a step of its own
const r0 = mc.revision;
const iframe = await FR.frame(child('hand'));
mc.connectFrame(iframe, {origin: CHILD});
await FR.until(() => FR.uris().includes('frame://ok'), 'the frame listed');
const added = await mc.changesSince(r0);
const r1 = mc.revision;
await FR.command(iframe, 'change');
await FR.until(() => FR.events.some((e) => e.updated === 'frame://ok'), 'the push');
const updated = await mc.changesSince(r1);
const r2 = mc.revision;
iframe.remove();
await FR.until(() => !FR.uris().includes('frame://ok'), 'the frame left');
const removed = await mc.changesSince(r2);
return {added: added.added.includes('frame://ok') && !added.added.includes('page://own'), updated: updated.updated, removed: removed.removed.includes('frame://ok')};
`, &got)
	if fmt.Sprint(got) != "map[added:true removed:true updated:[frame://ok]]" {
		t.Errorf("got %v\n%s", got, tab.ConsoleText())
	}
}
