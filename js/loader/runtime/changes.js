// @ts-check
// changes.js: following the page at the least cost. The page's revision
// steps once per resourceupdated and resourcelistchanged; each registration
// keeps the revisions it entered the list and last changed at, and the
// removals are remembered, so that changesSince calls no getter. Patches
// (RFC 6902, patch.js) are made between JSON texts: the comparison key of a
// plain pushed value is its JSON text, so a push pays nothing more for them.
import { vals } from "./handles.js";
import { PLAIN_DEPTH, keyOf } from "./keys.js";
import { inListOrder } from "./lookup.js";
import { jsonPatch, jsonPatchApply } from "./patch.js";
import { MIME_JSON, mimeClass, mimeClassOf } from "./server.js";
import { pageRevision } from "../api.js";
import { resources } from "../table.js";
/** @typedef {import("../table.js").Registration} Registration */

// Removals remembered (the list changes a registration does not keep), in
// a ring of REMOVALS_KEPT: a uri, the revision it entered the list at and the
// one it left at (0 until its resourcelistchanged steps). An older revision
// than the ring holds answers reset. Nothing is allocated per list change.
const REMOVALS_KEPT = 1024;
/** @type {string[]} */
const removedURIs = new Array(REMOVALS_KEPT).fill("");
const removedAdded = new Float64Array(REMOVALS_KEPT);
const removedAt = new Float64Array(REMOVALS_KEPT);
let removalsMade = 0;
let removalsPending = 0;
let forgottenBefore = 0;

// The registrations waiting for the step of their resourcelistchanged, and
// whether each replaced another (then it is stamped updated, not added).
/** @type {Registration[]} */
const pendingRegs = [];
/** @type {boolean[]} */
const pendingReplaced = [];

/**
 * noteRegistered stamps r, which entered the list or replaced old there, at
 * the step its resourcelistchanged makes (stepList).
 * @param {Registration} r
 * @param {Registration | undefined} old
 */
export function noteRegistered(r, old) {
  r.addedAt = old ? old.addedAt : pageRevision.value + 1;
  if (old) r.pushedAt = old.pushedAt; // a replacement's first push patches from the value before it
  if (r.template) return;
  pendingRegs.push(r);
  pendingReplaced.push(old !== undefined);
}

/**
 * noteRemoved remembers that r left the list.
 * @param {Registration} r
 */
export function noteRemoved(r) {
  if (r.template) return;
  const i = removalsMade++ % REMOVALS_KEPT;
  if (removalsMade > REMOVALS_KEPT) {
    // The oldest is forgotten: changesSince before it answers reset.
    forgottenBefore = removedAt[i] !== 0 ? removedAt[i] : pageRevision.value + 1;
  }
  removedURIs[i] = r.key;
  removedAdded[i] = r.addedAt;
  removedAt[i] = 0;
  removalsPending++;
}

// stepList steps the revision for one resourcelistchanged and stamps the
// list changes it reports.
export function stepList() {
  const n = ++pageRevision.value;
  for (let i = 0; i < pendingRegs.length; i++) {
    if (pendingReplaced[i]) pendingRegs[i].changedAt = n;
    else pendingRegs[i].addedAt = n;
  }
  pendingRegs.length = 0;
  pendingReplaced.length = 0;
  for (; removalsPending > 0; removalsPending--) removedAt[(removalsMade - removalsPending) % REMOVALS_KEPT] = n;
  return n;
}

/**
 * stepPush steps the revision for the resourceupdated of r.
 * @param {Registration} r
 */
export function stepPush(r) {
  r.prevPushedAt = r.pushedAt;
  return (r.changedAt = r.pushedAt = ++pageRevision.value);
}

/**
 * changesNow answers changesSince(since), since already checked.
 * @param {number} since
 */
export function changesNow(since) {
  const revision = pageRevision.value;
  if (since < forgottenBefore) return { revision, reset: true };
  /** @type {string[]} */
  const updated = [];
  /** @type {string[]} */
  const added = [];
  for (const r of inListOrder(resources)) {
    if (r.addedAt > since) added.push(r.key);
    else if (r.changedAt > since) updated.push(r.key);
  }
  /** @type {Set<string>} */
  const removed = new Set();
  for (let k = Math.max(0, removalsMade - REMOVALS_KEPT); k < removalsMade; k++) {
    const i = k % REMOVALS_KEPT;
    const at = removedAt[i] === 0 ? Infinity : removedAt[i]; // 0: its step is still to come
    if (at > since && removedAdded[i] <= since && !resources.has(removedURIs[i])) removed.add(removedURIs[i]);
  }
  return { revision, updated, added, removed: Array.from(removed) };
}

