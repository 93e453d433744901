// background.js: the extension's service worker. It knows the tabs whose
// page serves MCP (their content script said so), exposes at most one of
// them, the one the visitor clicked in the popup, and carries that tab's
// messages to and from the native host: the modelcontext relay, which
// Chrome starts when a tab is first exposed (chrome.runtime.connectNative)
// and which serves the tab to desktop MCP clients.
//
// The exposure is for a tab and an origin: a reload keeps it (the host
// re-establishes its clients' sessions and tells them), a navigation to
// another origin ends it. Stopping, or closing the exposed tab, disconnects
// the host, which then exits and ends its clients' connections.

const HOST = "com.github.modelcontext_go.relay";
const POPUP = chrome.runtime.getURL("popup.html");

/** @type {Map<number, {port: chrome.runtime.Port, url: string, title: string}>} tab id → the page that serves in it */
const tabs = new Map();
/** @type {{tabId: number, origin: string, url: string, doc: number} | null} doc is 0 while the tab has no serving document */
let exposed = null;
/** @type {chrome.runtime.Port | null} */
let host = null;
let prefix = ""; // the host's sub-channel prefix, from its hello
let sessions = 0; // the host's client sessions, from its status
let hostError = ""; // why the host went away last
let nextDoc = 1;

/** @param {string} url */
const originOf = (url) => {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
};

chrome.runtime.onConnect.addListener((port) => {
  const tab = port.sender?.tab;
  if (port.name !== "modelcontext-page" || port.sender?.id !== chrome.runtime.id || tab?.id === undefined || port.sender?.frameId !== 0) {
    port.disconnect();
    return;
  }
  const tabId = tab.id;
  port.onMessage.addListener((m) => {
    switch (m.type) {
      case "serving": {
        tabs.set(tabId, { port, url: String(m.url), title: String(m.title || "") });
        if (exposed !== null && exposed.tabId === tabId) {
          if (originOf(String(m.url)) === exposed.origin) attachDocument();
          else stop("the exposed tab went to another site");
        }
        break;
      }
      case "title": {
        const t = tabs.get(tabId);
        if (t && t.port === port) t.title = String(m.title || "");
        break;
      }
      case "msg":
        if (exposed !== null && exposed.tabId === tabId && m.doc === exposed.doc && host !== null) {
          host.postMessage({ type: "msg", doc: m.doc, channel: String(m.channel), text: String(m.text) });
        }
        break;
    }
  });
  port.onDisconnect.addListener(() => {
    const t = tabs.get(tabId);
    if (!t || t.port !== port) return;
    tabs.delete(tabId);
    if (exposed !== null && exposed.tabId === tabId) detachDocument();
  });
});

chrome.tabs.onRemoved.addListener((tabId) => {
  if (exposed !== null && exposed.tabId === tabId) stop("the exposed tab was closed");
});

// attachDocument hands the exposed tab's current document to the host.
function attachDocument() {
  const t = exposed && tabs.get(exposed.tabId);
  if (!exposed || !t || !host || prefix === "") return;
  if (exposed.doc !== 0) detachDocument();
  exposed.doc = nextDoc++;
  exposed.url = t.url;
  t.port.postMessage({ type: "expose", doc: exposed.doc, prefix });
  host.postMessage({ type: "page", doc: exposed.doc, url: t.url });
}

// detachDocument: the exposed tab's document went away (a reload, a
// navigation) or is no longer exposed.
function detachDocument() {
  if (!exposed || exposed.doc === 0) return;
  const t = tabs.get(exposed.tabId);
  t?.port.postMessage({ type: "unexpose" });
  host?.postMessage({ type: "gone", doc: exposed.doc });
  exposed.doc = 0;
}

/** @param {number} tabId */
function expose(tabId) {
  const t = tabs.get(tabId);
  if (!t) return "that tab does not serve resources (any more)";
  if (exposed !== null && exposed.tabId === tabId) return "";
  detachDocument();
  exposed = { tabId, origin: originOf(t.url), url: t.url, doc: 0 };
  if (host === null) connectHost();
  else attachDocument();
  return "";
}

function connectHost() {
  hostError = "";
  prefix = "";
  sessions = 0;
  const h = chrome.runtime.connectNative(HOST);
  host = h;
  h.onMessage.addListener((m) => {
    if (host !== h) return;
    switch (m.type) {
      case "hello":
        prefix = String(m.prefix);
        attachDocument();
        break;
      case "status":
        sessions = Number(m.sessions) || 0;
        break;
      case "post": {
        const t = exposed && exposed.doc === m.doc ? tabs.get(exposed.tabId) : undefined;
        t?.port.postMessage({ type: "post", doc: m.doc, channel: String(m.channel), text: String(m.text) });
        break;
      }
    }
  });
  h.onDisconnect.addListener(() => {
    if (host !== h) return;
    hostError = chrome.runtime.lastError?.message || "the relay exited";
    host = null;
    stop("");
  });
}

/** @param {string} why */
function stop(why) {
  if (why) hostError = why;
  detachDocument();
  exposed = null;
  if (host !== null) {
    const h = host;
    host = null;
    h.disconnect(); // the host's stdin ends: it exits, and its clients' connections end
  }
}

function state() {
  return {
    tabs: [...tabs].map(([tabId, t]) => ({ tabId, url: t.url, title: t.title })),
    exposed: exposed && { tabId: exposed.tabId, url: exposed.url, attached: exposed.doc !== 0 && prefix !== "" },
    host: host !== null,
    sessions,
    error: hostError,
  };
}

// The popup's requests. Only the popup page may expose a tab: a content
// script's message (sender.url is its page's) is refused.
chrome.runtime.onMessage.addListener((m, sender, reply) => {
  if (sender.id !== chrome.runtime.id || !String(sender.url).startsWith(POPUP)) return false;
  switch (m?.type) {
    case "state":
      reply(state());
      break;
    case "expose":
      reply({ error: expose(Number(m.tabId)), ...state() });
      break;
    case "stop":
      stop("");
      reply(state());
      break;
    default:
      return false;
  }
  return false;
});
