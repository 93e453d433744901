// @ts-check
// changes.js: following the page at the least cost. The page's revision
// steps once per resourceupdated and resourcelistchanged; each registration
// keeps the revisions it entered the list and last changed at, and the
// removals are remembered, so that changesSince calls no getter. Patches
// (RFC 6902, patch.js) are made between JSON texts: the comparison key of a
// plain pushed value is its JSON text, so a push pays nothing more for them.

// Removals remembered (the list changes a registration does not keep); an
// older revision answers reset.
const REMOVALS_KEPT = 1024;
/** @type {{uri: string, addedAt: number, at: number}[]} */
const removals = [];
let forgottenBefore = 0;

/**
 * @typedef {object} Pending a list change waiting for its revision: r
 * registered (replaced: it took another's place), or a removal
 * @property {Registration | null} r
 * @property {boolean} replaced
 * @property {{uri: string, addedAt: number, at: number} | null} removal
 */
/** @type {Pending[]} */
const pendingChanges = [];

/**
 * noteRegistered stamps r, which entered the list or replaced old there, at
 * the step its resourcelistchanged makes (stepList).
 * @param {Registration} r
 * @param {Registration | undefined} old
 */
function noteRegistered(r, old) {
  r.addedAt = old ? old.addedAt : pageRevision.value + 1;
  if (!r.template) pendingChanges.push({ r, replaced: !!old, removal: null });
}

/**
 * noteRemoved remembers that r left the list.
 * @param {Registration} r
 */
function noteRemoved(r) {
  if (!r.template) pendingChanges.push({ r: null, replaced: false, removal: { uri: r.key, addedAt: r.addedAt, at: 0 } });
}

// stepList steps the revision for one resourcelistchanged and stamps the
// list changes it reports.
function stepList() {
  const n = ++pageRevision.value;
  for (const p of pendingChanges) {
    if (p.r !== null) {
      if (p.replaced) p.r.changedAt = n;
      else p.r.addedAt = n;
    } else if (p.removal !== null) {
      p.removal.at = n;
      removals.push(p.removal);
      if (removals.length > REMOVALS_KEPT) forgottenBefore = /** @type {{at: number}} */ (removals.shift()).at;
    }
  }
  pendingChanges.length = 0;
  return n;
}

/**
 * stepPush steps the revision for the resourceupdated of r.
 * @param {Registration} r
 */
function stepPush(r) {
  return (r.changedAt = ++pageRevision.value);
}

/**
 * changesNow answers changesSince(since), since already checked.
 * @param {number} since
 */
