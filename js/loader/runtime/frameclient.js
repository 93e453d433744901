// @ts-check
// frameclient.js: connectFrame's MCP client of the server that the page in
// an iframe serves for this page (MCP-B's iframe channel, revision
// 2025-11-25): its handshake, lists, reads and subscriptions. The frame's
// resources and templates are registered as the page's own by
// frameproxies.js: proxies with IDs from FRAME_ID_BASE, which Go and the
// cache list after the page's own, whose get reads through the frame and
// whose subscribe follows the frame's notifications/resources/updated, so
// that the frame's pushes are de-duplicated and dispatched by host.js's
// push like any other.
//
// A connection follows its iframe: a load event (the frame navigated)
// drops the frame's resources and connects to the new document; so does
// mcp-server-stopped, and the frame's next mcp-server-ready connects again;
// removing the iframe from the document ends the connection, as disconnect
// does.
//
// A frame is not trusted (its page may be anyone's): what it sends costs the
// page a bounded amount of work and memory. Of each of its lists, the first
// FRAME_MAX_ENTRIES entries are read; its list changes are applied at most
// once every FRAME_LIST_INTERVAL ms (FRAME_LIST_PACE), the latest winning;
// its invalid entries are warned about once; a uri has at most one read in
// flight, and an update notified meanwhile makes one read after it; a read
// unanswered for FRAME_TIMEOUT ms rejects with a TimeoutError; the
// subscriptions are asked FRAME_SYNC_BATCH a task, and not again for a
// resource registered again.
import { frameApply, frameOwners, frameUnregister } from "./frameproxies.js";
import { oneListChange } from "./lifecycle.js";
import { MIME_JSON, mimeClass } from "./server.js";
import { copyInfo, copyRest, notFound } from "../table.js";
import { describe, quietError } from "../values.js";
/** @typedef {import("../frames.js").FrameHandle} FrameHandle */
/** @typedef {import("../table.js").Registration} Registration */

// How long a frame has to answer a request, in ms.
const FRAME_TIMEOUT = 5000;
// At most this many pages of one list are followed (a cursor that never ends).
const FRAME_MAX_PAGES = 100;
// At most this many entries of each of a frame's lists (resources,
// templates) are read; the rest are not listed.
const FRAME_MAX_ENTRIES = 1000;
// A frame's list changes are applied at most once in this many ms, and
// no sooner after a list than FRAME_LIST_PACE times what that list took,
// whose answers the browser deserialized on the page's main thread: a frame
// that answers huge lists is listed seldom.
const FRAME_LIST_INTERVAL = 100;
const FRAME_LIST_PACE = 4;
// At most this many subscribe and unsubscribe requests are posted in one task.
const FRAME_SYNC_BATCH = 100;

let lastFrameRequest = 0;

/**
 * @typedef {object} FrameConn
 * @property {FrameHandle} handle
 * @property {HTMLIFrameElement} iframe
 * @property {string} origin
 * @property {number} session counts the frame's documents and servers: a request of an older one is forgotten
 * @property {"waiting" | "initializing" | "ready" | "ended"} phase
 * @property {boolean} subscribe the frame's server supports resources/subscribe
 * @property {Map<number, {resolve: (v: any) => void, reject: (e: any) => void, timer: any, uri: string}>} pending requests by JSON-RPC id
 * @property {boolean} listing a list request is in flight
 * @property {boolean} relist another list change came meanwhile, or waits for listTimer
 * @property {any} listTimer the timer of the next list (FRAME_LIST_INTERVAL after the last), or 0
 * @property {number} listedAt when the last list ended (performance.now())
 * @property {number} listTook how long the last list took, in ms
 * @property {Map<string, Registration>} resources the frame's resources registered, in the frame's order
 * @property {Map<string, Registration>} templates likewise its templates
 * @property {Map<string, () => void>} changes the onChange of each subscribed uri
 * @property {Set<string>} subscribed the uris the frame was asked to push (frameSync)
 * @property {boolean} syncing a frameSync is scheduled
 * @property {Map<string, Promise<any>>} reads the read in flight of each uri
 * @property {Set<string>} again the subscribed uris notified updated while a read of them was in flight
 * @property {Set<string>} warned the uris already warned about (registered by others: no more than the page has)
 * @property {boolean} warnedInvalid an invalid entry was warned about (once per document)
 * @property {boolean} warnedCut a cut list was warned about (once per document)
 * @property {string} base the URL a frame's icon paths resolve against: the iframe's as the session started
 * @property {boolean} attached the iframe was in the document
 * @property {Document | null} doc the frame's document as its session started, where the page can see it (same origin)
 * @property {(ev: MessageEvent) => void} onMessage
 * @property {() => void} onLoad
 * @property {MutationObserver | null} observer
 */

