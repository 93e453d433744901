// @ts-check
// encode.js: strings and fields into Go's memory, and Go's strings back.
//
// A field is written as its kind byte followed, for a string, by its UTF-8
// length (uint32, little-endian) and bytes; for a number, by a float64; for a
// boolean, by a byte; for an array, by its length and its items (an array
// inside an array as its kind and a zero length). Other kinds have no
// payload. registry.DecodeFields reads it.
import { match } from "./lookup.js";
import { ex } from "./start.js";
import { resources } from "../table.js";
import { kindOf } from "../values.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });
let scratch = new Uint8Array(512);
let scratchView = new DataView(scratch.buffer);
export let pos = 0;

// begin starts a message in the scratch buffer.
export function begin() {
  pos = 0;
}

/** @param {number} n */
export function room(n) {
  if (pos + n <= scratch.length) return;
  const bigger = new Uint8Array(Math.max(pos + n, scratch.length * 2));
  bigger.set(scratch.subarray(0, pos));
  scratch = bigger;
  scratchView = new DataView(scratch.buffer);
}

/**
 * put writes one field. An array must be a plain copy (reading the items of
 * a hostile array may throw); then put never throws.
 * @param {any} v
 * @param {number} depth
 */
export function put(v, depth) {
  const k = kindOf(v);
  room(1);
  scratch[pos++] = k;
  if (k === K_STRING) {
    room(4 + v.length * 3);
    const n = utf8(v, scratch, pos + 4);
    scratchView.setUint32(pos, n, true);
    pos += 4 + n;
  } else if (k === K_BOOLEAN) {
    room(1);
    scratch[pos++] = v ? 1 : 0;
  } else if (k === K_NUMBER) {
    room(8);
    scratchView.setFloat64(pos, v, true);
    pos += 8;
  } else if (k === K_ARRAY) {
    const n = depth > 0 ? 0 : v.length;
    room(4);
    scratchView.setUint32(pos, n, true);
    pos += 4;
    for (let i = 0; i < n; i++) put(v[i], depth + 1);
  }
}

/**
 * encodeField writes one field into Go's buffer and returns its length (an
 * array must be a plain copy, as for put).
 * @param {any} v
 */
export function encodeField(v) {
  begin();
  put(v, 0);
  return flush();
}

/**
 * @typedef {object} ExtractNode a step of the paths of an extraction table,
 * compiled once: the fields that take the value reached here, and the steps
 * below it
 * @property {string} key
 * @property {number[]} fields
 * @property {ExtractNode[]} children
 */

/**
 * compileExtracts turns an extraction table from Go (MESSAGE_FIELDS,
 * OPTION_FIELDS: a path and an `as` per field) into a tree of its paths, so
 * that each member of a message is read once, however many fields start
 * with it.
 * @param {{path: string[], as?: string}[]} fields
 */
export function compileExtracts(fields) {
  /** @type {ExtractNode} */
  const root = { key: "", fields: [], children: [] };
  fields.forEach((f, i) => {
    let node = root;
    for (const key of f.path) {
      let next = node.children.find((c) => c.key === key);
      if (!next) node.children.push((next = { key, fields: [], children: [] }));
      node = next;
    }
    if (f.as !== AS_UNREADABLE && f.as !== AS_OVERSIZED) node.fields.push(i);
  });
  return { fields, root, values: new Array(fields.length) };
}

/**
 * extract reads, below v, the members the node's subtree names into values
 * (by field index): a step goes only into a plain object (not an array or
 * null); anything else gives undefined below it. It reports whether a getter
 * threw; what is below a member that threw is undefined.
 * @param {ExtractNode} node
 * @param {any} v
 * @param {any[]} values
 */
function extract(node, v, values) {
  let threw = false;
  for (let i = 0; i < node.fields.length; i++) values[node.fields[i]] = v;
  if (node.children.length === 0) return false;
  const object = v !== null && typeof v === "object" && !Array.isArray(v);
  for (let i = 0; i < node.children.length; i++) {
    const child = node.children[i];
    let w;
    if (object) {
      try {
        w = v[child.key];
      } catch {
        threw = true;
      }
    }
    if (extract(child, w, values)) threw = true;
  }
  return threw;
}

