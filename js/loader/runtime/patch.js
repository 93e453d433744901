// @ts-check
// patch.js: RFC 6902 JSON Patches between two JSON values, so that an agent is sent what changed, not the whole value.

/** @typedef {{op: string, path: string, from?: string, value?: any}} PatchOp */

/**
 * jsonPatch returns the operations that turn a into b, both JSON values as
 * JSON.parse returns them: [] when they are equal. It does not throw: values
 * too deep for the stack are replaced whole. wasm/internal/jsonpatch's Diff
 * is the same algorithm in Go; testdata/patch/corpus.json holds the two to
 * the same operations, so change both or neither.
 * @param {any} a
 * @param {any} b
 * @returns {PatchOp[]}
 */
export function jsonPatch(a, b) {
  /** @type {PatchOp[]} */
  const ops = [];
  try {
    patchValue(a, b, "", ops);
  } catch { // RangeError: the stack ran out
    return [{ op: "replace", path: "", value: b }];
  }
  return ops;
}

// patchIdKeys are the members that identify an object in an array (a cart's
// line), tried in this order: the first that every object of both sides
// carries, unique on each side, pairs them by it instead of by index.
const patchIdKeys = ["id", "sku", "key", "uri", "name"];

/**
 * patchValue appends to ops those that turn a into b at path: the changes
 * inside an object or array, or one replace when that is shorter as JSON.
 * @param {any} a
 * @param {any} b
 * @param {string} path
 * @param {PatchOp[]} ops
 */
function patchValue(a, b, path, ops) {
  if (a === b) return;
  const replace = { op: "replace", path, value: b };
  if (!patchIsObject(a) || !patchIsObject(b) || Array.isArray(a) !== Array.isArray(b)) {
    ops.push(replace);
    return;
  }
  // Equal containers make no operations: they are walked once, here, not
  // compared first and walked again.
  /** @type {PatchOp[]} */
  let sub = [];
  (Array.isArray(a) ? patchArray : patchObject)(a, b, path, sub);
  if (sub.length === 0) return;
  // [replace] as JSON is 35 characters, the path's and b's JSON: b is
  // measured only as far as that decides, not stringified whole.
  if (patchShorterThan(b, JSON.stringify(sub).length - 35 - JSON.stringify(path).length)) sub = [replace];
  for (const op of sub) ops.push(op); // not push(...sub): a long spread overflows the stack
}

/**
 * patchShorterThan reports whether v's JSON is shorter than need characters.
 * It sums a lower bound of the length (a string's escapes and a number's
 * digits past the first are not counted) and stops once that reaches need;
 * only a value whose bound stays below need is stringified.
 * @param {any} v
 * @param {number} need
 */
function patchShorterThan(v, need) {
  if (need <= 0) return false;
  let left = need;
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "string") left -= x.length + 2;
    else if (typeof x === "boolean" || x === null) left -= 4;
    else if (typeof x !== "object") left -= 1;
    else if (Array.isArray(x)) {
      left -= x.length > 0 ? x.length + 1 : 2;
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
    } else {
      left -= 2;
      let n = 0;
      for (const k in x) {
        left -= k.length + (n++ > 0 ? 4 : 3);
        stack.push(x[k]);
      }
    }
    if (left <= 0) return false;
  }
  return JSON.stringify(v).length < need;
}

/** @param {any} v */
function patchIsObject(v) {
  return typeof v === "object" && v !== null;
}

/**
 * patchEqual reports whether two JSON values are deeply equal.
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
function patchEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!patchEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let n = 0;
  for (const k in a) {
    if (!Object.hasOwn(b, k) || !patchEqual(a[k], b[k])) return false;
    n++;
  }
  for (const k in b) if (--n < 0) return false;
  return n === 0;
}

/**
 * patchPointer is path with one more reference token (RFC 6901).
 * @param {string} path
 * @param {string | number} token
 */