/** @type {Set<FrameConn>} */
const frameConns = new Set();

/**
 * frameConnect starts the connection of a connectFrame call.
 * @param {FrameHandle} handle
 */
export function frameConnect(handle) {
  const iframe = handle.iframe;
  /** @type {FrameConn} */
  const conn = {
    handle, iframe, origin: handle.origin, session: 0, phase: "waiting", subscribe: false, pending: new Map(), listing: false, relist: false,
    listTimer: 0, listedAt: -Infinity, listTook: 0, resources: new Map(), templates: new Map(), changes: new Map(), subscribed: new Set(), syncing: false, reads: new Map(), again: new Set(),
    warned: new Set(), warnedInvalid: false, warnedCut: false, base: "", attached: iframe.isConnected, doc: null,
    onMessage: (ev) => frameEvent(conn, ev),
    onLoad: () => {
      // The load event of the document the session is with (its server
      // answered before its images loaded) is no new document.
      if (conn.doc !== null && conn.iframe.contentDocument === conn.doc) return;
      frameDrop(conn);
      conn.warned.clear();
      conn.warnedInvalid = false;
      conn.warnedCut = false;
      frameHello(conn);
    },
    observer: null,
  };
  handle.conn = conn;
  frameConns.add(conn);
  window.addEventListener("message", conn.onMessage);
  iframe.addEventListener("load", conn.onLoad);
  if (typeof MutationObserver === "function") {
    conn.observer = new MutationObserver(() => {
      if (iframe.isConnected) conn.attached = true;
      else if (conn.attached) frameEnd(conn);
    });
    conn.observer.observe(iframe.ownerDocument, { childList: true, subtree: true });
  }
  frameHello(conn);
}

/**
 * frameDisconnect ends the connection of a connectFrame call (its
 * disconnect, once the module runs).
 * @param {FrameHandle} handle
 */
export function frameDisconnect(handle) {
  if (handle.conn) frameEnd(handle.conn);
}

/**
 * frameEnd drops the frame's resources and stops listening.
 * @param {FrameConn} conn
 */
function frameEnd(conn) {
  if (conn.phase === "ended") return;
  frameDrop(conn);
  conn.phase = "ended";
  frameConns.delete(conn);
  window.removeEventListener("message", conn.onMessage);
  conn.iframe.removeEventListener("load", conn.onLoad);
  if (conn.observer) conn.observer.disconnect();
}

/**
 * frameLabel names the frame in messages.
 * @param {FrameConn} conn
 */
export function frameLabel(conn) {
  return `the frame "${conn.iframe.src || conn.iframe.name || "about:blank"}" (origin ${conn.origin})`;
}

/**
 * frameOf names the frame a proxy's resource comes from, for the DevTools
 * panel (inspect.js): the origin connectFrame was given and the iframe's
 * src, id and name as they are now; null for the page's own.
 * @param {Registration} r
 */
export function frameOf(r) {
  const conn = frameOwners.get(r);
  if (conn === undefined) return null;
  const f = conn.iframe;
  return { origin: conn.origin, src: f.src, id: f.id, name: f.name };
}

