// @ts-check
// observe.js: what DevTools' Model Context panel (inspect.js's hook) sees of
// the running module, and all the bookkeeping for it. While a hook listens,
// observe swaps in host functions (dispatch, deliver, release, mcpPost) and
// a hand-off of a push's result to Go (toGo) that note each push's outcome,
// what it reached and what each follower got; without one the plain
// functions run, with no check of the hook. The other events come through
// the note… functions: a registration, an unregistration, boot, an MCP
// message and the resource tools.
import { patchFits, pushPatch, pushedKeys } from "./changes.js";
import { str } from "./encode.js";
import { frameOf } from "./frameclient.js";
import { vals } from "./handles.js";
import { handlers, host, mcPush } from "./host.js";
import { mayHear } from "./events.js";
import { mcpPost, mcpServers } from "./server.js";
import { readResource } from "../api.js";
import { devtools, inspectEmit } from "../inspect.js";
import { listening, pagesOwn } from "../page.js";
import { listed, tableOf, templates } from "../table.js";
import { describe } from "../values.js";
/** @typedef {import("./changes.js").Snap} Snap */
/** @typedef {import("./server.js").Transport} Transport */
/** @typedef {import("../table.js").Registration} Registration */

/**
 * @typedef {object} Reach the consumers a push has reached: the
 * resourceupdated listeners that heard it (-1: some, uncounted, on a page's
 * own object), the subscribeResource handlers called, the MCP clients sent
 * notifications/resources/updated (null: none), and what each agent that
 * follows changes received of it (null: none)
 * @property {string} uri
 * @property {number} n
 * @property {number} listeners
 * @property {number} subscribers
 * @property {string[] | null} mcp
 * @property {Got[] | null} got
 */
/**
 * @typedef {object} Got what an agent that follows changes received of a
 * push: a patch (its JSON text), the value (a subscriber) or the contents
 * (an MCP session), or neither (a bare update); value is the pushed value's
 * JSON text, null when it has none
 * @property {string} to
 * @property {string} kind
 * @property {string | null} patch
 * @property {string | null} value
 */
/** @type {(Reach | undefined)[]} a dispatched value's handle → what it reached so far */
const reaching = [];
/** @type {Reach | null} the push whose delivery is in progress, if noted */
let reach = null;
/** @type {any} the plain host functions, taken at the first swap (observed calls them) */
let plain = null;

/**
 * toGo hands Go push n of r's result (host.js's result and failed): mcPush,
 * or observedPush while a hook listens.
 * @type {(r: Registration, n: number, res: number, h: number) => number}
 */
export let toGo = mcPush;

/**
 * observe swaps the observed host functions and toGo in (on) or out, as a
 * hook attaches or detaches once the module runs (inspect.js).
 * @param {boolean} on
 */
export function observe(on) {
  plain ||= { ...host };
  Object.assign(host, on ? observed : plain);
  toGo = on ? observedPush : mcPush;
  reaching.length = 0;
  reach = null;
}

const observed = {
  dispatch(/** @type {number} */ id, /** @type {number} */ h) {
    reachStart(h, mayHear("resourceupdated"));
    plain.dispatch(id, h);
  },
  // Each subscribeResource handler, and what a {patch: true} one is handed
  // (by its place in the delivery: "subscriber 2").
  deliver(/** @type {number} */ sub, /** @type {number} */ h) {
    const s = handlers.get(sub);
    const e = reaching[h];
    if (s && e) {
      e.subscribers++;
      if (s.patch !== null) {
        const p = pushPatch(s.uri, h);
        const fits = patchFits(s.patch, p);
        noteGot(e, "subscriber " + e.subscribers, fits ? "patch" : "value", fits ? p.opsText : null, p.text);
      }
    }
    return plain.deliver(sub, h);
  },
  // A queued push's value, released once delivered: what it reached.
  release(/** @type {number} */ h) {
    const e = reachTake(h);
    if (e !== undefined) inspectEmit("reached", e);
    plain.release(h);
  },
  mcpPost(/** @type {number} */ server, /** @type {number} */ sp, /** @type {number} */ sn, /** @type {number} */ p, /** @type {number} */ n,
    /** @type {number} */ attach, /** @type {number} */ first, /** @type {number} */ count, /** @type {number} */ h) {
    const session = sn ? str(sp, sn) : "";
    const payload = mcpPost(server, session, str(p, n), attach, first, count, h);
    const srv = mcpServers.get(server);
    const e = reaching[h];
    if (attach === ATTACH_CHANGES && e) noteChanges(e, followerName(srv, session), payload.params, h);
    if (srv && reach !== null && payload.method === "notifications/resources/updated") reachMCP(srv, session, payload);
  },
};

