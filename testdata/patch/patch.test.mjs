// patch.test.mjs: the property test of js/loader/runtime/patch.js (make
// test-patch). Random pairs of JSON values, from a seeded generator, are
// diffed by jsonPatch and its patch applied to the first by fast-json-patch,
// an implementation of its own: the result must equal the second, and the
// patch be no longer than the second value (plus a replace's envelope).
// Then targeted cases (a cart), and the drift corpus: corpus.json's patches,
// which Go's wasm/internal/jsonpatch must produce too, are the JavaScript's.
//
//   node patch.test.mjs           # SEED=n to vary the random pairs
//   node patch.test.mjs -update   # rewrite corpus.json from the JavaScript
import fs from "node:fs";
import vm from "node:vm";
import jsonpatchLib from "fast-json-patch";

const { applyPatch, deepClone, compare } = jsonpatchLib;
const here = new URL(".", import.meta.url);
// patch.js is an ES module that imports nothing: its exports' keywords
// dropped, it runs as a script in a context of its own.
const source = fs.readFileSync(new URL("../../js/loader/runtime/patch.js", here), "utf8").replace(/^export /gm, "");
const CORPUS = new URL("corpus.json", here);
const PAIRS = 20000, CORPUS_RANDOM = 220, CORPUS_SEED = 6902;
const patchIdKeysInOrder = JSON.parse(source.match(/const patchIdKeys = (\[[^\]]*\])/)[1]); // patch.js's own

/** load runs the differ's source in a context of its own and returns its jsonPatch. */
function load(src) {
  const ctx = {};
  vm.runInNewContext(src, ctx, { filename: "patch.js" });
  return ctx.jsonPatch;
}
const jsonPatch = load(source);
// patch.js's own applier (jsonPatchApply, which keeps the runtime's shadows
// of pushed values), held to fast-json-patch's results below.
const jsonPatchApply = (() => {
  const ctx = {};
  vm.runInNewContext(source, ctx, { filename: "patch.js" });
  return ctx.jsonPatchApply;
})();
// The same differ without pairing by id: what patches cost without it.
const byIndex = load(source.replace(/const patchIdKeys = \[[^\]]*\]/, "const patchIdKeys = []"));

let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) return passed++, true;
  failed++;
  if (failed <= 20) console.log(`FAIL ${what}${detail ? "\n  " + detail : ""}`);
  return false;
}

// mulberry32: a small seeded PRNG, so that a failure can be run again.
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Keys that need escaping in a pointer (/, ~, ~0, ~1), the empty key, ones
// that look like indices, ones Object.prototype has, and the id-like ones.
const KEYS = ["a", "b", "c", "id", "sku", "key", "uri", "name", "qty", "price", "x/y", "~", "~1", "~0", "a~b/c", "/", "",
  "0", "1", "10", "-", "ü", "日本", "😀", "\u{E000}", "constructor", "toString", "hasOwnProperty", "with space", "\"q\""];
const STRINGS = ["", "a", "b", "hello", "ünïcödé", "日本語", "😀🎉", "\u{E000}x", "line\nbreak", "tab\t", "quote\"", "back\\slash",
  "\u0001ctl", "\u2028", "~1", "a/b", "<&>", "null", "0"];
const NUMBERS = [0, 1, -1, 2, 3, 42, 0.5, -2.25, 0.1 + 0.2, 1e21, 1.5e-7, 123456789012, -0.000001, 1e300];

function generator(rand) {
  const int = (n) => Math.floor(rand() * n);
  const pick = (xs) => xs[int(xs.length)];
  const key = () => (rand() < 0.85 ? pick(KEYS) : pick(STRINGS) + int(100));
  const primitive = () => {
    switch (int(5)) {
      case 0: return pick(STRINGS);
      case 1: return pick(NUMBERS);
      case 2: return rand() < 0.5;
      case 3: return null;
      default: return int(1000);
    }
  };
  const line = (i) => {
    const o = { id: "line-" + i, sku: "SKU" + (1000 + i), name: pick(["Tea", "Mug", "Pot", "Cup"]) + " " + i, qty: 1 + int(5), price: 4.5 + i };
    if (rand() < 0.3) o.options = { colour: pick(["red", "blue"]), gift: rand() < 0.5 };
    return o;
  };
  const cart = () => Array.from({ length: int(8) }, (_, i) => line(i * 7 + int(7)));
  // value is a random value; a container when top (the root of a pair).
  const value = (depth, top = false) => {
    const r = top ? 0.35 + rand() * 0.65 : rand();
    if (depth <= 0 || r < 0.35) return primitive();
    if (r < 0.45) return cart();
    if (r < 0.7) return Array.from({ length: int(6) }, () => value(depth - 1));
    const o = {};
    for (let n = int(6); n > 0; n--) o[key()] = value(depth - 1);
    return o;
  };
  return { rand, int, pick, key, primitive, value, cart, line };
}