/**
 * frameOrigin is the origin of the frame a proxy's resource comes from, as
 * getResources and the MCP lists show it (table.js's listed, server.js's
 * mcpInfo); undefined for the page's own.
 * @param {Registration} r
 */
export function frameOrigin(r) {
  const conn = frameOwners.get(r);
  return conn === undefined ? undefined : conn.origin;
}

/**
 * listedFrame is table.js's listed of a frame's proxy: its fields as the
 * page's own are listed, then the frame's origin.
 * @param {Registration} r
 */
export function listedFrame(r) {
  const c = r.template ? copyInfo(r) : copyRest(r, { uri: r.uri, name: r.name });
  c.origin = frameOrigin(r);
  return c;
}

/**
 * frameBase is the URL a frame's icon paths resolve against: the iframe's
 * src as the session starts, when it is of the frame's origin (the page
 * cannot see where a frame navigated itself), else the origin's root.
 * @param {FrameConn} conn
 */
function frameBase(conn) {
  try {
    const u = new URL(conn.iframe.src);
    if (u.origin === conn.origin) return u.href;
  } catch {}
  return conn.origin + "/";
}

/**
 * framePost posts a payload to the frame's window, for its origin only.
 * @param {FrameConn} conn
 * @param {any} payload
 */
function framePost(conn, payload) {
  const w = conn.iframe.contentWindow;
  if (w) w.postMessage({ channel: PARENT_CHANNEL, type: "mcp", direction: "client-to-server", payload }, conn.origin);
}

/**
 * frameHello asks the frame's server whether it runs; its mcp-server-ready
 * (this answer, or its announcement when it starts) starts a session.
 * @param {FrameConn} conn
 */
function frameHello(conn) {
  conn.phase = "waiting";
  framePost(conn, MCP_CHECK_READY);
}

/**
 * frameEvent reads a message event: only one from the frame's window and
 * its exact origin, on the iframe channel, is read further.
 * @param {FrameConn} conn
 * @param {MessageEvent} ev
 */
function frameEvent(conn, ev) {
  try {
    if (ev.source === null || ev.source !== conn.iframe.contentWindow || ev.origin !== conn.origin) return;
    const d = ev.data;
    if (d === null || typeof d !== "object" || d.channel !== PARENT_CHANNEL || d.type !== "mcp" || d.direction !== "server-to-client") return;
    frameMessage(conn, d.payload);
  } catch (e) {
    quietError(`modelcontext: connectFrame: a message from ${frameLabel(conn)} could not be read:`, e);
  }
}

/**
 * frameMessage handles what the frame's server said.
 * @param {FrameConn} conn
 * @param {any} p
 */
function frameMessage(conn, p) {
  if (p === MCP_SERVER_READY) {
    if (conn.phase === "waiting") frameInitialize(conn);
    return;
  }
  if (p === MCP_SERVER_STOPPED) {
    frameDrop(conn);
    return;
  }
  if (p === null || typeof p !== "object" || p.jsonrpc !== "2.0") return;
  if (typeof p.method === "string") {
    if (conn.phase !== "ready") return;
    if (p.method === "notifications/resources/list_changed") frameList(conn);
    else if (p.method === "notifications/resources/updated" && p.params && typeof p.params.uri === "string") frameUpdated(conn, p.params.uri);
    return;
  }
  const req = typeof p.id === "number" ? conn.pending.get(p.id) : undefined;
  if (!req) return;
  conn.pending.delete(p.id);
  clearTimeout(req.timer);
  if (p.error !== undefined) {
    const msg = p.error && typeof p.error.message === "string" ? p.error.message : "an error";
    req.reject(new Error(`modelcontext: ${frameLabel(conn)} answered ${req.uri ? `the read of "${req.uri}"` : "a request"} with ${msg}`));
  } else req.resolve(p.result);
}

/**
 * frameUpdated follows the frame's notification that uri changed: its
 * onChange pushes (reading uri), unless a read of uri is in flight; then one
 * more read follows that one, however many notifications came meanwhile.
 * @param {FrameConn} conn
 * @param {string} uri
 */
