// @ts-check
// server.js: the MCP server's transport on window.postMessage. The protocol
// is Go's (wasm/mcp); the loader extracts the fields Go reads
// (MESSAGE_FIELDS), posts what Go writes, inserts the lists and contents Go
// names, and turns a getter's value into MCP content.
import { attachChanges, forgetRead, keepRead } from "./changes.js";
import { compileExtracts, encodeExtracts, putString } from "./encode.js";
import { frameOrigin } from "./frameclient.js";
import { hold, release, vals } from "./handles.js";
import { internal } from "./host.js";
import { inListOrder, regs } from "./lookup.js";
import { noteMessage } from "./observe.js";
import { ex } from "./start.js";
import { debugLine, isReady } from "../api.js";
import { isEnvelope, pageOrigin, serveWindow, servedWindow, targetOrigin, unserveWindow } from "../mcp.js";
import { debugOn } from "../page.js";
import { copyInfo, resources, templates } from "../table.js";
import { describe, isThenable, quietError } from "../values.js";
/** @typedef {import("../table.js").Registration} Registration */

/**
 * A server's transport: the window it serves (the page's own; for a parent
 * server the parent window, or null in a page not in a frame), its channel,
 * its allowed origins, and the origin of its client's latest message (a
 * parent server's replies go there).
 * @typedef {{channel: string, listener: (ev: MessageEvent) => void, win: Window | null, origins: string[], peer: string}} Transport
 */

/** @type {Map<number, Transport>} server ID → transport */
export const mcpServers = new Map();
const messageFields = compileExtracts(MESSAGE_FIELDS);
const optionFields = compileExtracts(OPTION_FIELDS);

// Messages are posted after Go has returned, with no wasm frames on the
// stack (posting from deep inside them is slower), in the order Go
// wrote them: at the end of the message event or asynchronous read that
// produced them, or in a microtask for those that a push or a registration
// produced.
/** @type {any[]} */
const outgoing = [];
/** @type {(Transport | null)[]} for each of outgoing, its parent server's transport, or null: this window */
const outgoingTo = [];
let flushQueued = false;
export let inMessage = false; // Go is handling a message event

export function flushOutgoing() {
  flushQueued = false;
  for (let i = 0; i < outgoing.length; i++) {
    const to = outgoingTo[i];
    if (to === null) window.postMessage(outgoing[i], targetOrigin);
    else postParent(to, outgoing[i]);
  }
  outgoing.length = 0;
  outgoingTo.length = 0;
}

/**
 * postParent posts a parent server's envelope to the parent window: a reply
 * to the origin its client wrote from, an announcement (a string payload)
 * once per allowed origin as the target, so that only a listed parent
 * receives it ("*" only where the page wrote it).
 * @param {Transport} srv
 * @param {any} envelope
 */
function postParent(srv, envelope) {
  const w = srv.win;
  if (w === null) return;
  if (typeof envelope.payload !== "string" && srv.peer !== "") w.postMessage(envelope, srv.peer === "null" ? "*" : srv.peer);
  else for (const o of srv.origins) w.postMessage(envelope, o);
}

/**
 * mcpOpen listens for the server's messages: those on its channel, and on
 * the sub-channels "<channel>/<name>", which Go serves as sessions of their
 * own when the server has sessions on (and ignores otherwise). A message from
 * a window the server does not serve (this window; for a parent server, the
 * parent window, on its channel only), or from an origin not in origins (Go's
 * reading of allowedOrigins or parent; "*" for any), is dropped before its
 * data is read: nothing of it is deserialized, extracted or copied into Go.
 * Of a message over MAX_MESSAGE_TEXT, only the short strings are copied, and
 * Go answers it with an error.
 * @param {number} server
 * @param {string} channel
 * @param {string[]} origins
 * @param {boolean} parent
 */
