// @ts-check
// frameproxies.js: a connected frame's lists as the page's registrations
// (frameclient.js is the connection): proxies with IDs from FRAME_ID_BASE,
// registered, replaced and unregistered as the frame's lists change, in the
// frame's order, whose get reads through the frame and whose subscribe
// follows its pushes.
import { frameLabel, frameRead, frameSubscribe } from "./frameclient.js";
import { registerNow, unregisterNow, oneListChange } from "./lifecycle.js";
import { URL_SCHEME, badIcons, newRegistration, readIcons, resources, snapshot, splitTemplate, templates, validate } from "../table.js";
import { quietError } from "../values.js";
/** @typedef {import("../table.js").Registration} Registration */
/** @typedef {import("./frameclient.js").FrameConn} FrameConn */

let lastFrameID = FRAME_ID_BASE;
/** @type {WeakMap<Registration, string>} what each proxy lists (frameSignature), to tell a changed one from the same */
const frameSigs = new WeakMap();
/** @type {WeakMap<Registration, FrameConn>} the connection each proxy came from */
export const frameOwners = new WeakMap();

/** @param {Registration} r */
export function frameUnregister(r) {
  if (r.done) return;
  r.done = true;
  try {
    unregisterNow(r);
  } catch (e) {
    quietError(e);
  }
}

/**
 * frameApply makes the frame's registrations what its lists say, in its
 * order, with one resourcelistchanged when anything changed.
 * @param {FrameConn} conn
 * @param {any[]} items
 * @param {any[]} tmpls
 */
export function frameApply(conn, items, tmpls) {
  oneListChange(() => {
    frameApplyTable(conn, conn.resources, resources, items, false);
    frameApplyTable(conn, conn.templates, templates, tmpls, true);
  });
}

/**
 * frameApplyTable applies one list to mine, the frame's registrations in
 * table: a uri registered by anyone else stays theirs (with a warning); an
 * unchanged resource stays as it is, a changed one is replaced in place, a
 * new one goes last. Those in the longest start of the frame's order that
 * is already in that order stay where they are; the rest are registered
 * again after them, in the frame's order (one moved to the end re-registers
 * one).
 * @param {FrameConn} conn
 * @param {Map<string, Registration>} mine
 * @param {Map<string, Registration>} table
 * @param {any[]} items
 * @param {boolean} template
 */
function frameApplyTable(conn, mine, table, items, template) {
  /** @type {Map<string, {s: Registration, sig: string}>} */
  const want = new Map();
  for (const item of items) {
    const s = frameSnapshot(conn, item, template);
    if (!s) continue;
    const key = template ? s.uriTemplate : s.uri;
    const held = table.get(key);
    if (want.has(key)) continue;
    if (held && held !== mine.get(key)) {
      if (!conn.warned.has(key)) {
        conn.warned.add(key);
        console.warn(`modelcontext: connectFrame: ${frameLabel(conn)} lists "${key}", which is registered already (by this page, or another frame); that one stays listed`);
      }
      continue;
    }
    want.set(key, { s, sig: frameSignature(s) });
  }
  for (const [key, r] of mine) {
    if (!r.current) mine.delete(key); // replaced by the page's own
  }
  const stay = inOrderStart(mine, want);
  for (const [key, r] of [...mine]) {
    if (!stay.has(key)) {
      frameUnregister(r);
      mine.delete(key);
    }
  }
  for (const [key, w] of want) {
    const old = mine.get(key);
    if (old && frameSigs.get(old) === w.sig) continue;
    const r = newRegistration(w.s, ++lastFrameID);
    frameSigs.set(r, w.sig);
    frameOwners.set(r, conn);
    try {
      registerNow(r);
    } catch (e) {
      quietError(e);
      continue;
    }
    if (old) old.done = true;
    mine.set(key, r);
  }
}

/**
 * inOrderStart answers the keys of the longest start of want whose keys
 * are all in mine, in mine's order: registered where they are, they are
 * the frame's order so far.
 * @param {Map<string, any>} mine
 * @param {Map<string, any>} want
 */
function inOrderStart(mine, want) {
  /** @type {Set<string>} */
  const stay = new Set();
  const have = mine.keys();
  for (const key of want.keys()) {
    if (!mine.has(key)) break;
    let k = have.next();
    while (!k.done && k.value !== key) k = have.next();
    if (k.done) break;
    stay.add(key);
  }
  return stay;
}

/**
 * frameSnapshot is the snapshot of a proxy of a listed item, or null when
 * the item is no valid descriptor (reported once).
 * @param {FrameConn} conn
 * @param {any} item
 * @param {boolean} template
 * @returns {Registration | null}
 */
function frameSnapshot(conn, item, template) {
  if (item === null || typeof item !== "object") return null;
  const key = template ? item.uriTemplate : item.uri;
  if (typeof key !== "string") return null;
  const mime = typeof item.mimeType === "string" ? item.mimeType : DEFAULT_MIME_TYPE;
  /** @type {any} */
  const desc = { name: item.name, title: item.title, description: item.description, mimeType: item.mimeType, annotations: item.annotations };
  if (template) {
    const parts = splitTemplate(key);
    desc.uriTemplate = key;
    desc.get = (/** @type {any} */ params) => frameRead(conn, typeof parts === "string" ? key : expandTemplate(parts, params), mime);
  } else {
    desc.uri = key;
    desc.get = () => frameRead(conn, key, mime);
    if (conn.subscribe) desc.subscribe = (/** @type {() => void} */ onChange) => frameSubscribe(conn, key, onChange);
  }
  if (Array.isArray(item.icons) && badIcons(readIcons(item.icons)) === null) desc.icons = item.icons;
  const s = snapshot(desc);
  const problem = validate(s);
  if (!problem) {
    if (s.icons !== undefined) for (const icon of s.icons) icon.src = frameIconURL(conn, icon.src);
    return s;
  }
  if (!conn.warnedInvalid) {
    conn.warnedInvalid = true;
    console.warn(`modelcontext: connectFrame: ${frameLabel(conn)} lists a resource the page cannot list (the first such entry; others are skipped without a word): ${problem}`);
  }
  return null;
}

/**
 * frameIconURL is a frame's icon src as listed: a URL as it is, a path
 * resolved against the frame's URL (never the page's).
 * @param {FrameConn} conn
 * @param {string} src a valid icon src (badIcons)
 */
function frameIconURL(conn, src) {
  if (URL_SCHEME.test(src)) return src;
  try {
    return new URL(src, conn.base).href;
  } catch {
    return conn.origin + "/";
  }
}

/**
 * frameSignature is what a proxy lists, to tell a changed one from the same.
 * @param {Registration} s
 */
function frameSignature(s) {
  return JSON.stringify([s.name, s.title, s.description, s.mimeType, s.annotations, s.icons, typeof s.subscribe]);
}

/**
 * expandTemplate writes a template's uri for params, each variable
 * percent-encoded (the frame's server decodes it again).
 * @param {string[]} parts
 * @param {any} params
 */
function expandTemplate(parts, params) {
  let uri = "";
  for (let i = 0; i < parts.length; i++) uri += i % 2 === 0 ? parts[i] : encodeURIComponent(String(params[parts[i]]));
  return uri;
}