function frameUpdated(conn, uri) {
  const onChange = conn.changes.get(uri);
  if (onChange === undefined) return;
  if (conn.reads.has(uri)) conn.again.add(uri);
  else onChange();
}

/**
 * frameRequest sends a request to the frame and answers its result; it
 * rejects when the frame answers an error, does not answer in time (with a
 * TimeoutError), or goes away (then, for a read of uri, with NotFoundError).
 * @param {FrameConn} conn
 * @param {string} method
 * @param {any} params
 * @param {string} [uri] the uri a read is of
 * @returns {Promise<any>}
 */
function frameRequest(conn, method, params, uri = "") {
  const id = ++lastFrameRequest;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      conn.pending.delete(id);
      reject(new DOMException(`modelcontext: ${frameLabel(conn)} did not answer ${method}${uri ? ` of "${uri}"` : ""} within ${FRAME_TIMEOUT / 1000} s`, "TimeoutError"));
    }, FRAME_TIMEOUT);
    conn.pending.set(id, { resolve, reject, timer, uri });
    framePost(conn, { jsonrpc: "2.0", id, method, params });
  });
}

/**
 * frameInitialize opens a session: initialize, notifications/initialized,
 * then the lists.
 * @param {FrameConn} conn
 */
async function frameInitialize(conn) {
  conn.phase = "initializing";
  conn.doc = conn.iframe.contentDocument; // null for another origin's
  const session = conn.session;
  let res;
  try {
    res = await frameRequest(conn, "initialize", { protocolVersion: MCP_PROTOCOL_2025_11_25, capabilities: {}, clientInfo: { name: "modelcontext connectFrame", version: "1" } });
  } catch (e) {
    if (conn.session === session && conn.phase === "initializing") conn.phase = "waiting";
    quietError(`modelcontext: connectFrame: ${frameLabel(conn)} did not start a session:`, e);
    return;
  }
  if (conn.session !== session || conn.phase !== "initializing") return;
  if (res === null || typeof res !== "object" || typeof res.protocolVersion !== "string") {
    conn.phase = "waiting";
    quietError(`modelcontext: connectFrame: ${frameLabel(conn)} answered initialize with no protocolVersion; its resources are not listed`);
    return;
  }
  const caps = res.capabilities;
  conn.subscribe = !!(caps && caps.resources && caps.resources.subscribe === true);
  framePost(conn, { jsonrpc: "2.0", method: "notifications/initialized" });
  conn.phase = "ready";
  conn.base = frameBase(conn);
  frameList(conn);
}

/**
 * frameList lists the frame's resources and templates and applies the
 * lists, at most once every FRAME_LIST_INTERVAL ms (FRAME_LIST_PACE): one
 * list is in flight at a time, and the list changes that arrive meanwhile,
 * or before the interval is over, make one more list (the latest wins).
 * @param {FrameConn} conn
 */
function frameList(conn) {
  if (conn.listing || conn.listTimer !== 0) {
    conn.relist = true;
    return;
  }
  const wait = conn.listedAt + Math.max(FRAME_LIST_INTERVAL, FRAME_LIST_PACE * conn.listTook) - performance.now();
  if (wait > 0) {
    conn.listTimer = setTimeout(() => {
      conn.listTimer = 0;
      if (conn.phase === "ready") frameListNow(conn);
    }, wait);
    return;
  }
  frameListNow(conn);
}

/**
 * frameListNow requests both lists and applies them.
 * @param {FrameConn} conn
 */
async function frameListNow(conn) {
  conn.listing = true;
  conn.relist = false;
  const session = conn.session;
  const start = performance.now();
  try {
    const items = await frameListAll(conn, "resources/list", "resources");
    const tmpls = await frameListAll(conn, "resources/templates/list", "resourceTemplates");
    if (conn.session === session && conn.phase === "ready") frameApply(conn, items, tmpls);
  } catch (e) {
    if (conn.session === session) quietError(`modelcontext: connectFrame: ${frameLabel(conn)} could not be listed:`, e);
  }
  if (conn.session !== session) return;
  conn.listing = false;
  conn.listedAt = performance.now();
  conn.listTook = conn.listedAt - start;
  if (conn.relist && conn.phase === "ready") {
    conn.relist = false;
    frameList(conn);
  }
}

