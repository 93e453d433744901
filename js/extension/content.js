// content.js: the extension's side of a page, in its isolated world (the
// page's scripts cannot see it). It runs at document_start in every
// top-level http(s) page, and only listens until the page says, unprompted,
// that it serves MCP: modelcontext.js with data-mcp (or serveMCP) posts
// "mcp-server-ready" on its channel when it starts. A page that never does
// is never posted to, and the extension never hears of it.
//
// Once the page has announced itself, the script tells the extension's
// background that the tab serves resources. Only when the visitor exposes
// this tab in the popup does it carry messages, with the MCP-B tab transport
// a stock client uses ({channel, type: "mcp", direction, payload} on
// window.postMessage): what the native host sends is posted as the page's
// own window would; what the page's server posts on the host's sub-channels
// (and the control strings on its channel) goes back as JSON text, so the
// host forwards it as it is.
(() => {
  const CH = "mcp-default";
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
      setTimeout(connect, 100);
    });
    port.postMessage({ type: "serving", url: location.href, title: document.title });
    if (document.readyState === "loading") {
      addEventListener("DOMContentLoaded", () => port?.postMessage({ type: "title", title: document.title }), { once: true });
    }
  }
})();