/**
 * observedPush is mcPush, which also tells the hook the push's outcome and,
 * once it is known, what it reached.
 * @param {Registration} r
 * @param {number} n
 * @param {number} res
 * @param {number} h
 */
function observedPush(r, n, res, h) {
  const k = res === RESULT_SAME ? r.base : pushedKeys[h];
  const fresh = res === RESULT_DIFFERENT || res === RESULT_NO_KEY;
  if (fresh) reaching[h] = { uri: r.key, n, listeners: 0, subscribers: 0, mcp: null, got: null };
  const outcome = mcPush(r, n, res, h);
  if (outcome < 0) return outcome; // result throws it
  const sent = outcome === DISPATCHED || outcome === DELIVERED;
  // Delivered at once: what it reached is known now; queued: release says it later.
  const to = outcome === DISPATCHED ? undefined : reachTake(h);
  inspectEmit("push", res === RESULT_THREW ? { uri: r.key, n, outcome: "get threw", error: describe(vals[h]) }
    : !fresh ? { uri: r.key, n, outcome: outcome === SUPPRESSED ? "suppressed" : "dropped as stale", key: k }
    : { uri: r.key, n, outcome: !sent ? "dropped as stale" : k === null ? "failed open" : "dispatched", settle: r.settle > 0, value: k === null ? vals[h] : undefined, key: k,
      queued: outcome === DISPATCHED, reached: sent ? to : undefined });
  if (devtools.hook === null) observe(false); // the hook threw and was detached (inspectEmit)
  return outcome;
}

/**
 * reachStart makes the push of value h the delivery in progress, as Go
 * fires its resourceupdated (heard: the event is made), and counts the
 * listeners it is made for: each function once (added for both phases
 * too), and the on… handler.
 * @param {number} h
 * @param {boolean} heard
 */
function reachStart(h, heard) {
  reach = reaching[h] || null;
  if (reach === null || !heard) return;
  const l = listening.resourceupdated;
  // A page's own object: its listeners are not all seen.
  reach.listeners = pagesOwn ? -1 : l.added.size + (l.handler ? 1 : 0);
}

/**
 * reachTake forgets and returns what the push of value h reached.
 * @param {number} h
 */
function reachTake(h) {
  const e = reaching[h];
  if (e === undefined) return undefined;
  reaching[h] = undefined;
  if (reach === e) reach = null;
  return e;
}

/**
 * reachMCP notes the MCP client an updated notification goes to as reached
 * by the push being delivered, once per client.
 * @param {Transport} srv
 * @param {string} session
 * @param {any} payload
 */
function reachMCP(srv, session, payload) {
  const e = /** @type {Reach} */ (reach);
  if (srv.win === null || !payload.params || payload.params.uri !== e.uri) return;
  const who = followerName(srv, session);
  if (e.mcp === null) e.mcp = [who];
  else if (!e.mcp.includes(who)) e.mcp.push(who);
}

/**
 * noteChanges notes what changes.js's attachChanges put in an update's
 * _meta for the session to: a patch, the contents, or neither.
 * @param {Reach} e what the push of value h reached
 * @param {string} to
 * @param {any} params
 * @param {number} h
 */