export function mcpOpen(server, channel, origins, parent) {
  const prefix = channel + "/";
  const anyOrigin = origins.includes("*");
  const win = !parent ? window : window.parent !== window ? window.parent : null;
  if (parent && win === null && debugOn()) debugLine(`serveMCP: this page is not in a frame (window.parent is the window itself), so it serves no parent on "${channel}"`);
  /** @param {MessageEvent} ev */
  const listener = (ev) => {
    try {
      if (!servedWindow(ev.source) || ev.source !== win || !(anyOrigin || origins.includes(ev.origin))) return;
      const d = ev.data;
      if (!isEnvelope(d, "client-to-server")) return;
      const c = d.channel;
      const session = c === channel ? undefined : !parent && typeof c === "string" && c.startsWith(prefix) ? c.slice(prefix.length) : null;
      if (session === null || !isReady()) return;
      if (parent) srv.peer = ev.origin;
      noteMessage(ev.origin, c, session, parent, d.payload);
      const n = encodeExtracts(messageFields, { origin: ev.origin, session, payload: d.payload }, MAX_MESSAGE_TEXT);
      // A getter may dispatch a message event while Go reads: what the inner
      // one writes is posted with the outer one's, when Go has returned.
      const outer = inMessage;
      inMessage = true;
      try {
        ex.mc_mcp_message(server, n, ev.source === win ? 1 : 0);
      } finally {
        inMessage = outer;
        if (!outer) flushOutgoing();
      }
    } catch (e) {
      // A forged event whose data throws, or an internal error already
      // reported by Go: never out of the listener.
      quietError("modelcontext: the MCP server could not read a message:", e);
    }
  };
  /** @type {Transport} */
  const srv = { channel, listener, win, origins, peer: "" };
  mcpServers.set(server, srv);
  if (win === null) return; // not in a frame: nothing to listen to
  if (parent) serveWindow(win);
  window.addEventListener("message", listener);
}

/** @param {number} server */
export function mcpClose(server) {
  const srv = mcpServers.get(server);
  if (srv) {
    window.removeEventListener("message", srv.listener);
    if (srv.win !== null && srv.win !== window) unserveWindow(srv.win);
  }
  mcpServers.delete(server);
}

/**
 * mcpInfo is a registration as MCP lists it: a frame's (connectFrame) with
 * its origin in _meta["modelcontext/origin"].
 * @param {Registration} r
 */
function mcpInfo(r) {
  const c = copyInfo(r);
  delete c.subscribable;
  if (r.id >= FRAME_ID_BASE) c._meta = { "modelcontext/origin": frameOrigin(r) };
  return c;
}

/**
 * slice returns registrations first .. first+count-1 of a table, in list
 * order (the page's own, then the frames').
 * @param {Map<string, Registration>} t
 * @param {number} first
 * @param {number} count
 */
function slice(t, first, count) {
  const out = [];
  let i = 0;
  for (const r of inListOrder(t)) {
    if (i >= first + count) break;
    if (i++ >= first) out.push(mcpInfo(r));
  }
  return out;
}

/**
 * mcpPost posts a message Go wrote on the server's channel, or on its
 * sub-channel when session is not "", and returns it (for observe.js).
 * @param {number} server
 * @param {string} session
 * @param {string} msg
 * @param {number} attach
 * @param {number} first
 * @param {number} count
 * @param {number} h
 */
export function mcpPost(server, session, msg, attach, first, count, h) {
  const srv = mcpServers.get(server);
  const payload = JSON.parse(msg);
  switch (attach) {
    case ATTACH_RESOURCES:
      payload.result.resources = slice(resources, first, count);
      break;
    case ATTACH_TEMPLATES:
      payload.result.resourceTemplates = slice(templates, first, count);
      break;
    case ATTACH_TEXT:
    case ATTACH_TEXT_KEPT:
      payload.result.contents[0].text = vals[h];
      release(h);
      if (attach === ATTACH_TEXT_KEPT) keepRead(server, session, payload.result.contents[0]);
      break;
    case ATTACH_CHANGES:
      attachChanges(server, session, payload.params, h, count);
      break;
    case ATTACH_BLOB:
      payload.result.contents[0].blob = base64(vals[h]);
      release(h);
      forgetRead(server, session, payload.result.contents[0].uri);
      break;
  }
  if (!srv) return payload;
  outgoing.push({ channel: session ? srv.channel + "/" + session : srv.channel, type: "mcp", direction: "server-to-client", payload });
  outgoingTo.push(srv.win === window ? null : srv);
  // While Go handles a message event, the listener posts when Go returns.
  if (!flushQueued && !inMessage) {
    flushQueued = true;
    queueMicrotask(flushOutgoing);
  }
  return payload;
}

/**
 * mcpRead calls the getter of registration id and prepares its value as
 * content for mcp.Server.ReadDone. A synchronous value is answered at once,
 * without a trip through the microtask queue.
 * @param {number} server
 * @param {number} req
 * @param {number} id
 * @param {string} params JSON text, or ""
 */
export function mcpRead(server, req, id, params) {
  const r = regs.get(id);
  let v;
  try {
    if (!r) throw new Error("the resource was unregistered");
    v = params === "" ? r.get.call(r.desc) : r.get.call(r.desc, JSON.parse(params));
    if (isThenable(v) || (typeof Blob !== "undefined" && v instanceof Blob)) {
      mcpReadLater(server, req, r, v);
      return;
    }
  } catch (e) {
    mcpReadDone(server, req, CONTENT_FAILED, 0, 0, describe(e));
    return;
  }
  mcpPrepare(server, req, r, v);
}