/**
 * encodeExtracts writes the fields that a compiled extraction table says to
 * take from root, and returns their length. A member whose getter throws
 * counts as undefined and makes the AS_UNREADABLE field true. When the text
 * of the fields (textLength) is over limit, the AS_OVERSIZED field is true
 * and only fields of at most KEPT_TEXT are written (the others as
 * undefined, and no uri is looked up), so that no sender can make this copy
 * more than that into Go.
 * @param {ReturnType<typeof compileExtracts>} table
 * @param {any} root
 * @param {number} [limit]
 */
export function encodeExtracts(table, root, limit = Infinity) {
  const { fields, values } = table;
  let unreadable = extract(table.root, root, values);
  for (let i = 0; i < values.length; i++) {
    if (fields[i].as !== AS_ENTRIES) continue;
    const e = entries(values[i]);
    if (e === null) unreadable = true;
    values[i] = e === null ? undefined : e;
  }
  let oversized = false;
  if (limit !== Infinity) {
    let text = 0;
    for (let i = 0; i < values.length; i++) if (!fields[i].as || fields[i].as === AS_ENTRIES) text += textLength(values[i]); // AS_VALUE
    oversized = text > limit;
  }
  pos = 0;
  /** @type {string | undefined} */
  let resolvedURI;
  let resolvedID = 0;
  /** @type {string | undefined} */
  let resolvedParams;
  for (let i = 0; i < fields.length; i++) {
    let v = values[i];
    values[i] = undefined;
    if (oversized && textLength(v) > KEPT_TEXT) v = undefined;
    switch (fields[i].as) {
      case AS_NUMBER_JSON:
        v = typeof v === "number" ? JSON.stringify(v) : undefined;
        break;
      case AS_ID_JSON:
        v = typeof v === "string" || typeof v === "number" ? JSON.stringify(v) : undefined;
        break;
      case AS_RESOURCE:
      case AS_PARAMS:
        if (typeof v !== "string") {
          v = undefined;
          break;
        }
        if (oversized) {
          v = undefined;
          break;
        }
        if (v !== resolvedURI) {
          resolvedURI = v;
          const r = resources.get(v);
          const m = r ? undefined : match(v);
          resolvedID = r ? r.id : m ? m.r.id : 0;
          resolvedParams = m ? m.params : undefined;
        }
        v = fields[i].as === AS_RESOURCE ? resolvedID : resolvedParams;
        break;
      case AS_UNREADABLE:
        v = unreadable;
        break;
      case AS_OVERSIZED:
        v = oversized;
        break;
      case AS_ENTRIES: // an array of entries already
        break;
      default: // AS_VALUE: an array as a plain copy of its items
        if (kindOf(v) === K_ARRAY) {
          try {
            v = Array.prototype.slice.call(v);
          } catch {
            v = undefined;
            unreadable = true;
          }
        }
    }
    put(v, 0);
  }
  return flush();
}

/**
 * entries is a plain object's own enumerable members as [key, value, key,
 * value, ...] (for AS_ENTRIES), undefined for anything else, or null when
 * reading it threw.
 * @param {any} v
 */
function entries(v) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  try {
    const out = [];
    for (const k of Object.keys(v)) out.push(k, v[k]);
    return out;
  } catch {
    return null;
  }
}

/**
 * textLength is how much text put would write of v: a string's length, an
 * array's items (each counts one, and a string item its length too).
 * @param {any} v
 */
function textLength(v) {
  if (typeof v === "string") return v.length;
  if (v === null || typeof v !== "object" || kindOf(v) !== K_ARRAY) return 0;
  let n = 0;
  try {
    n = v.length;
    for (let i = 0; i < v.length && n <= MAX_MESSAGE_TEXT; i++) n += typeof v[i] === "string" ? v[i].length : 0;
  } catch {
    n = 0; // a hostile array (a page's forged event): the copy finds it unreadable
  }
  return n;
}

/**
 * flush copies what put wrote into Go's buffer and returns its length. A
 * short encoding (a registration) is copied byte by byte: cheaper than the
 * subarray that set needs.
 */
export function flush() {
  const view = goBuffer(pos);
  if (pos <= 64) {
    for (let i = 0; i < pos; i++) view[i] = scratch[i];
  } else {
    view.set(scratch.subarray(0, pos));
  }
  return pos;
}

