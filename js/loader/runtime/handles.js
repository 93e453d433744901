// @ts-check
// handles.js: the page's values that Go names by handle.
const FREE = Symbol("free");

/** @type {any[]} value handles → page values (0 is no value) */
export const vals = [FREE];

/** @type {number[]} */
export const freeVals = [];

/**
 * hold keeps v for Go and returns its handle (> 0).
 * @param {any} v
 */
export function hold(v) {
  const h = freeVals.length ? /** @type {number} */ (freeVals.pop()) : vals.length;
  vals[h] = v;
  return h;
}

/**
 * release forgets handle h; a handle that is not live is ignored.
 * @param {number} h
 */
export function release(h) {
  if (!(h > 0 && h < vals.length) || vals[h] === FREE) return;
  vals[h] = FREE;
  freeVals.push(h);
}
