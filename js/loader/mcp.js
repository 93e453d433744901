// @ts-check
// mcp.js: serveMCP, and its servers before the module runs: announced on
// their channels, their first messages kept (the runtime's server.js serves
// them once Go runs).
// "/" posts to this window's own origin, whatever it is.
import { serveNow, stopServer } from "./runtime/server.js";
import { FAILED, LOADING, READY, debugLine, failure, queue, state } from "./api.js";
import { bootStarted, wake } from "./boot.js";
import { debugOn, script } from "./page.js";
import { quietError } from "./values.js";
export const targetOrigin = "/";

// Before the module runs, a server is served by the loader alone: it
// announces itself on its channel, as Go's server does when it starts, so
// that a client that started first connects, and the first message a client
// sends on that channel (or a session's sub-channel) starts the module, if
// the server would answer it: from the window it serves (this one; for a
// parent option, the parent window on PARENT_CHANNEL), from an allowed
// origin. The messages that arrive until Go runs are kept and handed to its
// servers then, in order (Go applies all its rules to them).
/**
 * @typedef {{channel: string, origins: string[], win: Window, parent: boolean}} EarlyChannel
 */
/** @type {EarlyChannel[]} the servers served before the module runs */
const earlyChannels = [];

/** @type {MessageEvent[]} */
const earlyMessages = [];

/** @type {Window[]} the windows served besides this one (a parent, once per server that serves it) */
const otherWindows = [];

/**
 * awaitMessages serves channel, for the allowed origins (an array of
 * strings, "*" for any; else the page's own), and, when parent is an array
 * of origins, the parent window on PARENT_CHANNEL, until the module runs.
 * It returns what it serves, for stopAwaiting.
 * @param {string} channel
 * @param {any} [allowed]
 * @param {any} [parent]
 * @returns {EarlyChannel[]}
 */
export function awaitMessages(channel, allowed, parent) {
  if (state !== LOADING) return [];
  const strings = (/** @type {any} */ l) => Array.isArray(l) && l.length > 0 && l.every((o) => typeof o === "string");
  /** @type {EarlyChannel[]} */
  const added = [{ channel, origins: strings(allowed) ? allowed.slice() : [pageOrigin()], win: window, parent: false }];
  if (strings(parent)) {
    if (window.parent !== window) added.push({ channel: PARENT_CHANNEL, origins: parent.slice(), win: window.parent, parent: true });
    else if (debugOn()) debugLine(`serveMCP: this page is not in a frame (window.parent is the window itself), so it serves no parent on "${PARENT_CHANNEL}"`);
  }
  if (earlyChannels.length === 0) window.addEventListener("message", earlyMessage);
  for (const e of added) {
    earlyChannels.push(e);
    if (e.parent) serveWindow(e.win);
    announce(e, MCP_SERVER_READY);
  }
  return added;
}

/**
 * announce posts a control payload on an early server's channel: to this
 * window, or to the parent once per allowed origin as the target, so that
 * only a listed parent receives it.
 * @param {EarlyChannel} e
 * @param {string} payload
 */
function announce(e, payload) {
  const envelope = { channel: e.channel, type: "mcp", direction: "server-to-client", payload };
  if (!e.parent) {
    window.postMessage(envelope, targetOrigin);
    return;
  }
  for (const o of e.origins) {
    try {
      e.win.postMessage(envelope, o);
    } catch {} // not an origin: Go refuses the option when the module runs
  }
}

/**
 * pageOrigin is the origin of the page's document, which its own messages
 * carry: for an about:srcdoc or about:blank frame the one it inherited,
 * where location.origin says "null".
 */
export function pageOrigin() {
  return typeof origin === "string" ? origin : location.origin;
}

/**
 * servedWindow says whether source is a window the module serves: the
 * page's own, and its parent while a server serves it (serveMCP's parent).
 * Every message listener asks it first, before the message's data is read
 * (reading it deserializes it).
 * @param {MessageEventSource | null} source
 */
export function servedWindow(source) {
  return source === window || (otherWindows.length > 0 && source !== null && otherWindows.includes(/** @type {Window} */ (source)));
}

/**
 * serveWindow adds w to the windows servedWindow accepts, until
 * unserveWindow(w) (as many times as serveWindow).
 * @param {Window} w
 */