let bufPtr = 0;
/** @type {Uint8Array | null} */
let bufView = null;
/**
 * goBuffer returns a view of Go's export buffer with room for n bytes. Go
 * moves the buffer only when mc_buffer grows it, and the view covers no more
 * than the buffer's length, so a view that is long enough is still right and
 * Go is not asked again; unless Go's memory grew, which detaches the old
 * memory's views (their length becomes 0).
 * @param {number} n
 */
export function goBuffer(n) {
  if (bufView !== null && bufView.length >= n && bufView.length !== 0) return bufView;
  const p = ex.mc_buffer(n);
  if (p !== bufPtr || !bufView || bufView.length < Math.max(n, 1)) {
    bufPtr = p;
    bufView = new Uint8Array(ex.mem.buffer, p, Math.max(n, 256));
  }
  return bufView;
}

/**
 * ascii writes a short ASCII string into dst at `at` and reports whether it
 * could: for a uri, a charCodeAt loop is several times faster than
 * TextEncoder.encodeInto.
 * @param {string} s
 * @param {Uint8Array} dst
 * @param {number} at
 */
export function ascii(s, dst, at) {
  if (s.length > 128) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return false;
    dst[at + i] = c;
  }
  return true;
}

/**
 * utf8 writes s as UTF-8 into dst at `at` and returns the length. A string
 * with lone surrogates is written as WTF-8 (each surrogate as its own
 * three-byte sequence), so that "x:\ud800" and "x:\ufffd" stay different in
 * Go, as they are in JavaScript.
 * @param {string} s
 * @param {Uint8Array} dst
 * @param {number} at
 */
function utf8(s, dst, at) {
  if (ascii(s, dst, at)) return s.length;
  if (typeof s.isWellFormed === "function" && s.isWellFormed()) return encoder.encodeInto(s, dst.subarray(at)).written;
  let n = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) dst[n++] = c;
    else if (c < 0x800) (dst[n++] = 0xc0 | (c >> 6)), (dst[n++] = 0x80 | (c & 63));
    else if (c < 0x10000) (dst[n++] = 0xe0 | (c >> 12)), (dst[n++] = 0x80 | ((c >> 6) & 63)), (dst[n++] = 0x80 | (c & 63));
    else (dst[n++] = 0xf0 | (c >> 18)), (dst[n++] = 0x80 | ((c >> 12) & 63)), (dst[n++] = 0x80 | ((c >> 6) & 63)), (dst[n++] = 0x80 | (c & 63));
  }
  return n - at;
}

/**
 * utf8Length counts the bytes of s in UTF-8 (a lone surrogate as 3, as
 * TextEncoder's replacement character) without encoding it.
 * @param {string} s
 */
export function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) (n += 2), i++;
    else n += 2;
  }
  return n;
}

/**
 * putString writes s into Go's buffer as UTF-8 and returns its length.
 * @param {string} s
 */
export function putString(s) {
  return utf8(s, goBuffer(s.length * 3), 0);
}

/**
 * str reads a string Go passed as a pointer and a length. Up to 64 bytes of
 * ASCII (a uri, a short message), String.fromCharCode is faster than
 * TextDecoder; from about 80 bytes on, TextDecoder is. Text that is not
 * well-formed UTF-8 holds lone surrogates (see wtf8).
 * @param {number} p
 * @param {number} n
 */
export function str(p, n) {
  const b = new Uint8Array(ex.mem.buffer, p, n);
  if (n <= 64) {
    let ascii = true;
    for (let i = 0; i < n; i++) {
      if (b[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, /** @type {any} */ (b));
  }
  try {
    return strictDecoder.decode(b);
  } catch {
    return wtf8(b);
  }
}

/**
 * wtf8 decodes what utf8 wrote for a string with lone surrogates (Go hands
 * back parts of such strings: a uri, a template's parameter): each
 * three-byte sequence of a surrogate becomes that code unit again, and
 * everything else decodes as TextDecoder decodes it.
 * @param {Uint8Array} b
 */
function wtf8(b) {
  let s = "", from = 0;
  for (let i = 0; i + 2 < b.length; i++) {
    if (b[i] === 0xed && b[i + 1] >= 0xa0 && b[i + 1] <= 0xbf && b[i + 2] >= 0x80 && b[i + 2] <= 0xbf) {
      s += decoder.decode(b.subarray(from, i)) + String.fromCharCode(0xd000 | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f));
      i += 2;
      from = i + 1;
    }
  }
  return s + decoder.decode(b.subarray(from));
}