/**
 * @param {number} server
 * @param {number} req
 * @param {Registration} r
 * @param {any} p
 */
async function mcpReadLater(server, req, r, p) {
  let v;
  try {
    v = await p;
    if (typeof Blob !== "undefined" && v instanceof Blob) v = await v.arrayBuffer();
  } catch (e) {
    mcpReadDone(server, req, CONTENT_FAILED, 0, 0, describe(e));
    return;
  }
  mcpPrepare(server, req, r, v);
}

// The MIME classes that decide how a value becomes content.
const MIME_OTHER = 0;
const MIME_TEXT = 1;
export const MIME_JSON = 2;

/**
 * mimeClass sorts a MIME type: JSON (application/json, *+json), other text
 * (text/*, JavaScript, XML, YAML), or anything else.
 * @param {string} mime
 */
export function mimeClass(mime) {
  const m = mime.split(";")[0].trim().toLowerCase();
  if (m === "application/json" || m.endsWith("+json")) return MIME_JSON;
  if (m.startsWith("text/") || m.endsWith("+xml") || m === "application/xml" || m === "application/javascript" ||
    m === "application/ecmascript" || m === "application/x-javascript" || m === "application/yaml" || m === "application/x-yaml") {
    return MIME_TEXT;
  }
  return MIME_OTHER;
}

/**
 * mimeClassOf is the MIME class of r's values, worked out once.
 * @param {Registration} r
 */
export function mimeClassOf(r) {
  return r.mimeClass === undefined ? (r.mimeClass = mimeClass(r.mimeType)) : r.mimeClass;
}

/**
 * mcpPrepare turns a value into content: binary stays binary, except bytes
 * that are valid UTF-8 under a text MIME type, which become text; a string
 * under any MIME type but JSON is sent as it is; everything else is its JSON
 * text.
 * @param {number} server
 * @param {number} req
 * @param {Registration} r
 * @param {any} v
 */
function mcpPrepare(server, req, r, v) {
  try {
    const cls = mimeClassOf(r);
    const bytes = v instanceof ArrayBuffer ? new Uint8Array(v) : ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : null;
    if (bytes) {
      if (cls !== MIME_OTHER) {
        let text;
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {}
        if (text !== undefined) {
          mcpReadDone(server, req, CONTENT_TEXT, hold(text), text.length, "");
          return;
        }
      }
      mcpReadDone(server, req, CONTENT_BLOB, hold(bytes), bytes.byteLength, "");
      return;
    }
    let text = typeof v === "string" && cls !== MIME_JSON ? v : JSON.stringify(v);
    if (text === undefined) text = "null";
    mcpReadDone(server, req, CONTENT_TEXT, hold(text), text.length, "");
  } catch (e) {
    mcpReadDone(server, req, CONTENT_FAILED, 0, 0, describe(e));
  }
}

/**
 * @param {number} server
 * @param {number} req
 * @param {number} kind
 * @param {number} h
 * @param {number} length
 * @param {string} err
 */
function mcpReadDone(server, req, kind, h, length, err) {
  if (isReady()) ex.mc_mcp_read_done(server, req, kind, h, length, putString(err));
  if (!inMessage) flushOutgoing(); // an asynchronous read: nothing of Go's is on the stack
}

/** @param {Uint8Array} bytes */
export function base64(bytes) {
  if (typeof (/** @type {any} */ (bytes).toBase64) === "function") return /** @type {any} */ (bytes).toBase64();
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, /** @type {any} */ (bytes.subarray(i, i + 0x8000)));
  return btoa(bin);
}

/**
 * @param {any} options
 * @param {{id: number, stopped: boolean}} handle
 */
export function serveNow(options, handle) {
  handle.id = internal(ex.mc_mcp_start(encodeExtracts(optionFields, { options, origin: pageOrigin() })));
}

/**
 * stopServer ends the server id (serveMCP's stop, once the module runs).
 * @param {number} id
 */
export function stopServer(id) {
  internal(ex.mc_mcp_stop(id));
}

/**
 * deliverToServers hands a message kept before the module ran to every
 * server that now runs (boot.js's start, through deliverEarlyMessages).
 * @param {MessageEvent} ev
 */
export function deliverToServers(ev) {
  for (const srv of mcpServers.values()) srv.listener(ev);
}