/**
 * frameListAll follows a list's nextCursor, up to FRAME_MAX_PAGES pages, and
 * answers its first FRAME_MAX_ENTRIES entries (a console.warn, once per
 * document, says when there were more).
 * @param {FrameConn} conn
 * @param {string} method
 * @param {string} field
 */
async function frameListAll(conn, method, field) {
  /** @type {any[]} */
  const all = [];
  let cursor;
  for (let page = 0; page < FRAME_MAX_PAGES; page++) {
    const res = await frameRequest(conn, method, cursor === undefined ? {} : { cursor });
    if (res === null || typeof res !== "object" || !Array.isArray(res[field])) throw new Error(`${method} answered no "${field}" array`);
    const items = res[field];
    const room = FRAME_MAX_ENTRIES - all.length;
    for (let i = 0; i < items.length && i < room; i++) all.push(items[i]);
    cursor = res.nextCursor;
    if (items.length > room || (all.length === FRAME_MAX_ENTRIES && typeof cursor === "string")) {
      if (!conn.warnedCut) {
        conn.warnedCut = true;
        console.warn(`modelcontext: connectFrame: ${frameLabel(conn)} lists more than ${FRAME_MAX_ENTRIES} entries in ${method}; only its first ${FRAME_MAX_ENTRIES} are listed`);
      }
      return all;
    }
    if (typeof cursor !== "string") return all;
  }
  return all;
}

/**
 * frameDrop forgets the frame's session: its requests in flight reject (a
 * read with NotFoundError) and its resources leave the list, with one
 * resourcelistchanged.
 * @param {FrameConn} conn
 */
function frameDrop(conn) {
  if (conn.phase === "ended") return;
  conn.session++;
  conn.phase = "waiting";
  conn.doc = null;
  conn.listing = false;
  conn.relist = false;
  clearTimeout(conn.listTimer);
  conn.listTimer = 0;
  conn.changes.clear();
  conn.subscribed.clear();
  conn.reads.clear();
  conn.again.clear();
  for (const req of conn.pending.values()) {
    clearTimeout(req.timer);
    req.reject(req.uri ? notFound(req.uri) : new Error(`modelcontext: ${frameLabel(conn)} went away`));
  }
  conn.pending.clear();
  oneListChange(() => {
    for (const r of conn.resources.values()) frameUnregister(r);
    for (const r of conn.templates.values()) frameUnregister(r);
  });
  conn.resources.clear();
  conn.templates.clear();
}

/**
 * frameSubscribe follows the frame's pushes of uri: its
 * notifications/resources/updated call onChange. The frame is asked to
 * subscribe and unsubscribe in a task after the registrations of the moment
 * (frameSync): a resource registered again asks nothing.
 * @param {FrameConn} conn
 * @param {string} uri
 * @param {() => void} onChange
 */
export function frameSubscribe(conn, uri, onChange) {
  const session = conn.session;
  conn.changes.set(uri, onChange);
  frameSyncSoon(conn);
  return () => {
    if (conn.session !== session || conn.changes.get(uri) !== onChange) return;
    conn.changes.delete(uri);
    conn.again.delete(uri);
    frameSyncSoon(conn);
  };
}

/** @type {MessagePort | null} posts to itself: a task soon, which a hidden page does not throttle as it does timers */
let frameTaskPort = null;
/** @type {FrameConn[]} the connections a frameSync is scheduled for, in the task of frameTaskPort */
const frameSyncs = [];

/**
 * frameSyncSoon schedules frameSync in a task of its own.
 * @param {FrameConn} conn
 */