export function serveWindow(w) {
  otherWindows.push(w);
}

/** @param {Window} w */
export function unserveWindow(w) {
  const i = otherWindows.indexOf(w);
  if (i >= 0) otherWindows.splice(i, 1);
}

/**
 * isEnvelope says whether d is an MCP-B transport envelope ({channel, type:
 * "mcp", direction, payload}) going in direction. Ask it only of a message
 * whose sender servedWindow and the origin checks have accepted.
 * @param {any} d
 * @param {"client-to-server" | "server-to-client"} direction
 */
export function isEnvelope(d, direction) {
  return d !== null && typeof d === "object" && d.type === "mcp" && d.direction === direction;
}

/**
 * allowedBy says whether origin may talk to a server that allows origins.
 * @param {string[]} origins
 * @param {string} origin
 */
function allowedBy(origins, origin) {
  return origins.includes("*") || origins.includes(origin);
}

/** @param {MessageEvent} ev */
function earlyMessage(ev) {
  try {
    // The sender first: a foreign message is dropped before its data is read.
    if (state !== LOADING || !servedWindow(ev.source) || !earlyChannels.some((e) => e.win === ev.source && allowedBy(e.origins, ev.origin))) return;
    const d = ev.data;
    if (!isEnvelope(d, "client-to-server")) return;
    const c = d.channel;
    const served = (/** @type {EarlyChannel} */ e) =>
      e.win === ev.source && (c === e.channel || (!e.parent && typeof c === "string" && c.startsWith(e.channel + "/"))) && allowedBy(e.origins, ev.origin);
    if (typeof c !== "string" || !earlyChannels.some(served)) return;
    earlyMessages.push(ev);
    if (!bootStarted) wake(`an MCP message arrived on "${c}"`);
  } catch (e) {
    quietError("modelcontext: the MCP server could not read a message:", e);
  }
}

/**
 * tagParent is the list of origins of the script tag's data-mcp-parent
 * (separated by spaces), or undefined without one.
 */
export function tagParent() {
  const v = script ? script.getAttribute("data-mcp-parent") : null;
  return v === null ? undefined : v.split(/\s+/).filter((o) => o !== "");
}

/**
 * deliverEarlyMessages hands the messages kept before the module ran to
 * deliver (the runtime's, which gives them to the servers that now run), and
 * stops keeping them.
 * @param {(ev: MessageEvent) => void} deliver
 */
export function deliverEarlyMessages(deliver) {
  if (earlyChannels.length > 0) window.removeEventListener("message", earlyMessage);
  for (const e of earlyChannels) if (e.parent) unserveWindow(e.win);
  earlyChannels.length = 0;
  for (const ev of earlyMessages.splice(0)) deliver(ev);
}

/**
 * serveMCP starts an MCP server on window.postMessage (and, with parent, one
 * that answers the parent window) and returns a handle whose stop() ends it.
 * @param {any} options
 */
export function serveMCP(options = {}) {
  if (state === FAILED) throw failure;
  const handle = { id: 0, stopped: false };
  if (state === READY) serveNow(options, handle);
  /** @type {EarlyChannel[]} */
  let early = [];
  if (state === LOADING) {
    queue.push({ op: "serve", options, handle });
    const o = options !== null && typeof options === "object" ? options : {};
    early = awaitMessages(typeof o.channel === "string" && o.channel !== "" ? o.channel : DEFAULT_CHANNEL, o.allowedOrigins, o.parent);
  }
  return {
    stop() {
      if (handle.stopped) return;
      handle.stopped = true;
      if (state === READY && handle.id) stopServer(handle.id);
      else if (state === LOADING) stopAwaiting(early);
    },
  };
}

/**
 * stopAwaiting ends what awaitMessages started: a server stopped before the
 * module ran says so on its channel.
 * @param {EarlyChannel[]} early
 */
function stopAwaiting(early) {
  for (const e of early) {
    const i = earlyChannels.indexOf(e);
    if (i < 0) continue;
    earlyChannels.splice(i, 1);
    if (e.parent) unserveWindow(e.win);
    announce(e, MCP_SERVER_STOPPED);
  }
  if (earlyChannels.length === 0) window.removeEventListener("message", earlyMessage);
}