function changesNow(since) {
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
  for (const x of removals) if (x.at > since && x.addedAt <= since && !resources.has(x.uri)) removed.add(x.uri);
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
function snapOf(text) {
  return { text, json: undefined, parsed: false };
}

/** @param {Snap} s */
function parsedSnap(s) {
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
const pushedKeys = [];
// The snapshot of the push being delivered, shared by its consumers, and the
// last patch made from it (consumers handed the same previous value share it).
let pushedAt = -1;
let pushedHandle = 0;
/** @type {Snap | null} */
let pushedSnap = null;
/** @type {Snap | null} */
let patchedFrom = null;
/** @type {{ops: any[], text: string} | null} */
let patchMade = null;

/**
 * snapOfPush returns the JSON text of the pushed value h, for the push being
 * delivered, or null when it is not plain JSON data.
 * @param {number} h
 */
function snapOfPush(h) {
  if (pushedAt === pageRevision.value && pushedHandle === h) return pushedSnap;
  let k = pushedKeys[h];
  if (k === undefined) {
    try {
      k = keyOf(vals[h]);
    } catch {
      k = null;
    }
  }
  const text = jsonTextOfKey(k);
  pushedAt = pageRevision.value;
  pushedHandle = h;
  pushedSnap = text === null ? null : snapOf(text);
  patchedFrom = patchMade = null;
  return pushedSnap;
}

/**
 * patchBetween returns the patch from prev to cur (cur: the push being
 * delivered) and its JSON text, or null when there is no previous JSON value.
 * @param {Snap | null | undefined} prev
 * @param {Snap} cur
 */
function patchBetween(prev, cur) {
  if (!prev) return null;
  if (cur === pushedSnap && prev === patchedFrom) return patchMade;
  let made = null;
  try {
    const ops = jsonPatch(parsedSnap(prev), parsedSnap(cur));
    made = { ops, text: JSON.stringify(ops) };
  } catch {} // a kept text that is not JSON (UTF-8 bytes under a JSON type): no patch
  if (cur === pushedSnap) {
    patchedFrom = prev;
    patchMade = made;
  }
  return made;
}

/**
 * @typedef {object} PatchState a patch subscription's previous value
 * @property {Snap | null} prev
 */

/**
 * patchInfo is the third argument of a {patch: true} subscription's handler
 * for the pushed value h: the revision and the patch from the value it was
 * handed last, or null (no previous value, not JSON, or longer than the
 * value). Each handler gets a patch of its own.
 * @param {PatchState} s
 * @param {number} h
 */
function patchInfo(s, h) {
  const cur = snapOfPush(h);
  const p = cur === null ? null : patchBetween(s.prev, cur);
  s.prev = cur;
  if (devtools.hook !== null) notePatchInfo(h, p, cur);
  return { revision: pageRevision.value, patch: p === null || cur === null || p.text.length > cur.text.length ? null : JSON.parse(p.text) };
}

/**
 * notePatchInfo notes what patchInfo hands the subscriber being called (by
 * its place in the delivery: "subscriber 2"), as patchInfo decides it.
 * @param {number} h
 * @param {{text: string} | null} p
 * @param {Snap | null} cur
 */
function notePatchInfo(h, p, cur) {
  const e = reaching[h];
  const patched = p !== null && cur !== null && p.text.length <= cur.text.length;
  if (e !== undefined) noteGot(h, "subscriber " + e.subscribers, patched ? "patch" : "value", patched ? p.text : null, cur);
}

/**
 * patchStateOf starts a patch subscription of r: its first patch is from the
 * last value dispatched before it.
 * @param {Registration} r
 * @returns {PatchState}
 */
function patchStateOf(r) {
  const text = jsonTextOfKey(r.base);
  return { prev: text === null ? null : snapOf(text) };
}

// ---- What MCP sessions that follow changes last received -------------------

/** @typedef {{uris: Map<string, Snap>, size: number}} Memory */
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
function forgetSession(server, session) {
  memories.delete(server + " " + session);
}

/**
 * remember keeps s as what m last received of uri, the oldest dropped past
 * SESSION_MEMORY.
 * @param {Memory} m
 * @param {string} uri
 * @param {Snap} s
 */
function remember(m, uri, s) {
  const old = m.uris.get(uri);
  if (old) {
    m.size -= old.text.length;
    m.uris.delete(uri);
  }
  m.uris.set(uri, s);
  m.size += s.text.length;
  for (const [u, x] of m.uris) {
    if (m.size <= SESSION_MEMORY) break;
    m.uris.delete(u);
    m.size -= x.text.length;
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
function attachChanges(server, session, params, h, max) {
  // What the session receives, for the DevTools panel: "neither" unless a patch or the contents go below.
  const got = devtools.hook !== null ? noteGot(h, followerName(server, session), "neither", null, null) : null;
  const uri = params.uri;
  const r = resources.get(uri);
  if (!r || mimeClassOf(r) !== MIME_JSON) return;
  const cur = snapOfPush(h);
  if (cur === null) {
    forgetRead(server, session, uri); // not JSON: the client reads it, and the next JSON value goes whole
    return;
  }
  const m = memoryOf(server, session);
  const p = patchBetween(m.uris.get(uri), cur);
  if (p !== null && p.text.length < cur.text.length) params._meta[META_PATCH] = p.ops;
  else if (cur.text.length <= max) params._meta[META_CONTENTS] = [{ uri, mimeType: r.mimeType, text: cur.text }];
  else {
    forgetRead(server, session, uri);
    return;
  }
  if (got !== null) gotChanges(got, params, p, cur);
  remember(m, uri, cur);
}

/**
 * keepRead keeps the text a session that follows changes read of a JSON
 * resource as what it last received.
 * @param {number} server
 * @param {string} session
 * @param {any} content the read's contents[0]
 */
function keepRead(server, session, content) {
  if (mimeClass(content.mimeType) === MIME_JSON && typeof content.text === "string") remember(memoryOf(server, session), content.uri, snapOf(content.text));
  else forgetRead(server, session, content.uri);
}

/**
 * forgetRead drops what a session last received of uri, which it has just
 * read as something a patch cannot start from (binary content).
 * @param {number} server
 * @param {string} session
 * @param {string} uri
 */
function forgetRead(server, session, uri) {
  const m = memories.get(server + " " + session);
  if (m) {
    const old = m.uris.get(uri);
    if (old) m.size -= old.text.length;
    m.uris.delete(uri);
  }
}

// ---- What agents that follow changes received, for the DevTools panel ------

/**
 * @typedef {object} Got what an agent that follows changes received of a
 * push, noted while a DevTools hook listens (host.js's Reach): a patch (its
 * JSON text), the value (a subscriber) or the contents (an MCP session), or
 * neither (a bare update); value is the pushed value's JSON text, null when
 * it has none
 * @property {string} to
 * @property {string} kind
 * @property {string | null} patch
 * @property {string | null} value
 */

/**
 * noteGot notes that the agent to received kind of the push of value h,
 * onto what that push reached (host.js's reaching), and returns the note,
 * or null when the push is not noted (made before the hook listened).
 * @param {number} h
 * @param {string} to
 * @param {string} kind
 * @param {string | null} patch
 * @param {Snap | null} cur
 * @returns {Got | null}
 */
function noteGot(h, to, kind, patch, cur) {
  const e = reaching[h];
  if (e === undefined) return null;
  const g = { to, kind, patch, value: cur === null ? null : cur.text };
  if (e.got === null) e.got = [g];
  else e.got.push(g);
  return g;
}

/**
 * followerName names an MCP client as server.js's reachMCP does: "MCP
 * session s1 on mcp-default", "MCP client on mcp-default".
 * @param {number} server
 * @param {string} session
 */
function followerName(server, session) {
  const srv = mcpServers.get(server);
  const channel = srv ? srv.channel : "?";
  if (session) return `MCP session ${session} on ${channel}`;
  return `MCP client${!srv || srv.win === window ? "" : " in the parent window"} on ${channel}`;
}

/**
 * gotChanges says which of a patch and the contents attachChanges put in
 * params._meta, and the value's JSON text.
 * @param {Got} got
 * @param {any} params
 * @param {{ops: any[], text: string} | null} p the patch made
 * @param {Snap} cur
 */
function gotChanges(got, params, p, cur) {
  const patched = p !== null && params._meta[META_PATCH] === p.ops;
  got.kind = patched ? "patch" : "contents";
  got.patch = patched ? p.text : null;
  got.value = cur.text;
}