// ---- Patches -------------------------------------------------------------

/**
 * @typedef {object} Snap a JSON text a consumer was handed, parsed once needed
 * @property {string} text
 * @property {any} json
 * @property {boolean} parsed
 */

/** @param {string} text @returns {Snap} */
export function snapOf(text) {
  return { text, json: undefined, parsed: false };
}

/** @param {Snap} s */
export function parsedSnap(s) {
  if (!s.parsed) {
    s.json = JSON.parse(s.text);
    s.parsed = true;
  }
  return s.json;
}

/**
 * jsonTextOfKey returns the JSON text of a value whose comparison key is k,
 * or null where the value is not plain JSON data: the key of a Map, binary
 * content or a string that starts with "\0" holds an escaped NUL, and a
 * value with no JSON text (undefined) starts with one.
 * @param {string | null | undefined} k
 */
function jsonTextOfKey(k) {
  return typeof k === "string" && k.charCodeAt(0) !== 0 && k.indexOf("\\u0000") < 0 ? k : null;
}

/** @type {(string | null | undefined)[]} value handle → its comparison key (runtime/host.js's result) */
export const pushedKeys = [];

// A uri's shadow is its last dispatched value as JSON, kept while something
// follows it by patches and updated by each push's patch: a push diffs the
// live value against it, so it neither parses the new value's text nor
// stringifies more than the patch. Every subscription and session that was
// handed the previous push shares the push's one patch.
/** @typedef {{json: any, rev: number}} Shadow */
/** @type {Map<string, Shadow>} */
const shadows = new Map();

/**
 * @typedef {object} Pushed what the push being delivered changed: its JSON
 * text (null: not plain JSON data), the revision of the value the patch
 * starts from (-1: none), and the patch's JSON text (null: none)
 * @property {string | null} text
 * @property {number} from
 * @property {string | null} opsText
 * @property {any[] | null} shared a parse of opsText, for the MCP sessions of this push
 */
let pushedAt = -1;
let pushedHandle = 0;
/** @type {Pushed} */
let pushed = { text: null, from: -1, opsText: null, shared: null };

/**
 * pushPatch returns what the push of value h to uri, the one being
 * delivered, changed since the uri's previous push, once per push: the first
 * consumer that follows by patches makes it, and moves the shadow on (what
 * observe.js reads again for the DevTools panel is the same push's, kept).
 * @param {string} uri
 * @param {number} h
 * @returns {Pushed}
 */
export function pushPatch(uri, h) {
  const r = resources.get(uri);
  // The push's own revision, which a listener's list change does not move.
  const at = r !== undefined ? r.pushedAt : -1;
  if (pushedAt === at && pushedHandle === h) return pushed;
  pushedAt = at;
  pushedHandle = h;
  let k = pushedKeys[h];
  if (k === undefined) {
    try {
      k = keyOf(vals[h]);
    } catch {
      k = null;
    }
  }
  const text = jsonTextOfKey(k);
  const sh = shadows.get(uri);
  const from = sh !== undefined && r !== undefined && sh.rev === r.prevPushedAt ? sh.rev : -1;
  pushed = { text, from, opsText: null, shared: null };
  if (text === null || r === undefined) shadows.delete(uri);
  else if (sh === undefined || from < 0) shadows.set(uri, { json: JSON.parse(text), rev: pushedAt });
  else {
    try {
      const v = vals[h];
      if (patchExact(v, 0)) {
        pushed.opsText = JSON.stringify(jsonPatch(sh.json, v));
        sh.json = jsonPatchApply(sh.json, JSON.parse(pushed.opsText));
      } else { // undefined members, NaN: diff the JSON form
        const json = JSON.parse(text);
        pushed.opsText = JSON.stringify(jsonPatch(sh.json, json));
        sh.json = json;
      }
      sh.rev = pushedAt;
    } catch {
      pushed.opsText = null;
      shadows.delete(uri);
    }
  }
  return pushed;
}