function noteChanges(e, to, params, h) {
  const patch = params._meta[META_PATCH];
  const contents = params._meta[META_CONTENTS];
  if (patch) noteGot(e, to, "patch", JSON.stringify(patch), pushPatch(params.uri, h).text);
  else noteGot(e, to, contents ? "contents" : "neither", null, contents ? contents[0].text : null);
}

/**
 * noteGot notes that the agent to received kind of a push, onto what the
 * push reached (e).
 * @param {Reach} e
 * @param {string} to
 * @param {string} kind
 * @param {string | null} patch
 * @param {string | null} value the pushed value's JSON text
 */
function noteGot(e, to, kind, patch, value) {
  const g = { to, kind, patch, value };
  if (e.got === null) e.got = [g];
  else e.got.push(g);
}

/**
 * followerName names an MCP client: "MCP session s1 on mcp-default", "MCP
 * client on mcp-default".
 * @param {Transport | undefined} srv
 * @param {string} session
 */
function followerName(srv, session) {
  const channel = srv ? srv.channel : "?";
  if (session) return `MCP session ${session} on ${channel}`;
  return `MCP client${!srv || srv.win === window ? "" : " in the parent window"} on ${channel}`;
}

/**
 * noteRegister tells the hook that r was registered, or replaced old.
 * @param {Registration} r
 * @param {Registration | undefined} old
 */
export function noteRegister(r, old) {
  if (devtools.hook !== null) inspectEmit(old ? "replace" : "register", { uri: r.key, template: tableOf(r) === templates, frame: r.id >= FRAME_ID_BASE ? frameOf(r) : null, descriptor: listed(r) });
}

/**
 * noteUnregister tells the hook that r was unregistered.
 * @param {Registration} r
 */
export function noteUnregister(r) {
  if (devtools.hook !== null) inspectEmit("unregister", { uri: r.key });
}

// noteBooted swaps the observed functions in when a hook listens already
// as the module starts running (lifecycle.js's booted), and says so.
export function noteBooted() {
  if (devtools.hook === null) return;
  observe(true);
  inspectEmit("boot", { state: "booted", why: devtools.why });
}

/**
 * noteMessage tells the hook of an MCP message a server reads (server.js).
 * @param {string} origin
 * @param {string} channel
 * @param {string | undefined} session
 * @param {boolean} parent
 * @param {any} message
 */
export function noteMessage(origin, channel, session, parent, message) {
  if (devtools.hook !== null) inspectEmit("mcp", { origin, channel, session: session || "", parent, message });
}

/**
 * noteTool tells the hook that a resource tool was called (resourcetools.js).
 * @param {string} name
 * @param {boolean} native
 */
export function noteTool(name, native) {
  if (devtools.hook !== null) inspectEmit("tool", { name, host: native ? "WebMCP" : "polyfill" });
}

/**
 * readFor reads uri for a tool, which the panel's timeline names as the
 * reader (api.js's readResource reads devtools.by).
 * @param {boolean} native
 * @param {string} uri
 */
export function readFor(native, uri) {
  devtools.by = native ? "tool on WebMCP" : "tool on a polyfill";
  try {
    return readResource(uri);
  } finally {
    devtools.by = "";
  }
}

/**
 * noteToolGave tells the hook what read_changes' answer gave of each uri: a
 * patch (its JSON text) or the value, with the value's JSON text (kept in
 * gave, what the tool gave), or removed, binary or an error.
 * @param {boolean} native
 * @param {number} revision
 * @param {number | undefined} since
 * @param {any[]} changes
 * @param {Map<string, Snap>} gave
 */
export function noteToolGave(native, revision, since, changes, gave) {
  if (devtools.hook === null) return;
  inspectEmit("received", { to: "read_changes", host: native ? "WebMCP" : "polyfill", revision, since, changes: changes.map((c) => {
    const v = gave.get(c.uri);
    const kind = c.patch ? "patch" : c.removed ? "removed" : c.error ? "error" : c.blob ? "binary" : "value";
    return { uri: c.uri, kind, patch: c.patch ? JSON.stringify(c.patch) : null, value: v ? v.text : null };
  }) });
}
