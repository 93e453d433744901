// @ts-check
// mcp.js: serveMCP, and its servers before the module runs: announced on
// their channels, their first messages kept (the runtime's server.js serves
// them once Go runs).
// "/" posts to this window's own origin, whatever it is.
const targetOrigin = "/";

// Before the module runs, a server is served by the loader alone: it
// announces itself on its channel, as Go's server does when it starts, so
// that a client that started first connects, and the first message a client
// sends on that channel (or a session's sub-channel) starts the module, if
// the server would answer it: from this window, from an allowed origin. The
// messages that arrive until Go runs are kept and handed to its servers
// then, in order (Go applies all its rules to them).
/** @type {{channel: string, origins: string[]}[]} the servers served before the module runs */
const earlyChannels = [];

/** @type {MessageEvent[]} */
const earlyMessages = [];

/**
 * awaitMessages serves channel, for the allowed origins (an array of
 * strings, "*" for any; else the page's own), until the module runs.
 * @param {string} channel
 * @param {any} [allowed]
 */
function awaitMessages(channel, allowed) {
  if (state !== LOADING) return;
  if (earlyChannels.length === 0) window.addEventListener("message", earlyMessage);
  const origins = Array.isArray(allowed) && allowed.length > 0 && allowed.every((o) => typeof o === "string") ? allowed.slice() : [location.origin];
  earlyChannels.push({ channel, origins });
  window.postMessage({ channel, type: "mcp", direction: "server-to-client", payload: MCP_SERVER_READY }, targetOrigin);
}

/**
 * servedWindow says whether source is a window the module serves: today the
 * page's own window only. Every message listener asks it first, before the
 * message's data is read (reading it deserializes it).
 * @param {MessageEventSource | null} source
 */
function servedWindow(source) {
  return source === window;
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
    if (state !== LOADING || !servedWindow(ev.source) || !earlyChannels.some((e) => allowedBy(e.origins, ev.origin))) return;
    const d = ev.data;
    if (d === null || typeof d !== "object" || d.type !== "mcp" || d.direction !== "client-to-server") return;
    const c = d.channel;
    const served = (/** @type {{channel: string, origins: string[]}} */ e) =>
      (c === e.channel || (typeof c === "string" && c.startsWith(e.channel + "/"))) && allowedBy(e.origins, ev.origin);
    if (typeof c !== "string" || !earlyChannels.some(served)) return;
    earlyMessages.push(ev);
    if (!bootStarted) wake(`an MCP message arrived on "${c}"`);
  } catch (e) {
    quietError("modelcontext: the MCP server could not read a message:", e);
  }
}

/**
 * deliverEarlyMessages hands the messages kept before the module ran to
 * deliver (the runtime's, which gives them to the servers that now run), and
 * stops keeping them.
 * @param {(ev: MessageEvent) => void} deliver
 */
function deliverEarlyMessages(deliver) {
  if (earlyChannels.length > 0) window.removeEventListener("message", earlyMessage);
  earlyChannels.length = 0;
  for (const ev of earlyMessages.splice(0)) deliver(ev);
}

/**
 * serveMCP starts an MCP server on window.postMessage and returns a handle
 * whose stop() ends it.
 * @param {any} options
 */
function serveMCP(options = {}) {
  if (state === FAILED) throw failure;
  const handle = { id: 0, stopped: false };
  if (state === READY) serveNow(options, handle);
  let early = "";
  if (state === LOADING) {
    queue.push({ op: "serve", options, handle });
    const o = options !== null && typeof options === "object" ? options : {};
    early = typeof o.channel === "string" && o.channel !== "" ? o.channel : DEFAULT_CHANNEL;
    awaitMessages(early, o.allowedOrigins);
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
 * stopAwaiting ends what awaitMessages started for channel: a server stopped
 * before the module ran says so on its channel.
 * @param {string} channel
 */
function stopAwaiting(channel) {
  const i = earlyChannels.findIndex((e) => e.channel === channel);
  if (i < 0) return;
  earlyChannels.splice(i, 1);
  if (earlyChannels.length === 0) window.removeEventListener("message", earlyMessage);
  window.postMessage({ channel, type: "mcp", direction: "server-to-client", payload: MCP_SERVER_STOPPED }, targetOrigin);
}