/**
 * patchExact reports whether JSON.parse(JSON.stringify(v)) is v's own shape,
 * for plain data (runtime/keys.js's plainKey): no member whose value JSON
 * leaves out, no array item it turns into null, no number it cannot write.
 * @param {any} v
 * @param {number} depth
 * @returns {boolean}
 */
function patchExact(v, depth) {
  if (typeof v === "number") return Number.isFinite(v);
  if (typeof v !== "object" || v === null) return typeof v === "string" || typeof v === "boolean" || v === null;
  if (depth > PLAIN_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !patchExact(v[i], depth + 1)) return false;
    return true;
  }
  for (const k in v) if (!patchExact(v[k], depth + 1)) return false;
  return true;
}

/**
 * shadowOf makes sure uri has a shadow of its last dispatched value, for a
 * consumer that starts following it, and returns the revision that value
 * was pushed at (-1: none to start from).
 * @param {Registration} r
 */
function shadowOf(r) {
  const sh = shadows.get(r.key);
  if (sh !== undefined && sh.rev === r.pushedAt) return sh.rev;
  const text = jsonTextOfKey(r.base);
  if (text === null || r.pushedAt === 0) return -1;
  shadows.set(r.key, { json: JSON.parse(text), rev: r.pushedAt });
  return r.pushedAt;
}

/**
 * A {patch: true} subscription's state: the revision of the value it was
 * handed last (-1: none, or not JSON).
 * @typedef {{last: number}} PatchState
 */

/**
 * patchInfo is the third argument of a {patch: true} subscription's handler
 * for the pushed value h: the revision and the patch from the value it was
 * handed last, or null (no previous value, not JSON, or longer than the
 * value). Each handler gets a patch of its own.
 * @param {PatchState} s
 * @param {string} uri
 * @param {number} h
 */
export function patchInfo(s, uri, h) {
  const p = pushPatch(uri, h);
  const ok = patchFits(s, p);
  s.last = p.text === null ? -1 : pushedAt;
  return { revision: pageRevision.value, patch: ok ? JSON.parse(/** @type {string} */ (p.opsText)) : null };
}

/**
 * patchFits reports whether a {patch: true} subscription in state s is
 * handed the push p's patch (patchInfo): it was handed the value the patch
 * starts from, and the patch is not longer than the value.
 * @param {PatchState} s
 * @param {Pushed} p
 */
export function patchFits(s, p) {
  return p.opsText !== null && p.text !== null && s.last === p.from && p.opsText.length <= p.text.length;
}

/**
 * patchStateOf starts a patch subscription of r: its first patch is from the
 * last value dispatched before it.
 * @param {Registration} r
 * @returns {PatchState}
 */
export function patchStateOf(r) {
  return { last: shadowOf(r) };
}

/**
 * patchBetween returns the patch from prev to cur and its JSON text, or
 * null when there is no previous JSON value (read_changes, and a session's
 * first update after a read).
 * @param {Snap | null | undefined} prev
 * @param {Snap} cur
 */
export function patchBetween(prev, cur) {
  return prev ? patchOrNull(() => jsonPatch(parsedSnap(prev), parsedSnap(cur))) : null;
}

/**
 * patchFromText returns the patch from the JSON text a session read to the
 * parsed value cur and its JSON text, or null when the text is not JSON.
 * @param {string} prevText
 * @param {any} cur
 */
function patchFromText(prevText, cur) {
  return patchOrNull(() => jsonPatch(JSON.parse(prevText), cur));
}

/**
 * patchOrNull returns the patch make returns and its JSON text, or null when
 * a kept text is not JSON (UTF-8 bytes under a JSON type).
 * @param {() => any[]} make
 */
function patchOrNull(make) {
  try {
    const ops = make();
    return { ops, text: JSON.stringify(ops) };
  } catch {
    return null;
  }
}

// ---- What MCP sessions that follow changes last received -------------------

/**
 * What a session last received of a uri: the revision of the pushed value
 * an update gave it, or the text a read gave it (rev -1); size counts the
 * text, against SESSION_MEMORY.
 * @typedef {{rev: number, text: string | null, size: number}} Received
 * @typedef {{uris: Map<string, Received>, size: number}} Memory
 */