function patchPointer(path, token) {
  return path + "/" + String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * patchObject diffs two objects member by member, in the order of their
 * sorted keys (Go's maps have no order of their own to follow).
 * @param {any} a
 * @param {any} b
 * @param {string} path
 * @param {PatchOp[]} ops
 */
function patchObject(a, b, path, ops) {
  for (const k of Object.keys(a).sort()) {
    if (Object.hasOwn(b, k)) patchValue(a[k], b[k], patchPointer(path, k), ops);
    else ops.push({ op: "remove", path: patchPointer(path, k) });
  }
  for (const k of Object.keys(b).sort()) {
    if (!Object.hasOwn(a, k)) ops.push({ op: "add", path: patchPointer(path, k), value: b[k] });
  }
}

/**
 * patchArray diffs two arrays: the elements both start and end with stay;
 * the rest is paired by id (patchKeyed) or by index, with what is left over
 * removed (the highest index first) or added.
 * @param {any[]} a
 * @param {any[]} b
 * @param {string} path
 * @param {PatchOp[]} ops
 */
function patchArray(a, b, path, ops) {
  let s = 0, n = a.length, m = b.length;
  while (s < n && s < m && patchEqual(a[s], b[s])) s++;
  while (s < n && s < m && patchEqual(a[n - 1], b[m - 1])) n--, m--;
  for (const k of patchIdKeys) {
    const ia = patchIds(a.slice(s, n), k), ib = patchIds(b.slice(s, m), k);
    if (!ia || !ib) continue;
    if (ia.length !== ib.length || ia.some((v, i) => v !== ib[i])) return patchKeyed(a, b, s, ia, ib, path, ops);
    break; // the same ids in the same order: pairing by index is the same
  }
  for (let i = s; i < n && i < m; i++) patchValue(a[i], b[i], patchPointer(path, i), ops);
  for (let i = n; i-- > m;) ops.push({ op: "remove", path: patchPointer(path, i) });
  for (let i = n; i < m; i++) ops.push({ op: "add", path: patchPointer(path, i), value: b[i] });
}

/**
 * patchIds returns the k member of each element of x, or null unless every
 * element is an object with a string or number k, none twice.
 * @param {any[]} x
 * @param {string} k
 */
function patchIds(x, k) {
  const ids = [];
  for (const e of x) {
    const v = patchIsObject(e) && Object.hasOwn(e, k) ? e[k] : null;
    if (typeof v !== "string" && typeof v !== "number") return null;
    ids.push(v);
  }
  return new Set(ids).size === ids.length ? ids : null;
}

/**
 * patchKeyed diffs a[s:] into b[s:] (both trimmed of their equal ends),
 * whose elements have the ids ia and ib: those only a has are removed; then,
 * in b's order, each that only b has is added and each the longest run of
 * elements already in b's order leaves out is moved, each directly after
 * its predecessor in b; each in both is diffed where it then is.
 * @param {any[]} a
 * @param {any[]} b
 * @param {number} s
 * @param {any[]} ia
 * @param {any[]} ib
 * @param {string} path
 * @param {PatchOp[]} ops
 */
function patchKeyed(a, b, s, ia, ib, path, ops) {
  const at = new Map(ib.map((v, j) => [v, j]));
  const old = new Map(ia.map((v, i) => [v, a[s + i]]));
  const cur = ia.slice(); // the ids as the operations so far leave them
  for (let i = cur.length; i--;) {
    if (at.has(cur[i])) continue;
    ops.push({ op: "remove", path: patchPointer(path, s + i) });
    cur.splice(i, 1);
  }
  const stay = new Set(patchIncreasing(cur.map((v) => /** @type {number} */ (at.get(v)))).map((i) => cur[i]));
  ib.forEach((v, j) => {
    let i = cur.indexOf(v);
    if (!stay.has(v)) {
      if (i >= 0) cur.splice(i, 1);
      const to = j && cur.indexOf(ib[j - 1]) + 1;
      cur.splice(to, 0, v);
      if (i < 0) ops.push({ op: "add", path: patchPointer(path, s + to), value: b[s + j] });
      else if (i !== to) ops.push({ op: "move", from: patchPointer(path, s + i), path: patchPointer(path, s + to) });
      i = to;
    }
    if (old.has(v)) patchValue(old.get(v), b[s + j], patchPointer(path, s + i), ops);
  });
}

/**
 * patchIncreasing returns the indices of a longest increasing subsequence
 * of t (patience sorting: the last one found of the longest).
 * @param {number[]} t
 */
function patchIncreasing(t) {
  /** @type {number[]} */
  const tails = [];
  /** @type {number[]} */
  const prev = [];
  t.forEach((x, i) => {
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (t[tails[mid]] < x) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo ? tails[lo - 1] : -1;
    tails[lo] = i;
  });
  const seq = [];
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) seq.push(i);
  return seq;
}

/**
 * jsonPatchApply applies ops, as jsonPatch makes them (add, remove, replace,
 * move), to doc in place and returns the result: doc, or the new value a
 * replace of the whole document gave. The ops' values become part of it.
 * @param {any} doc
 * @param {PatchOp[]} ops
 */
export function jsonPatchApply(doc, ops) {
  for (const op of ops) {
    if (op.op === "move") {
      const [from, k] = patchParent(doc, /** @type {string} */ (op.from));
      const v = from[k];
      if (Array.isArray(from)) from.splice(Number(k), 1);
      else delete from[k];
      doc = patchPut(doc, op.path, v, true);
    } else if (op.op === "remove") {
      const [parent, k] = patchParent(doc, op.path);
      if (Array.isArray(parent)) parent.splice(Number(k), 1);
      else delete parent[k];
    } else doc = patchPut(doc, op.path, op.value, op.op === "add");
  }
  return doc;
}

/**
 * patchParent returns the container that path's last token names a member
 * of, and that token.
 * @param {any} doc
 * @param {string} path
 * @returns {[any, string]}
 */
function patchParent(doc, path) {
  const tokens = path.split("/").slice(1).map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  const last = /** @type {string} */ (tokens.pop());
  for (const t of tokens) doc = doc[t];
  return [doc, last];
}

/**
 * patchPut sets the member path names to v (inserting it into an array when
 * add) and returns the document, v itself for the path "".
 * @param {any} doc
 * @param {string} path
 * @param {any} v
 * @param {boolean} add
 */
function patchPut(doc, path, v, add) {
  if (path === "") return v;
  const [parent, k] = patchParent(doc, path);
  if (Array.isArray(parent) && add) parent.splice(k === "-" ? parent.length : Number(k), 0, v);
  else parent[k] = v;
  return doc;
}
