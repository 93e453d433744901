// @ts-check
// keys.js: comparison keys, the text a push is de-duplicated by.

/**
 * keyOf returns the comparison key of v: its JSON.stringify form, in which
 * Map, Set, ArrayBuffer, SharedArrayBuffer, typed arrays and DataView show
 * their content, tagged with their type (["\0Map", entries]), and strings
 * that start with "\0" are escaped so that no value can pose as a tag. It
 * throws where there is no key: where JSON cannot encode v (a cycle, a
 * BigInt, a throwing toJSON) or cannot see its content (a Blob).
 *
 * A replacer, even one that changes nothing, takes V8's JSON.stringify off
 * its fast path, so plain data (see plainKey) is stringified without one:
 * the replacer would change nothing in it, so the key is the same.
 * @param {any} v
 */
export function keyOf(v) {
  const k = plainKey(v, 0) ? JSON.stringify(v) : JSON.stringify(v, keyReplacer);
  return k === undefined ? "\u0000undefined" : k;
}

const KEY_TAG = Symbol("modelcontext.keyTag");
const latin1 = new TextDecoder("latin1"); // windows-1252: one char per byte, injective
const objectToString = Object.prototype.toString;

/**
 * @param {string} tag
 * @param {any} content
 */
function keyTagged(tag, content) {
  /** @type {any} */
  const r = [tag, content];
  r[KEY_TAG] = true;
  return r;
}

/** @param {ArrayBufferView} view */
function keyBytes(view) {
  const u8 = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  try {
    return latin1.decode(u8);
  } catch { // a view of a SharedArrayBuffer
    let s = "";
    for (let i = 0; i < u8.length; i++) s += String.fromCharCode(u8[i]);
    return s;
  }
}

/**
 * keyReplacer keeps visible the content that JSON.stringify would hide.
 * @this {any}
 * @param {string} k
 * @param {any} v
 */
function keyReplacer(k, v) {
  if (typeof v === "string") {
    return v.length !== 0 && v.charCodeAt(0) === 0 && !(k === "0" && this[KEY_TAG] === true) ? "\u0000" + v : v;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return v;
  if (v instanceof Map) return keyTagged("\u0000Map", Array.from(v));
  if (v instanceof Set) return keyTagged("\u0000Set", Array.from(v));
  if (ArrayBuffer.isView(v)) return keyTagged("\u0000" + objectToString.call(v).slice(8, -1), keyBytes(v));
  if (v instanceof ArrayBuffer) return keyTagged("\u0000ArrayBuffer", keyBytes(new Uint8Array(v)));
  if (typeof SharedArrayBuffer === "function" && v instanceof SharedArrayBuffer) {
    return keyTagged("\u0000SharedArrayBuffer", keyBytes(new Uint8Array(v)));
  }
  if (typeof Blob === "function" && v instanceof Blob) throw new TypeError("a Blob has no comparison key");
  return v;
}

// plainKey reports whether keyReplacer would leave v and everything in it
// unchanged: every object in it is an array or a plain object (prototype
// Object.prototype or null); no object, array or function in it has a
// toJSON (whose result could be a Map); no string in it starts with "\0";
// there is no BigInt (which throws, unless a page gave BigInt a toJSON);
// and it is at most PLAIN_DEPTH objects deep (deeper values, and cycles, go
// through the replacer, which fails on a cycle, instead of recursing until
// the stack runs out). It reads every value JSON.stringify reads, getters
// included; a getter or Proxy that returned a plain value here and a Map to
// JSON.stringify would have that Map stringified as {}.
export const PLAIN_DEPTH = 64;

/**
 * @param {any} v
 * @param {number} depth
 * @returns {boolean}
 */
function plainKey(v, depth) {
  switch (typeof v) {
    case "object":
      return v === null || plainKeyObject(v, depth);
    case "string":
      return v.length === 0 || v.charCodeAt(0) !== 0;
    case "bigint":
      return false;
    case "function":
      return v.toJSON === undefined;
    default:
      return true;
  }
}

/**
 * @param {any} o
 * @param {number} depth
 */
function plainKeyObject(o, depth) {
  if (depth >= PLAIN_DEPTH || o.toJSON !== undefined) return false;
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) if (!plainKey(o[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return false;
  // for-in visits every own enumerable string key JSON.stringify visits (and
  // inherited enumerable ones, which only makes the check stricter).
  for (const k in o) if (!plainKey(o[k], depth + 1)) return false;
  return true;
}
