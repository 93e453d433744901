// background.js: the extension's service worker. It runs the content
// script on the sites the visitor allowed in the popup, and nowhere else;
// it knows the tabs whose page serves MCP (their content script said so),
// exposes at most one of them, the one the visitor clicked in the popup,
// and carries that tab's messages to and from the native host: the
// modelcontext relay, which Chrome starts when a tab is first exposed
// (chrome.runtime.connectNative) and which serves the tab to desktop MCP
// clients.
//
// The allowed sites are the content scripts registered for them
// (chrome.scripting.registerContentScripts, one per origin, kept across
// browser sessions): Chrome holds them, and the popup's list of sites is
// read from there. The extension holds no site's permission at install
// (optional_host_permissions): the popup asks the browser for one site's
// when the visitor allows it (chrome.permissions.request, in the click),
// and Remove gives it back. Plain http sites cannot be allowed, except on
// this machine (127.0.0.1, localhost, [::1]): anyone on the network between
// could change what such a page tells the agent.
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

// A site's content script registration, by its origin.
const SITE = "site ";

// The plain http sites that may be allowed: this machine's (the manifest's
// optional_host_permissions name the same).
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/**
 * refusal says why agents cannot be allowed on origin, or "" if they can.
 * @param {string} origin
 */
function refusal(origin) {
  if (!/^https?:\/\/[^/]+$/.test(origin) || originOf(origin) !== origin) return `agents cannot be allowed on "${origin}": not a web site`;
  if (origin.startsWith("http:") && !LOOPBACK.test(origin)) {
    return `agents cannot be allowed on ${origin}: it is plain http, which anyone on the network between could change; use its https:// address (plain http is allowed only on this machine: 127.0.0.1, localhost, [::1])`;
  }
  return "";
}

/** @param {string} origin the permission pattern of origin's pages */
const pattern = (origin) => origin + "/*";

/** @returns {Promise<string[]>} the origins the visitor allowed */
async function sites() {
  const all = await chrome.scripting.getRegisteredContentScripts();
  return all.filter((c) => c.id.startsWith(SITE)).map((c) => c.id.slice(SITE.length));
}

/**
 * allow runs the content script on origin's pages from now on, and in its
 * tabs already open, which are asked once whether they serve.
 * @param {string} origin
 */
async function allow(origin) {
  const refused = refusal(origin);
  if (refused) return refused;
  if (!(await chrome.permissions.contains({ origins: [pattern(origin)] }))) {
    return `the browser has not granted the extension ${origin}: click "Let agents see this site" and accept`;
  }
  if (!(await sites()).includes(origin)) {
    await chrome.scripting.registerContentScripts([
      { id: SITE + origin, matches: [origin + "/*"], js: ["content.js"], runAt: "document_start", allFrames: false, persistAcrossSessions: true },
    ]);
  }
  for (const t of await chrome.tabs.query({})) {
    if (t.id === undefined || originOf(t.url || "") !== origin) continue;
    const target = { tabId: t.id };
    try {
      await chrome.scripting.executeScript({ target, files: ["content.js"] });
      await chrome.scripting.executeScript({ target, func: () => /** @type {any} */ (globalThis).__modelcontextExtension?.probe() });
    } catch {
      // The tab is gone, or shows an error page: its next page gets the script.
    }
  }
  return "";
}

/**
 * disallow stops running the content script on origin's pages: the exposure
 * ends if it was there, and the scripts in its tabs stop listening.
 * @param {string} origin
 */
async function disallow(origin) {
  await chrome.scripting.unregisterContentScripts({ ids: [SITE + origin] }).catch(() => {});
  if (exposed !== null && exposed.origin === origin) stop("");
  for (const [tabId, t] of tabs) {
    if (originOf(t.url) !== origin) continue;
    t.port.postMessage({ type: "bye" });
    tabs.delete(tabId);
  }
  await chrome.permissions.remove({ origins: [pattern(origin)] }).catch(() => {});
}

// The visitor took a site's permission back elsewhere (chrome://extensions):
// the site is no longer allowed.
chrome.permissions.onRemoved.addListener(async (p) => {
  const allowed = await sites();
  for (const o of p.origins || []) {
    const origin = o.endsWith("/*") ? o.slice(0, -2) : o;
    if (allowed.includes(origin)) await disallow(origin);
  }
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

// state is what the popup shows: the serving tabs, the exposure, the
// allowed sites, and the site of the tab the visitor is looking at (the
// active tab of the last focused window), when it is a web site.
async function state() {
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  const here = originOf(active?.url || "");
  return {
    tabs: [...tabs].map(([tabId, t]) => ({ tabId, url: t.url, title: t.title })),
    exposed: exposed && { tabId: exposed.tabId, url: exposed.url, attached: exposed.doc !== 0 && prefix !== "" },
    host: host !== null,
    sessions,
    error: hostError,
    sites: await sites(),
    here: /^https?:/.test(here) ? here : "",
    refused: /^https?:/.test(here) ? refusal(here) : "",
  };
}

// The popup's requests. Only the popup page may allow a site or expose a
// tab: a content script's message (sender.url is its page's) is refused.
chrome.runtime.onMessage.addListener((m, sender, reply) => {
  if (sender.id !== chrome.runtime.id || !String(sender.url).startsWith(POPUP)) return false;
  /** @type {() => Promise<string>} */
  let act;
  switch (m?.type) {
    case "state":
      act = async () => "";
      break;
    case "allow":
      act = () => allow(String(m.origin));
      break;
    case "disallow":
      act = async () => (await disallow(String(m.origin)), "");
      break;
    case "expose":
      act = async () => expose(Number(m.tabId));
      break;
    case "stop":
      act = async () => (stop(""), "");
      break;
    default:
      return false;
  }
  act()
    .then(async (error) => reply({ ...(await state()), error: error || hostError }))
    .catch((e) => reply({ tabs: [], exposed: null, sessions: 0, sites: [], here: "", refused: "", error: String(e && e.message ? e.message : e) }));
  return true; // the reply comes later
});
