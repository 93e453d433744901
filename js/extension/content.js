// content.js: the extension's side of a page, in its isolated world (the
// page's scripts cannot see it). It runs only on the sites the visitor
// allowed in the popup: the background registers it for each of those
// origins (document_start, top-level pages), and runs it in the tabs
// already open there when the visitor allows the site. On every other page
// nothing of the extension runs.
//
// It listens until the page says, unprompted, that it serves MCP:
// modelcontext.js with data-mcp (or serveMCP) posts "mcp-server-ready" on
// its channel when it starts. A page that was already open when its site
// was allowed has said so before the script came: the background asks it
// once (probe: "mcp-check-ready", to which a serving page answers the
// same). A page that never says it serves is never posted to again, and
// the extension never hears of it.
//
// Once the page has announced itself, the script tells the extension's
// background that the tab serves resources. Only when the visitor exposes
// this tab in the popup does it carry messages, with the MCP-B tab transport
// a stock client uses ({channel, type: "mcp", direction, payload} on
// window.postMessage): what the native host sends is posted as the page's
// own window would; what the page's server posts on the host's sub-channels
// (and the control strings on its channel) goes back as JSON text, so the
// host forwards it as it is. When the visitor takes the site back, the
// background says "bye" and the script stops listening.
"use strict";

content: {
  // Run twice in one document (registered, and run when its site was
  // allowed), it starts once.
  const self = /** @type {any} */ (globalThis);
  if (self.__modelcontextExtension) break content;
  const CH = "mcp-default";
  self.__modelcontextExtension = {
    // probe asks the page whether it serves (the background calls it once,
    // in a tab that was open when its site was allowed).
    probe() {
      if (!serving && !stopped) postMessage({ channel: CH, type: "mcp", direction: "client-to-server", payload: "mcp-check-ready" }, "/");
    },
  };
  let stopped = false; // the visitor took the site back
  /** @type {chrome.runtime.Port | null} */
  let port = null;
  let serving = false;
  /** @type {{doc: number, pre: string} | null} the exposure, while the visitor exposes this tab */
  let exposed = null;

  /** @param {MessageEvent} ev */
  const listener = (ev) => {
    if (ev.source !== window) return;
    const d = ev.data;
    if (d === null || typeof d !== "object" || d.type !== "mcp" || d.direction !== "server-to-client") return;
    const c = d.channel;
    if (c === CH && d.payload === "mcp-server-ready" && !serving) {
      serving = true;
      connect();
    }
    if (exposed === null || port === null) return;
    if (c === CH ? typeof d.payload !== "string" : typeof c !== "string" || !c.startsWith(exposed.pre)) return;
    let text;
    try {
      text = JSON.stringify(d.payload);
    } catch {
      return;
    }
    if (text !== undefined) port.postMessage({ type: "msg", doc: exposed.doc, channel: c, text });
  };
  addEventListener("message", listener);

  function connect() {
    if (stopped) return;
    if (!chrome.runtime?.id) {
      removeEventListener("message", listener); // the extension was removed or reloaded
      return;
    }
    try {
      port = chrome.runtime.connect({ name: "modelcontext-page" });
    } catch {
      port = null; // the extension was removed or reloaded
      removeEventListener("message", listener);
      return;
    }
    port.onMessage.addListener((m) => {
      switch (m.type) {
        case "expose":
          exposed = { doc: m.doc, pre: CH + "/" + m.prefix };
          break;
        case "unexpose":
          exposed = null;
          break;
        case "bye":
          stopped = true;
          exposed = null;
          removeEventListener("message", listener);
          port?.disconnect();
          port = null;
          break;
        case "post":
          if (exposed !== null && m.doc === exposed.doc) {
            postMessage({ channel: m.channel, type: "mcp", direction: "client-to-server", payload: JSON.parse(m.text) }, "/");
          }
          break;
      }
    });
    port.onDisconnect.addListener(() => {
      // The background went to sleep, or the extension went away: a
      // document that still serves says so again (the exposure, if any,
      // is the background's to give back).
      port = null;
      exposed = null;
      if (!stopped) setTimeout(connect, 100);
    });
    port.postMessage({ type: "serving", url: location.href, title: document.title });
    if (document.readyState === "loading") {
      addEventListener("DOMContentLoaded", () => port?.postMessage({ type: "title", title: document.title }), { once: true });
    }
  }
}
