// panel.js: DevTools' Model Context panel, for the inspected tab. It talks
// to the page only through chrome.devtools.inspectedWindow: it evaluates
// hook.js there once (installing __MODELCONTEXT_DEVTOOLS_HOOK__ and
// attaching it to the module's inspection channel, js/loader/inspect.js),
// then polls the hook's buffer every 250 ms while the panel is shown. No
// content script, no host permission: pages without DevTools open on them
// never see any of it. A block, not a function: the names are the panel's own.
{
  const POLL_MS = 250;
  const MAX_TIMELINE = 1000;
  const { render } = /** @type {any} */ (globalThis).ModelContextJSONTree;
  const $ = (/** @type {string} */ s) => /** @type {HTMLElement} */ (document.querySelector(s));
  /** @param {string} tag @param {string} [cls] @param {string} [text] */
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };

  let hookSource = "";
  let attached = false; // the hook is in the page and the module answered
  let noModule = "";    // why the page shows nothing, when it has no module
  let seq = 0;          // the last event taken
  let paused = false;
  /** @type {any} */
  let boot = null;
  /** @type {any} */
  let debug = null;
  /** @type {any} */
  let tools = null;
  /** @type {Map<string, any>} uri (or uriTemplate) → {descriptor, template, frame, value, size, error, gone} */
  const resources = new Map();
  /** @type {any[]} */
  let timeline = [];
  /** @type {Map<string, any>} origin + session → client */
  const clients = new Map();
  /** @type {Map<string, {seq: number, value: any, size: number}>} uri → its last dispatched push */
  const lastSent = new Map();
  /**
   * @typedef {object} Saved what a resource's agents were spared: the bytes
   * of the pushes suppressed as unchanged (and how many), and of the values
   * that went as patches (value − patch, over the agents that got one)
   * @property {number} dedup
   * @property {number} suppressed
   * @property {number} patches
   * @property {number} patched
   */
  /** @type {Map<string, Saved>} uri → what its agents were spared */
  const saved = new Map();

  /**
   * evalPage evaluates expr in the inspected page and resolves with its
   * value, or rejects with the exception it threw.
   * @param {string} expr
   * @returns {Promise<any>}
   */
  function evalPage(expr) {
    return new Promise((resolve, reject) => {
      chrome.devtools.inspectedWindow.eval(expr, (result, exc) => {
        if (exc && (exc.isException || exc.isError)) reject(new Error(exc.value || exc.description || "the page threw"));
        else resolve(result);
      });
    });
  }

  const HOOK = "globalThis.__MODELCONTEXT_DEVTOOLS_HOOK__";

  async function install() {
    const answer = JSON.parse(await evalPage(hookSource + `\n;${HOOK}.attach()`));
    if (!answer.module) {
      noModule = answer.hasObject
        ? "This page has a document.modelContext, but not the modelcontext module (no inspection channel): perhaps a WebMCP polyfill, or a module older than the panel."
        : "This page does not use the modelcontext module: there is no document.modelContext.";
      attached = false;
    } else {
      noModule = "";
      attached = true;
      applySnapshot(answer.snapshot);
    }
    renderAll();
  }

  /** @param {any} s */
  function applySnapshot(s) {
    boot = s.boot;
    debug = s.debug;
    tools = s.tools;
    // A module older than the panel lists frames' uris alone.
    const frames = new Map((s.frames || []).map((/** @type {any} */ f) => (typeof f === "string" ? [f, true] : [f.uri, f])));
    for (const d of s.resources) merge(d.uri, d, false, frames.get(d.uri) || false);
    for (const d of s.templates) merge(d.uriTemplate, d, true, frames.get(d.uriTemplate) || false);
  }

  /**
   * frameText names the frame a resource comes from: the iframe (its id or
   * name), its src and the origin connectFrame was given.
   * @param {any} f {origin, src, id, name}, or true when the module says no more
   */
  function frameText(f) {
    if (!f || typeof f !== "object") return "a connected frame";
    const which = f.id ? `iframe#${f.id}` : f.name ? `iframe name="${f.name}"` : "iframe";
    return `${which}${f.src ? " · " + f.src : ""} · origin ${f.origin}`;
  }

  /** @param {string} key @param {any} descriptor @param {boolean} template @param {any} frame the frame ({origin, src, id, name}), or false */
  function merge(key, descriptor, template, frame) {
    const r = resources.get(key) || {};
    resources.set(key, { ...r, descriptor, template, frame: frame || r.frame, gone: false });
  }

  async function poll() {
    if (document.hidden) return;
    const text = await evalPage(`(() => { const h = ${HOOK}; return h ? h.take(${seq}) : null; })()`);
    if (text === null) {
      // A new document (a navigation, a reload): start over.
      reset();
      await install();
      return;
    }
    const { events, seq: last } = JSON.parse(text);
    seq = last;
    if (!attached) {
      // The hook was injected at load ("Record from load"), or the module
      // arrived late: ask again.
      if (events.some((/** @type {any} */ e) => e.type === "attach") || noModule) await install();
    }
    for (const e of events) apply(e);
    if (events.length) renderAll();
  }

  function reset() {
    attached = false;
    seq = 0;
    resources.clear();
    clients.clear();
    lastSent.clear();
    saved.clear();
    timeline = [];
    boot = debug = tools = null;
  }

  /**
   * fromKey makes a preview (as hook.js makes them) of a value that came as
   * the module's comparison key (js/loader/runtime/keys.js): ["\u0000Map",
   * entries] and the like are tags, and a string that starts with "\u0000"
   * was escaped with one more.
   * @param {any} x
   * @returns {any}
   */
  function fromKey(x) {
    if (typeof x === "string") return x.charCodeAt(0) === 0 ? x.slice(1) : x;
    if (x === null || typeof x !== "object") return x;
    if (Array.isArray(x)) {
      if (x.length === 2 && typeof x[0] === "string" && x[0].charCodeAt(0) === 0 && x[0].charCodeAt(1) !== 0) return fromTag(x[0].slice(1), x[1]);
      return x.map(fromKey);
    }
    /** @type {any} */
    const o = {};
    for (const k of Object.keys(x)) o[k] = fromKey(x[k]);
    return o;
  }

  /** @param {string} tag @param {any} content */
  function fromTag(tag, content) {
    if (tag === "Map") return { $t: "Map", size: content.length, entries: content.map((/** @type {any[]} */ [k, v]) => [fromKey(k), fromKey(v)]) };
    if (tag === "Set") return { $t: "Set", size: content.length, items: content.map(fromKey) };
    // Binary: its bytes, one character each.
    let head = "";
    for (let i = 0; i < Math.min(content.length, 16); i++) head += content.charCodeAt(i).toString(16).padStart(2, "0") + " ";
    return { $t: "binary", type: tag, size: content.length, head: head.trim() };
  }

  /**
   * fromPush resolves a push event's value: a key read as a preview, and a
   * suppressed push's value, the last dispatched one of its uri (lastSeq:
   * the panel has it; last: sent along).
   * @param {any} e
   */
  function fromPush(e) {
    if (e.keyed) e.value = fromKey(e.value);
    if (e.last !== undefined && e.lastKeyed) e.last = fromKey(e.last);
    if (e.lastSeq !== undefined) {
      const l = lastSent.get(e.uri);
      if (l && l.seq === e.lastSeq) {
        e.last = l.value;
        e.size = l.size;
      } else e.last = { $t: "unknown", why: "dispatched before the panel listened" };
    }
    if (e.outcome.startsWith("suppressed")) e.value = e.last;
    else if ("value" in e && (e.outcome.startsWith("dispatched") || e.outcome.startsWith("failed open"))) lastSent.set(e.uri, { seq: e.seq, value: e.value, size: e.size });
  }

  /** savedOf is what uri's agents were spared so far. @param {string} uri */
  function savedOf(uri) {
    let s = saved.get(uri);
    if (!s) saved.set(uri, (s = { dedup: 0, suppressed: 0, patches: 0, patched: 0 }));
    return s;
  }

  /**
   * countSaved adds what a push (or a tool's answer) spared its agents to
   * the totals of uri: each suppressed push its JSON size, each patch the
   * value's size less its own.
   * @param {string} uri
   * @param {any} e a push event, or null
   * @param {any[] | undefined} got what each agent received ({kind, size, full})
   */
  function countSaved(uri, e, got) {
    if (e !== null && e.outcome.startsWith("suppressed") && e.size >= 0) {
      const s = savedOf(uri);
      const n = e.count > 1 ? e.count : 1;
      s.dedup += n * e.size;
      s.suppressed += n;
    }
    for (const g of got || []) {
      if (g.kind !== "patch" || !(g.size >= 0 && g.full >= 0)) continue;
      const s = savedOf(uri);
      s.patches += g.full - g.size;
      s.patched++;
    }
  }

  /** @param {any} e */
  function apply(e) {
    if (e.type === "push") {
      fromPush(e);
      countSaved(e.uri, e, e.got);
    }
    switch (e.type) {
      case "attach":
        applySnapshot(e.snapshot);
        attached = true;
        noModule = "";
        return;
      case "register":
      case "replace":
        merge(e.uri, e.descriptor, e.template, e.frame);
        break;
      case "unregister": {
        const r = resources.get(e.uri);
        if (r) r.gone = true;
        break;
      }
      case "push": {
        const r = resources.get(e.uri);
        if (r && "value" in e && (e.outcome.startsWith("dispatched") || e.outcome.startsWith("failed open"))) {
          r.value = e.value;
          r.size = e.size;
          r.error = "";
        }
        break;
      }
      case "value": {
        const r = resources.get(e.uri);
        if (r) Object.assign(r, { value: e.value, size: e.size, error: e.error || "", read: true });
        return; // the read itself is on the timeline already
      }
      case "boot":
        boot = { ...(boot || {}), state: e.state, why: e.why || (boot && boot.why) };
        break;
      case "mcp":
        followClient(e);
        break;
      case "reached": {
        // A queued push was delivered: its row says whom it reached and what they received.
        const p = timeline.findLast((x) => x.type === "push" && x.uri === e.uri && x.n === e.n);
        if (p) Object.assign(p, { reached: e.reached, got: e.got });
        countSaved(e.uri, null, e.got);
        return;
      }
      case "received":
        for (const c of e.changes) countSaved(c.uri, null, [c]);
        break;
    }
    if (!paused) {
      timeline.push(e);
      if (timeline.length > MAX_TIMELINE) timeline.shift();
    }
  }

  /** @param {any} e */
  function followClient(e) {
    const key = e.origin + " " + e.channel;
    let c = clients.get(key);
    if (!c) clients.set(key, (c = { origin: e.origin, channel: e.channel, session: e.session, parent: e.parent, revision: "", subscriptions: new Set(), reads: 0 }));
    if (e.revision) c.revision = e.revision;
    else if (c.revision) e.revision = c.revision; // a 2025-11-25 session's revision is its initialize's
    if (e.method === "resources/subscribe") c.subscriptions.add(e.uri);
    if (e.method === "resources/unsubscribe") c.subscriptions.delete(e.uri);
    if (e.method === "resources/read") c.reads++;
  }

  function renderAll() {
    $("#status").textContent = noModule ? "no module" : attached ? `attached · ${resources.size} resources · boot: ${boot ? boot.state : "?"}` : "attaching…";
    renderResources();
    renderTimeline();
    renderAgents();
  }

  function renderResources() {
    const root = $("#resources");
    root.replaceChildren();
    if (noModule) {
      root.append(el("p", "empty", noModule));
      return;
    }
    if (resources.size === 0) root.append(el("p", "empty", "No resources are registered yet."));
    for (const [key, r] of resources) {
      const box = el("article", "resource");
      box.dataset.uri = key;
      const h = el("h3", "", key);
      if (r.template) h.append(el("span", "kind", "template"));
      if (r.frame) h.append(el("span", "kind", "frame"));
      if (r.gone) h.append(el("span", "kind", "unregistered"));
      box.append(h);
      const dl = el("dl", "fields");
      const d = r.descriptor || {};
      for (const f of ["name", "title", "description", "mimeType", "subscribable", "annotations", "icons", "frame", "markup"]) {
        if (d[f] === undefined) continue;
        dl.append(el("dt", "", f), el("dd", "", typeof d[f] === "object" ? JSON.stringify(d[f]) : String(d[f])));
      }
      if (r.frame) dl.append(el("dt", "", "from"), el("dd", "frame", frameText(r.frame)));
      if (r.size !== undefined) dl.append(el("dt", "", "size"), el("dd", "size", r.size < 0 ? "no JSON form" : r.size + " bytes"));
      const s = saved.get(key);
      if (s) dl.append(el("dt", "", "saved"), savedText(s));
      box.append(dl);
      if (!r.template && !r.gone) {
        const b = el("button", "read", "Read now");
        b.addEventListener("click", () => evalPage(`${HOOK}.read(${JSON.stringify(key)})`).catch(show));
        box.append(b);
      }
      const v = el("div", "value");
      if (r.error) v.append(el("span", "m", "read failed: " + r.error));
      else if ("value" in r) v.append(render(r.value));
      box.append(v);
      root.append(box);
    }
  }

  /**
   * bytes writes a size for people: "84 B", "2.1 KB", "3.4 MB".
   * @param {number} n
   */
  function bytes(n) {
    if (n < 1024) return n + " B";
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KB";
    return (n / (1024 * 1024)).toFixed(1) + " MB";
  }

  /**
   * savedText says what a resource's agents were spared: "2.3 KB: 1.2 KB by
   * de-duplication (3 pushes suppressed), 1.1 KB by patches (4 patches)",
   * the exact bytes in its data attributes.
   * @param {Saved} s
   */
  function savedText(s) {
    const total = s.dedup + s.patches;
    const parts = [];
    if (s.suppressed) parts.push(`${bytes(s.dedup)} by de-duplication (${s.suppressed} push${s.suppressed > 1 ? "es" : ""} suppressed)`);
    if (s.patched) parts.push(`${bytes(s.patches)} by patches (${s.patched} patch${s.patched > 1 ? "es" : ""})`);
    const dd = el("dd", "saved", `${bytes(total)}${parts.length ? ": " + parts.join(", ") : ""}`);
    Object.assign(dd.dataset, { dedup: String(s.dedup), patches: String(s.patches), total: String(total) });
    return dd;
  }

  /**
   * gotText says what each agent that follows changes received ("received:
   * subscriber 1: patch 84 B; MCP session s1 on mcp-default: contents 2.1
   * KB"), or "" for none. An entry names its uri instead (read_changes).
   * @param {any[] | undefined} got
   */
  function gotText(got) {
    if (!got || got.length === 0) return "";
    const what = (/** @type {any} */ g) => g.kind + (g.size >= 0 && g.kind !== "removed" ? " " + bytes(g.size) : "");
    return "received: " + got.map((g) => `${g.uri !== undefined ? g.uri : g.to}: ${what(g)}`).join("; ");
  }

  /**
   * readBy names who read: the panel, a tool (read_resource, on the
   * browser's WebMCP or a polyfill), or a consumer in the page. An MCP
   * client's read is an mcp event of its own.
   * @param {string} by
   */
  function readBy(by) {
    if (by === "devtools") return "this panel";
    if (by === "tool on WebMCP") return "a tool: read_resource, called through the browser's WebMCP";
    if (by.startsWith("tool")) return "a tool: read_resource, called through the page's WebMCP polyfill";
    return "an in-page consumer";
  }

  /** @param {any} e */
  function summary(e) {
    switch (e.type) {
      case "push":
        return e.uri + (e.size >= 0 && e.size !== undefined ? ` · ${e.size} bytes` : "") + (e.count > 1 ? ` · ${e.count} pushes in a row` : "") + (e.error ? " · " + e.error : "");
      case "read":
        return `${e.uri} · read by ${readBy(e.by)}`;
      case "tool":
        return `${e.name} · called by an agent through the ${e.host === "WebMCP" ? "browser's WebMCP" : "page's WebMCP polyfill"}`;
      case "received":
        return `${e.to} answered revision ${e.revision}${e.since !== null ? " since " + e.since : ", every value"} · to an agent through the ${e.host === "WebMCP" ? "browser's WebMCP" : "page's WebMCP polyfill"}`;
      case "mcp":
        return `${e.method}${e.uri ? " " + e.uri : ""} · MCP client ${e.origin}${e.session ? " session " + e.session : ""}${e.revision ? " · revision " + e.revision : ""}`;
      case "boot":
        return `${e.state}${e.why ? ": " + e.why : ""}`;
      case "register":
      case "replace":
        return e.uri + (e.frame ? " · from " + frameText(e.frame) : "");
      default:
        return e.uri || "";
    }
  }

  /**
   * reachedText says whom a dispatched push reached ("reached: 1
   * resourceupdated listener, MCP session s1 on mcp-default", "reached
   * nobody"), that it waits behind the delivery in progress, or "" for a push
   * that was not dispatched.
   * @param {any} e
   */
  function reachedText(e) {
    if (!e.outcome.startsWith("dispatched") && !e.outcome.startsWith("failed open")) return "";
    if (e.reached) return e.reached.length ? "reached: " + e.reached.join(", ") : "reached nobody";
    return e.queued ? "queued behind the delivery in progress" : "";
  }

  function renderTimeline() {
    const ol = $("#events");
    const uri = /** @type {HTMLInputElement} */ ($("#filter-uri")).value.trim();
    const kind = /** @type {HTMLSelectElement} */ ($("#filter-outcome")).value;
    ol.replaceChildren();
    for (const e of timeline) {
      if (uri && !(e.uri || (e.changes || []).map((/** @type {any} */ c) => c.uri).join(" ")).includes(uri)) continue;
      if (kind && !(e.type === kind || (e.type === "push" && (kind === "push" || e.outcome.startsWith(kind))) || (kind === "read" && ((e.type === "mcp" && e.method === "resources/read") || e.type === "tool" || e.type === "received")) || (kind === "register" && (e.type === "replace" || e.type === "unregister")))) continue;
      const li = el("li");
      li.dataset.type = e.type;
      if (e.outcome) li.dataset.outcome = e.outcome;
      if (e.type === "read") li.dataset.by = e.by.startsWith("tool") ? "tool" : e.by === "devtools" ? "panel" : "page";
      const label = e.type === "push" ? e.outcome : e.type === "mcp" ? "mcp" : e.type;
      li.append(el("span", "time", new Date(e.time).toISOString().slice(11, 23)), el("span", "outcome-" + String(label).replace(/ .*$|\s/g, (m) => (m.startsWith(" (") ? "" : "-")), label));
      const body = el("div", "body", summary(e));
      const to = e.type === "push" ? reachedText(e) : "";
      if (to) body.append(el("div", "reached", to));
      const got = e.type === "push" ? gotText(e.got) : e.type === "received" ? gotText(e.changes) : "";
      if (got) body.append(el("div", "received", got));
      if (e.type === "push" && e.outcome.startsWith("suppressed")) {
        const side = el("div", "side");
        const a = el("div");
        a.append(el("h4", "", "last dispatched"), render(e.last, 1));
        const b = el("div");
        b.append(el("h4", "", "this push (unchanged)"), render(e.value, 1));
        side.append(a, b);
        body.append(side);
      } else if ("value" in e) {
        body.append(render(e.value, 1));
      }
      li.append(body);
      ol.append(li);
    }
  }

  function renderAgents() {
    const root = $("#agents");
    root.replaceChildren();
    if (noModule) {
      root.append(el("p", "empty", noModule));
      return;
    }
    const t = el("table", "agents");
    const row = (/** @type {string[]} */ cells, head = false) => {
      const tr = el("tr");
      for (const c of cells) tr.append(el(head ? "th" : "td", "", c));
      t.append(tr);
    };
    root.append(el("h3", "", "MCP clients"));
    if (clients.size === 0) root.append(el("p", "empty", "No MCP client has spoken to this page since the panel attached."));
    else {
      row(["origin", "window", "session", "revision", "subscriptions", "reads"], true);
      for (const c of clients.values()) row([c.origin, c.parent ? "parent" : "this window", c.session || "(none)", c.revision || "?", [...c.subscriptions].join(" ") || "(none)", String(c.reads)]);
      root.append(t);
    }
    root.append(el("h3", "", "Boot"));
    root.append(el("p", "boot", boot ? `${boot.state} (data-boot: ${boot.mode})${boot.why ? "; started by: " + boot.why : ""}${boot.error ? "; " + boot.error : ""}` : "?"));
    root.append(el("h3", "", "Tool bridge"));
    root.append(el("p", "tools", tools ? (tools.host ? `registerTool is on the page; resource tools ${tools.registered ? "registered" : "not registered"}` : "no registerTool on this page (no WebMCP)") : "?"));
    root.append(el("h3", "", "Debug"));
    root.append(el("p", "debug", debug ? `${debug.on ? "on" : "off"} (data-debug: ${debug.attribute}, __MODELCONTEXT_DEBUG__: ${debug.global})` : "?"));
  }

  /** @param {any} e */
  function show(e) {
    $("#status").textContent = String(e && e.message ? e.message : e);
  }

  for (const b of Array.from(document.querySelectorAll("#views button"))) {
    b.addEventListener("click", () => {
      for (const x of Array.from(document.querySelectorAll("#views button, .view"))) x.classList.remove("on");
      b.classList.add("on");
      $("#" + /** @type {HTMLElement} */ (b).dataset.view).classList.add("on");
    });
  }
  $("#pause").addEventListener("click", () => {
    paused = !paused;
    $("#pause").textContent = paused ? "Resume" : "Pause";
  });
  $("#clear").addEventListener("click", () => {
    timeline = [];
    renderTimeline();
  });
  $("#filter-uri").addEventListener("input", renderTimeline);
  $("#filter-outcome").addEventListener("change", renderTimeline);
  $("#record").addEventListener("click", () => {
    reset();
    chrome.devtools.inspectedWindow.reload({ injectedScript: hookSource });
  });

  (async () => {
    hookSource = await (await fetch("hook.js")).text();
    try {
      await install();
    } catch (e) {
      show(e);
    }
    let busy = false;
    setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        await poll();
      } catch (e) {
        show(e);
      } finally {
        busy = false;
      }
    }, POLL_MS);
  })();
}