function frameSyncSoon(conn) {
  if (conn.syncing) return;
  conn.syncing = true;
  frameSyncs.push(conn);
  if (frameTaskPort === null) {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      for (const c of frameSyncs.splice(0)) frameSync(c);
    };
    frameTaskPort = ch.port2;
  }
  if (frameSyncs.length === 1) frameTaskPort.postMessage(0);
}

/**
 * frameSync asks the frame to subscribe to the uris followed now and to
 * unsubscribe from those no longer followed, FRAME_SYNC_BATCH requests a
 * task, so that a list of a thousand costs no long task. Their answers are
 * not waited for: a frame that does not push is not followed, which is all.
 * @param {FrameConn} conn
 */
function frameSync(conn) {
  conn.syncing = false;
  if (conn.phase !== "ready") return;
  let n = 0;
  for (const uri of conn.changes.keys()) {
    if (conn.subscribed.has(uri)) continue;
    if (n++ === FRAME_SYNC_BATCH) {
      frameSyncSoon(conn);
      return;
    }
    conn.subscribed.add(uri);
    framePost(conn, { jsonrpc: "2.0", id: ++lastFrameRequest, method: "resources/subscribe", params: { uri } });
  }
  for (const uri of conn.subscribed) {
    if (conn.changes.has(uri)) continue;
    if (n++ === FRAME_SYNC_BATCH) {
      frameSyncSoon(conn);
      return;
    }
    conn.subscribed.delete(uri);
    framePost(conn, { jsonrpc: "2.0", id: ++lastFrameRequest, method: "resources/unsubscribe", params: { uri } });
  }
}

/**
 * frameRead reads uri through the frame: text under a JSON MIME type is the
 * value it parses to, other text a string, a blob its bytes.
 * @param {FrameConn} conn
 * @param {string} uri
 * @param {string} mime the listed mimeType
 */
export async function frameRead(conn, uri, mime) {
  if (conn.phase !== "ready") throw notFound(uri);
  const res = await frameReadShared(conn, uri);
  const contents = res && Array.isArray(res.contents) ? res.contents : [];
  const c = contents.find((/** @type {any} */ x) => x && x.uri === uri) || contents[0];
  const bad = `modelcontext: ${frameLabel(conn)} answered the read of "${uri}" with`;
  if (c === null || typeof c !== "object") throw new Error(`${bad} no contents`);
  const m = typeof c.mimeType === "string" ? c.mimeType : mime;
  if (typeof c.text === "string") {
    if (mimeClass(m) !== MIME_JSON) return c.text;
    try {
      return JSON.parse(c.text);
    } catch (e) {
      throw new Error(`${bad} text that is not JSON under ${m}: ${describe(e)}`);
    }
  }
  if (typeof c.blob === "string") {
    try {
      return fromBase64(c.blob);
    } catch (e) {
      throw new Error(`${bad} a blob that is not base64: ${describe(e)}`);
    }
  }
  throw new Error(`${bad} neither text nor blob`);
}

/**
 * frameReadShared answers the frame's result of a read of uri: the read in
 * flight, or a new one. When it ends, an update notified meanwhile pushes
 * (frameUpdated), which reads uri again.
 * @param {FrameConn} conn
 * @param {string} uri
 * @returns {Promise<any>}
 */
function frameReadShared(conn, uri) {
  const inFlight = conn.reads.get(uri);
  if (inFlight !== undefined) return inFlight;
  const p = frameRequest(conn, "resources/read", { uri }, uri);
  conn.reads.set(uri, p);
  const session = conn.session;
  const done = () => {
    if (conn.session !== session || conn.reads.get(uri) !== p) return;
    conn.reads.delete(uri);
    if (conn.again.delete(uri)) frameUpdated(conn, uri);
  };
  p.then(done, done);
  return p;
}

/** @param {string} b64 */
function fromBase64(b64) {
  const U = /** @type {any} */ (Uint8Array);
  if (typeof U.fromBase64 === "function") return /** @type {Uint8Array} */ (U.fromBase64(b64));
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