// mutate returns a changed copy of v (a few edits, sometimes none, sometimes
// a value of another type); v itself is left as it was.
function mutate(g, v, depth) {
  const { rand, int, pick } = g;
  const r = rand();
  if (r < 0.08) return g.value(depth);
  if (r < 0.15) return structuredClone(v);
  if (Array.isArray(v)) return mutateArray(g, v, depth);
  if (typeof v === "object" && v !== null) {
    const o = structuredClone(v);
    const keys = Object.keys(o);
    for (let n = 1 + int(3); n > 0; n--) {
      const e = int(4);
      if (e === 0 && keys.length) delete o[pick(keys)];
      else if (e === 1) o[g.key()] = g.value(depth - 1);
      else if (keys.length) {
        const k = pick(keys);
        if (Object.hasOwn(o, k)) o[k] = mutate(g, o[k], depth - 1);
      }
    }
    return o;
  }
  switch (typeof v) {
    case "number": return rand() < 0.5 ? v + 1 : pick(NUMBERS);
    case "string": return rand() < 0.5 ? v + "!" : pick(STRINGS);
    case "boolean": return !v;
    default: return g.primitive();
  }
}

function mutateArray(g, v, depth) {
  const { rand, int } = g;
  const x = structuredClone(v);
  for (let n = 1 + int(3); n > 0; n--) {
    const i = int(x.length + 1);
    switch (int(8)) {
      case 0: x.splice(i, 0, rand() < 0.5 && x.length ? structuredClone(x[int(x.length)]) : g.value(depth - 1)); break;
      case 1: x.splice(i, 0, g.line(100 + int(50))); break;
      case 2: if (x.length) x.splice(int(x.length), 1 + int(2)); break;
      case 3: if (x.length > 1) x.splice(int(x.length), 0, ...x.splice(int(x.length), 1)); break; // move one
      case 4: x.sort(() => rand() - 0.5); break; // reorder (a biased shuffle is enough)
      case 5: if (x.length) x.reverse(); break;
      case 6: x.push(g.value(depth - 1)); break;
      default: if (x.length) { const j = int(x.length); x[j] = mutate(g, x[j], depth - 1); }
    }
  }
  return x;
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

// verify checks one pair: the patch applies (fast-json-patch, validating),
// gives b, leaves a alone, and is not much longer than b.
function verify(a, b, what, ops = jsonPatch(a, b)) {
  const before = JSON.stringify(a);
  let got;
  try {
    got = applyPatch(deepClone(a), ops, true, false).newDocument;
  } catch (e) {
    return check(false, `${what}: fast-json-patch refused the patch: ${e.message}`, `a=${before}\n  b=${JSON.stringify(b)}\n  ops=${JSON.stringify(ops)}`);
  }
  const detail = `a=${before}\n  b=${JSON.stringify(b)}\n  ops=${JSON.stringify(ops)}\n  got=${JSON.stringify(got)}`;
  const own = jsonPatchApply(deepClone(a), deepClone(ops));
  return check(deepEqual(got, b), `${what}: the patch does not give b`, detail) &&
    check(deepEqual(own, b), `${what}: jsonPatchApply does not give b`, detail + `\n  own=${JSON.stringify(own)}`) &&
    check(JSON.stringify(a) === before, `${what}: jsonPatch changed a`, detail) &&
    check(JSON.stringify(ops).length <= JSON.stringify(b).length + 40, `${what}: the patch is longer than b`, detail) &&
    check(!deepEqual(a, b) || ops.length === 0, `${what}: equal values have a patch`, detail);
}

function randomPairs(seed) {
  const g = generator(prng(seed));
  const kinds = { none: 0, root: 0, inside: 0 };
  for (let i = 0; i < PAIRS; i++) {
    const a = g.value(1 + g.int(5), g.rand() < 0.9);
    const b = g.rand() < 0.9 ? mutate(g, a, 4) : g.value(1 + g.int(5));
    const ops = jsonPatch(a, b);
    verify(a, b, `pair ${i} (seed ${seed})`, ops);
    kinds[ops.length === 0 ? "none" : ops.length === 1 && ops[0].path === "" ? "root" : "inside"]++;
  }
  console.log(`${PAIRS} random pairs: ${kinds.inside} patches inside the value, ${kinds.root} of the root, ${kinds.none} empty`);
}

// cartCases are the cases an agent meets most: a cart whose lines change.
function cartCases() {
  const g = generator(prng(1));
  const line = (i) => ({ id: "line-" + i, sku: "SKU-" + (4000 + i), name: "Product number " + i, qty: 1 + (i % 3), price: 9.99 + i, options: { colour: "blue", gift: false } });
  const cart = { id: "cart-7", currency: "EUR", lines: Array.from({ length: 12 }, (_, i) => line(i)), total: 0 };
  const edit = (f) => { const c = structuredClone(cart); f(c); return c; };
  const cases = {
    "append a line": edit((c) => c.lines.push(line(12))),
    "change one quantity": edit((c) => { c.lines[5].qty = 9; }),
    "change one colour": edit((c) => { c.lines[5].options.colour = "red"; }),
    "remove a middle line": edit((c) => c.lines.splice(5, 1)),
    "remove a line, change a later quantity": edit((c) => { c.lines.splice(3, 1); c.lines[8].qty = 7; }),
    "reorder (last line first)": edit((c) => c.lines.unshift(c.lines.pop())),
    "reorder (first line last)": edit((c) => c.lines.push(c.lines.shift())),
    "swap two lines": edit((c) => { [c.lines[2], c.lines[9]] = [c.lines[9], c.lines[2]]; }),
    "insert a line at the top": edit((c) => c.lines.unshift(line(99))),
    "insert at the top, remove one, change one": edit((c) => { c.lines.unshift(line(99)); c.lines.splice(6, 1); c.lines[10].qty = 5; }),
  };
  console.log("cart (12 lines, %d chars): patch length by differ", JSON.stringify(cart).length);
  const row = (...cells) => console.log("  " + cells[0].padEnd(44) + cells.slice(1).map((c) => String(c).padStart(11)).join(""));
  row("case", "value", "fast-json", "by index", "ours");
  for (const [what, b] of Object.entries(cases)) {
    const ops = jsonPatch(cart, b);
    verify(cart, b, what, ops);
    const n = (x) => JSON.stringify(x).length;
    row(what, n(b), n(compare(cart, b)), n(byIndex(cart, b)), n(ops));
  }
  const ops = (b) => JSON.stringify(jsonPatch(cart, b));
  check(ops(cases["append a line"]).startsWith('[{"op":"add","path":"/lines/12"'), "append: one add", ops(cases["append a line"]));
  check(ops(cases["change one quantity"]) === '[{"op":"replace","path":"/lines/5/qty","value":9}]', "quantity: one replace", ops(cases["change one quantity"]));
  check(ops(cases["remove a middle line"]) === '[{"op":"remove","path":"/lines/5"}]', "remove: one remove", ops(cases["remove a middle line"]));
  check(ops(cases["reorder (last line first)"]) === '[{"op":"move","from":"/lines/11","path":"/lines/0"}]', "reorder: one move", ops(cases["reorder (last line first)"]));
  check(ops(cases["reorder (first line last)"]) === '[{"op":"move","from":"/lines/0","path":"/lines/11"}]', "reorder: one move", ops(cases["reorder (first line last)"]));
  // One changed field in a ~10 KB object: the patch is that field.
  const big = {};
  for (let i = 0; i < 160; i++) big["k" + i] = { n: i, s: "some text of item " + i, list: [i, i + 1, g.pick(STRINGS)] };
  const big2 = structuredClone(big);
  big2.k77.list[1] = "changed";
  const p = JSON.stringify(jsonPatch(big, big2));
  check(JSON.stringify(big).length > 9000 && p.length < 100, `one field in ${JSON.stringify(big).length} chars: ${p.length} chars`, p);
  verify(big, big2, "one field in a big object");
}

// edgeCases: roots, kinds, tricky keys.
function edgeCases() {
  const eq = (a, b, want) => check(JSON.stringify(jsonPatch(a, b)) === want, `jsonPatch(${JSON.stringify(a)}, ${JSON.stringify(b)})`, JSON.stringify(jsonPatch(a, b)) + " want " + want);
  eq({ a: [1, { b: null }] }, { a: [1, { b: null }] }, "[]");
  eq(1, "1", '[{"op":"replace","path":"","value":"1"}]');
  eq([], {}, '[{"op":"replace","path":"","value":{}}]');
  eq(null, false, '[{"op":"replace","path":"","value":false}]');
  eq({ "a/b": { "~": 1, "": 2 } }, { "a/b": { "~": 3, "": 2 } }, '[{"op":"replace","path":"/a~1b/~0","value":3}]');
  eq({ "": 1, big: "x".repeat(50) }, { "": 2, big: "x".repeat(50) }, '[{"op":"replace","path":"/","value":2}]');
  const pad = "x".repeat(60);
  eq({ "~1": pad, toString: 1 }, { "~1": pad, constructor: 1 }, '[{"op":"remove","path":"/toString"},{"op":"add","path":"/constructor","value":1}]');
  eq([1, 2, 3, 4, 5, 6], [1, 2, 9, 3, 4, 5, 6], '[{"op":"add","path":"/2","value":9}]');
  eq([pad, 2, 3, 4, 5, 6, 7, 8], [pad, 2, 6, 7, 8], '[{"op":"remove","path":"/4"},{"op":"remove","path":"/3"},{"op":"remove","path":"/2"}]');
  eq([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 6, 7, 8], '[{"op":"replace","path":"","value":[1,2,6,7,8]}]'); // shorter than three removes
  for (const [a, b] of [[{ x: 1 }, { x: 2, y: { "/": [] } }], [[{ id: 1 }, { id: 1 }], [{ id: 1 }]], [[{ id: 1 }, { id: "1" }], [{ id: "1" }, { id: 1 }]]]) {
    verify(a, b, `edge ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  }
  // Deep values do not overflow the stack.
  let deepA = 0, deepB = 1;
  for (let i = 0; i < 400; i++) deepA = i % 2 ? [deepA] : { d: deepA }, deepB = i % 2 ? [deepB] : { d: deepB };
  verify(deepA, deepB, "400 levels deep");
  // Deeper than the stack: no exception, the whole value replaced.
  for (let i = 0; i < 100000; i++) deepA = [deepA], deepB = [deepB];
  let ops;
  try {
    ops = jsonPatch(deepA, deepB);
  } catch (e) {
    ops = e;
  }
  check(Array.isArray(ops) && ops.length === 1 && ops[0].path === "" && ops[0].value === deepB, "100,000 levels deep: one replace", String(ops));
}

// corpusCases are the corpus's written pairs, where a differ that drifted
// would most likely show it: keys sorted by UTF-16 code units; arrays paired
// by each id key in turn (and by none, where an id repeats or is missing);
// and sweeps across the point where one replace becomes shorter than the
// operations inside, with characters and numbers that JSON writes in more
// than one UTF-16 unit each, or not as Go's strconv would.
function corpusCases() {
  const pairs = [];
  const keys = ["😀", "😁", "\u{E000}", "a", "~", "", "10", "9", "/", "~1", "é", "\u{FFFF}", "\u{10000}"];
  const o = (f) => Object.fromEntries(keys.map((k, i) => [k, f(i)]));
  const text = "a text long enough that a replace of the whole costs more";
  pairs.push([o((i) => ({ n: i + 1, text })), o((i) => ({ n: -i - 1, text }))]);
  pairs.push([o((i) => ({ v: i, w: "pad pad pad" })), Object.fromEntries(keys.slice(3).map((k, i) => [k + "!", i]))]);
  const lines = (k, ids) => ids.map((id, i) => ({ [k]: id, qty: 1 + (i % 3), title: "line " + id }));
  for (const k of ["id", "sku", "key", "uri", "name", "other"]) {
    pairs.push([lines(k, ["a", "b", "c", "d", "e"]), lines(k, ["e", "a", "c", "f", "b"])]);
    pairs.push([lines(k, [1, 2, 3, 4]), lines(k, [4, 3, 2, 1]).map((l, i) => ({ ...l, qty: i }))]);
  }
  const both = (ids, skus) => ids.map((id, i) => ({ id, sku: skus[i], title: "line " + skus[i] }));
  pairs.push([both(["x", "x", "y"], ["s1", "s2", "s3"]), both(["y", "x", "x"], ["s3", "s1", "s2"])]); // id repeats: by sku
  pairs.push([both([1, "1", 2], ["s1", "s2", "s3"]), both([2, "1", 1], ["s3", "s2", "s1"])]); // 1 and "1" differ
  pairs.push([[{ id: "a", q: 1 }, { q: 2 }, { id: "c", q: 3 }], [{ id: "c", q: 3 }, { id: "a", q: 1 }, { q: 2 }]]); // one without
  // the key's length, n characters, at which one replace of the object under it
  // becomes shorter than the two replaces inside: the pairs either side of it.
  const sweep = (make) => {
    for (let n = 1, ops = jsonPatch(...make(0)).length; n <= 40; n++) {
      if (jsonPatch(...make(n)).length !== ops) return pairs.push(...[n - 2, n - 1, n, n + 1].filter((i) => i >= 0).map(make));
    }
    throw new Error("a sweep crosses no boundary: " + JSON.stringify(make(0)));
  };
  for (const u of ["a", "😀", "é", "\u0001", "\u001f", "\"", "~", "/", "日", "\u2028", "\u{E000}"]) {
    sweep((n) => [{ [u.repeat(n)]: { x: 0, y: 0, p: "a".repeat(40) } }, { [u.repeat(n)]: { x: 1, y: 1, p: "a".repeat(40) } }]);
  }
  for (const num of [1e21, 1.5e-7, 1e-7, 0.000001, 123456789012345680000, 5e-324, 1.7976931348623157e308, 0.30000000000000004, -12.5]) {
    const p = [num, "a".repeat(30 - String(num).length)];
    sweep((n) => [{ ["k".repeat(n)]: { x: 0, y: 0, p } }, { ["k".repeat(n)]: { x: 1, y: 1, p } }]);
  }
  // Objects with two unique id keys, paired in one order by the first and in
  // another by the second: which key is tried first decides the patch.
  for (let i = 0; i + 1 < patchIdKeysInOrder.length; i++) {
    const [k1, k2] = [patchIdKeysInOrder[i], patchIdKeysInOrder[i + 1]];
    const row = (v1, v2) => ({ [k1]: v1, [k2]: v2, title: "a line of the cart" });
    pairs.push([[row(1, "a"), row(2, "b"), row(3, "c")], [row(2, "a"), row(3, "b"), row(1, "c")]]);
  }
  return pairs;
}

// corpus writes or checks corpus.json: the written pairs, then {a, b, patch}
// triples from a fixed seed, whose patches Go's Diff must give too.
function corpus(update) {
  if (update) {
    const g = generator(prng(CORPUS_SEED));
    const triples = corpusCases().map(([a, b]) => ({ a, b, patch: jsonPatch(a, b) }));
    for (let random = 0; random < CORPUS_RANDOM;) {
      const a = g.value(2 + g.int(3), true);
      const b = g.rand() < 0.95 ? mutate(g, a, 3) : g.value(1 + g.int(4));
      if (JSON.stringify(a).length + JSON.stringify(b).length > 1200) continue; // keep the file small
      const patch = jsonPatch(a, b);
      // Mostly patches that reach inside the values: a few of none, or of the root.
      if ((patch.length === 0 || patch[0].path === "") && g.rand() < 0.8) continue;
      triples.push({ a, b, patch });
      random++;
    }
    fs.writeFileSync(CORPUS, "[\n" + triples.map((t) => JSON.stringify(t)).join(",\n") + "\n]\n");
    console.log(`wrote ${triples.length} triples to corpus.json`);
  }
  const triples = JSON.parse(fs.readFileSync(CORPUS, "utf8"));
  check(triples.length >= 300, `corpus.json has ${triples.length} triples`);
  triples.forEach(({ a, b, patch }, i) => {
    const got = JSON.stringify(jsonPatch(a, b));
    check(got === JSON.stringify(patch), `corpus ${i}: the differ no longer gives corpus.json's patch (node patch.test.mjs -update, then make Go's Diff agree)`, `got  ${got}\n  want ${JSON.stringify(patch)}`);
    verify(a, b, `corpus ${i}`);
  });
}

const seed = process.env.SEED ? Number(process.env.SEED) : 20260728;
console.log(`seed ${seed} (SEED=n to change it)`);
randomPairs(seed);
cartCases();
edgeCases();
corpus(process.argv.includes("-update"));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