/** @type {Map<string, Memory>} "<server> <session>" → what it last received */
const memories = new Map();

/**
 * memoryOf is what a session of server last received.
 * @param {number} server
 * @param {string} session
 */
function memoryOf(server, session) {
  const key = server + " " + session;
  let m = memories.get(key);
  if (!m) memories.set(key, (m = { uris: new Map(), size: 0 }));
  return m;
}

/**
 * forgetSession drops what a session received (host.mcpForget).
 * @param {number} server
 * @param {string} session
 */
export function forgetSession(server, session) {
  memories.delete(server + " " + session);
}

/**
 * remember keeps x as what m last received of uri, the oldest dropped past
 * SESSION_MEMORY.
 * @param {Memory} m
 * @param {string} uri
 * @param {Received} x
 */
function remember(m, uri, x) {
  const old = m.uris.get(uri);
  if (old) {
    m.size -= old.size;
    m.uris.delete(uri);
  }
  m.uris.set(uri, x);
  m.size += x.size;
  for (const [u, y] of m.uris) {
    if (m.size <= SESSION_MEMORY) break;
    m.uris.delete(u);
    m.size -= y.size;
  }
}

/**
 * attachChanges adds to an update's _meta what the session lacks of the
 * pushed value h of a JSON resource: a patch from what it last received,
 * where shorter, else the contents (when within max), and keeps it.
 * @param {number} server
 * @param {string} session
 * @param {any} params the notification's params
 * @param {number} h
 * @param {number} max the most text contents may have (serveMCP's maxBytes)
 */
export function attachChanges(server, session, params, h, max) {
  const uri = params.uri;
  const r = resources.get(uri);
  if (!r || mimeClassOf(r) !== MIME_JSON) return;
  const p = pushPatch(uri, h);
  const text = p.text;
  if (text === null) {
    forgetRead(server, session, uri); // not JSON: the client reads it, and the next JSON value goes whole
    return;
  }
  const m = memoryOf(server, session);
  const ops = patchFor(m.uris.get(uri), p, uri);
  if (ops !== null && ops.text.length < text.length) params._meta[META_PATCH] = ops.ops;
  else if (text.length <= max) params._meta[META_CONTENTS] = [{ uri, mimeType: r.mimeType, text }];
  else {
    forgetRead(server, session, uri);
    return;
  }
  remember(m, uri, { rev: pushedAt, text: null, size: text.length });
}

/**
 * patchFor is the patch for a session that last received x of uri, to the
 * push p: the push's own, shared, when x is its previous value; one from the
 * text of a read (made against the uri's shadow, now the pushed value);
 * else null.
 * @param {Received | undefined} x
 * @param {Pushed} p
 * @param {string} uri
 * @returns {{ops: any[], text: string} | null}
 */
function patchFor(x, p, uri) {
  if (x === undefined) return null;
  if (x.rev >= 0) {
    if (x.rev !== p.from || p.opsText === null) return null;
    if (p.shared === null) p.shared = JSON.parse(p.opsText);
    return { ops: /** @type {any[]} */ (p.shared), text: p.opsText };
  }
  const sh = shadows.get(uri);
  if (x.text === null || sh === undefined) return null;
  const made = patchFromText(x.text, sh.json);
  return made === null ? null : { ops: JSON.parse(made.text), text: made.text };
}

/**
 * keepRead keeps the text a session that follows changes read of a JSON
 * resource as what it last received.
 * @param {number} server
 * @param {string} session
 * @param {any} content the read's contents[0]
 */
export function keepRead(server, session, content) {
  const text = content.text;
  if (mimeClass(content.mimeType) === MIME_JSON && typeof text === "string") remember(memoryOf(server, session), content.uri, { rev: -1, text, size: text.length });
  else forgetRead(server, session, content.uri);
}

/**
 * forgetRead drops what a session last received of uri, which it has just
 * read as something a patch cannot start from (binary content).
 * @param {number} server
 * @param {string} session
 * @param {string} uri
 */
export function forgetRead(server, session, uri) {
  const m = memories.get(server + " " + session);
  if (m) {
    const old = m.uris.get(uri);
    if (old) m.size -= old.size;
    m.uris.delete(uri);
  }
}
