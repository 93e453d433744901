// @ts-check
// keys.js: comparison keys, the text a push is de-duplicated by.

const objectToString = Object.prototype.toString;

/**
 * keyReplacer keeps visible the content that JSON.stringify would hide,
 * tagged with its type so that a Map never equals a plain object.
 * @param {string} _
 * @param {any} v
 */
function keyReplacer(_, v) {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  if (v instanceof Map) return { "\u0000Map": Array.from(v) };
  if (v instanceof Set) return { "\u0000Set": Array.from(v) };
  if (ArrayBuffer.isView(v)) {
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return { ["\u0000" + objectToString.call(v)]: Array.from(bytes) };
  }
  if (v instanceof ArrayBuffer) return { "\u0000ArrayBuffer": Array.from(new Uint8Array(v)) };
  return v;
}

/**
 * keyOf returns the comparison key of v; it throws where JSON cannot encode
 * v (a cycle, a BigInt, a throwing toJSON).
 * @param {any} v
 */
function keyOf(v) {
  const k = JSON.stringify(v, keyReplacer);
  return k === undefined ? "\u0000" + typeof v : k;
}
