// @ts-check
// lookup.js: the registrations Go holds by ID, their fields described to
// Go, and the template Go finds for a uri.
import { ascii, begin, flush, goBuffer, put, putString, str } from "./encode.js";
import { internal } from "./host.js";
import { ex } from "./start.js";
import { templates } from "../table.js";
/** @typedef {import("../table.js").Registration} Registration */
/** @type {Map<number, Registration>} every registration Go holds as current, by ID (lifecycle.js keeps it) */
export const regs = new Map();

/**
 * encodeRegistration writes the fields mc_register reads
 * (REGISTRATION_FIELDS, in their order) into Go's buffer and returns their
 * length.
 * @param {Registration} r
 */
export function encodeRegistration(r) {
  if (KEY_ALONE && r.parts === undefined && r.mimeType === DEFAULT_MIME_TYPE) {
    const n = encodeKeyAlone(r.key);
    if (n > 0) return n;
  }
  begin();
  for (let i = 0; i < REGISTRATION_FIELDS.length; i++) put(registrationField(r, REGISTRATION_FIELDS[i]), 0);
  return flush();
}

// KEY_ALONE: Go reads a registration as its key, its mimeType and its
// template, in that order, so that a concrete resource with the default
// mimeType (most registrations) is its key and two undefined fields, which
// encodeKeyAlone writes straight into Go's buffer, faster than the
// field-by-field encoding. Were the fields to change, the field-by-field
// encoding would serve every registration.
const KEY_ALONE = REGISTRATION_FIELDS.join() === "key,mimeType,template";

/**
 * encodeKeyAlone writes, as put would, a key of up to 128 ASCII characters
 * followed by two undefined fields, and returns the length; 0 for any other
 * key.
 * @param {string} key
 */
function encodeKeyAlone(key) {
  const n = key.length;
  const b = goBuffer(n + 7);
  if (!ascii(key, b, 5)) return 0;
  b[0] = K_STRING;
  b[1] = n; // a little-endian uint32 below 256
  b[2] = 0;
  b[3] = 0;
  b[4] = 0;
  b[5 + n] = K_UNDEFINED;
  b[6 + n] = K_UNDEFINED;
  return n + 7;
}

/**
 * @param {Registration} r
 * @param {string} name
 */
function registrationField(r, name) {
  switch (name) {
    case "key":
      return r.key;
    case "mimeType":
      return r.mimeType === DEFAULT_MIME_TYPE ? undefined : r.mimeType; // Go knows the default
    case "template":
      return r.parts;
  }
  throw new Error("modelcontext: no registration field " + name);
}

/**
 * @typedef {object} Match a template that serves a uri
 * @property {Registration} r
 * @property {string} params its parameters, as JSON text
 */

/**
 * match returns the first template, in list order, that serves uri (Go
 * matches templates), or undefined. Only after ready; a concrete uri is
 * looked up first, in the cache of the current resources (table.js's
 * resources).
 * @param {string} uri
 * @returns {Match | undefined}
 */
export function match(uri) {
  if (templates.size === 0) return undefined;
  const p = internal(ex.mc_match(putString(uri)));
  if (p === 0) return undefined;
  const w = new Int32Array(ex.mem.buffer, p, 2);
  return { r: /** @type {Registration} */ (regs.get(w[0])), params: str(p + 8, w[1]) };
}

/**
 * inListOrder returns the registrations of a table in list order: the
 * page's own (IDs below FRAME_ID_BASE), then the frames' (connectFrame),
 * each in the table's order, as Go's registry.List orders them.
 * @param {Map<string, Registration>} t
 */
export function inListOrder(t) {
  /** @type {Registration[]} */
  const page = [];
  /** @type {Registration[]} */
  const frames = [];
  for (const r of t.values()) (r.id >= FRAME_ID_BASE ? frames : page).push(r);
  return page.concat(frames);
}
