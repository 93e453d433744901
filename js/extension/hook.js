// hook.js: the page side of the Model Context panel. The panel evaluates
// this file in the inspected page (chrome.devtools.inspectedWindow.eval, or
// reload's injectedScript for "Record from load"); nothing of the extension
// runs in a page that is not inspected. It installs
// globalThis.__MODELCONTEXT_DEVTOOLS_HOOK__, which the module's inspection
// channel (js/loader/inspect.js) calls, keeps the events in a bounded buffer
// as safe previews (never the page's objects), and answers the panel's polls.
// A block, not a function: its consts stay out of the page's globals.
if (!(/** @type {any} */ (globalThis)).__MODELCONTEXT_DEVTOOLS_HOOK__) {
  const G = /** @type {any} */ (globalThis);
  const INSPECT = Symbol.for("modelcontext.inspect");
  const MAX_EVENTS = 2000; // events kept between two polls
  const MAX_NODES = 5000; // nodes of one value's preview
  const MAX_DEPTH = 12;
  const MAX_STRING = 2000;
  const MAX_ITEMS = 200;
  /** @type {any[]} */
  let events = [];
  let seq = 0;
  let dropped = 0;
  let reader = ""; // who reads now: "devtools" while the panel reads
  /** @type {Map<string, any>} uri → preview of its last dispatched value */
  const lastSent = new Map();
  const encoder = new TextEncoder();

  /** hex returns the first bytes of a binary value. @param {Uint8Array} b */
  const hex = (b) => {
    let s = "";
    for (let i = 0; i < Math.min(b.length, 16); i++) s += b[i].toString(16).padStart(2, "0") + " ";
    return s.trim();
  };

  /**
   * preview copies v into plain JSON data the panel can show: anything JSON
   * cannot hold, or that is too big, becomes {$t: what it is, ...}. It never
   * throws and never keeps a reference to v.
   * @param {any} v
   */
  const preview = (v) => {
    let nodes = 0;
    const seen = new Set();
    /** @param {any} x @param {number} depth @returns {any} */
    const walk = (x, depth) => {
      if (++nodes > MAX_NODES) return { $t: "cut", why: "more than " + MAX_NODES + " nodes" };
      switch (typeof x) {
        case "string":
          return x.length > MAX_STRING ? { $t: "string", length: x.length, head: x.slice(0, MAX_STRING) } : x;
        case "number":
          return Number.isFinite(x) ? x : { $t: "number", text: String(x) };
        case "boolean":
          return x;
        case "undefined":
          return { $t: "undefined" };
        case "bigint":
          return { $t: "bigint", text: x.toString() };
        case "symbol":
          return { $t: "symbol", text: x.toString() };
        case "function":
          return { $t: "function", name: x.name || "(anonymous)" };
      }
      if (x === null) return null;
      if (seen.has(x)) return { $t: "circular" };
      if (depth > MAX_DEPTH) return { $t: "deep", why: "nested more than " + MAX_DEPTH + " levels" };
      try {
        if (x instanceof ArrayBuffer) return { $t: "binary", type: "ArrayBuffer", size: x.byteLength, head: hex(new Uint8Array(x)) };
        if (ArrayBuffer.isView(x)) {
          return { $t: "binary", type: x.constructor.name, size: x.byteLength, head: hex(new Uint8Array(x.buffer, x.byteOffset, Math.min(x.byteLength, 16))) };
        }
        if (typeof Blob !== "undefined" && x instanceof Blob) return { $t: "binary", type: "Blob", size: x.size, mimeType: x.type };
        if (x instanceof Date) return { $t: "Date", text: isNaN(x.getTime()) ? "Invalid Date" : x.toISOString() };
        if (x instanceof Error) return { $t: "Error", name: x.name, message: x.message };
        if (typeof Promise !== "undefined" && x instanceof Promise) return { $t: "Promise" };
        seen.add(x);
        if (x instanceof Map) {
          const entries = [];
          for (const [k, val] of x) {
            if (entries.length >= MAX_ITEMS) break;
            entries.push([walk(k, depth + 1), walk(val, depth + 1)]);
          }
          return { $t: "Map", size: x.size, entries };
        }
        if (x instanceof Set) {
          const items = [];
          for (const val of x) {
            if (items.length >= MAX_ITEMS) break;
            items.push(walk(val, depth + 1));
          }
          return { $t: "Set", size: x.size, items };
        }
        if (Array.isArray(x)) {
          const out = [];
          for (let i = 0; i < Math.min(x.length, MAX_ITEMS); i++) out.push(walk(x[i], depth + 1));
          if (x.length > MAX_ITEMS) out.push({ $t: "more", count: x.length - MAX_ITEMS });
          return out;
        }
        /** @type {any} */
        const out = {};
        const keys = Object.keys(x);
        for (let i = 0; i < keys.length; i++) {
          if (i >= MAX_ITEMS) {
            out["…"] = { $t: "more", count: keys.length - MAX_ITEMS };
            break;
          }
          let val;
          try {
            val = x[keys[i]];
          } catch (e) {
            out[keys[i]] = { $t: "threw", message: message(e) };
            continue;
          }
          out[keys[i]] = walk(val, depth + 1);
        }
        return out;
      } catch (e) {
        return { $t: "threw", message: message(e) };
      } finally {
        seen.delete(x);
      }
    };
    return walk(v, 0);
  };

  /** @param {any} e */
  const message = (e) => {
    try {
      return e instanceof Error ? e.name + ": " + e.message : String(e);
    } catch {
      return "(an error that cannot be shown)";
    }
  };

  /** size is v's size in bytes (binary) or of its JSON text, -1 when it has none. @param {any} v */
  const size = (v) => {
    try {
      if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v.byteLength;
      if (typeof Blob !== "undefined" && v instanceof Blob) return v.size;
      const text = typeof v === "string" ? v : JSON.stringify(v);
      return text === undefined ? -1 : encoder.encode(text).length;
    } catch {
      return -1;
    }
  };

  /** @param {string} type @param {any} fields */
  const record = (type, fields) => {
    const ev = { seq: ++seq, time: Date.now(), type, ...fields };
    if (events.length >= MAX_EVENTS) {
      // Drop the older half at once: a push while no one polls stays cheap.
      dropped += MAX_EVENTS / 2;
      events = events.slice(MAX_EVENTS / 2);
    }
    events.push(ev);
    return ev;
  };

  const hook = {
    version: 1,
    /**
     * emit is the module's call (js/loader/inspect.js). Values are copied
     * into previews at once: the page's objects are not kept.
     * @param {string} type @param {any} f
     */
    emit(type, f) {
      switch (type) {
        case "push": {
          const ev = record("push", { uri: f.uri, n: f.n, outcome: f.outcome, error: f.error });
          // A key without a tag is the value's JSON text, a copy made
          // already: the panel makes its preview from it.
          if (typeof f.key === "string" && f.key.indexOf("\\u0000") < 0) ev.json = f.key; // tags are "\u0000Map"… in JSON
          else if ("value" in f) {
            ev.value = preview(f.value);
            ev.size = size(f.value);
          }
          if (f.outcome === "dispatched" || f.outcome === "failed open") lastSent.set(f.uri, "json" in ev ? { $json: ev.json } : ev.value);
          else if (f.outcome === "suppressed") ev.last = lastSent.has(f.uri) ? lastSent.get(f.uri) : { $t: "unknown", why: "dispatched before the panel listened" };
          if (f.settle) ev.outcome += " (settled)";
          return;
        }
        case "read":
          record("read", { uri: String(f.uri), by: reader || "page" });
          return;
        case "mcp": {
          const m = f.message && typeof f.message === "object" ? f.message : {};
          const meta = m.params && typeof m.params === "object" && m.params._meta && typeof m.params._meta === "object" ? m.params._meta : {};
          record("mcp", {
            origin: String(f.origin), channel: String(f.channel), session: String(f.session || ""), parent: !!f.parent,
            method: typeof m.method === "string" ? m.method : m.method === undefined ? "(answer)" : "(bad method)",
            id: typeof m.id === "string" || typeof m.id === "number" ? m.id : null,
            uri: m.params && typeof m.params.uri === "string" ? m.params.uri : "",
            revision: typeof meta["io.modelcontextprotocol/protocolVersion"] === "string" ? meta["io.modelcontextprotocol/protocolVersion"]
              : m.method === "initialize" && m.params && typeof m.params.protocolVersion === "string" ? m.params.protocolVersion : "",
          });
          return;
        }
        case "register":
        case "replace":
          if (type === "replace") lastSent.delete(f.uri); // the baseline is cleared (wasm/CONTRACT.md §3)
          record(type, { uri: f.uri, template: !!f.template, frame: !!f.frame, descriptor: preview(f.descriptor) });
          return;
        case "attach":
          record("attach", { snapshot: preview(f) });
          return;
        default:
          record(type, preview(f));
      }
    },
    /** attach asks the module for what is there now and to follow from now on. */
    attach() {
      const mc = G.document && G.document.modelContext;
      const f = mc && mc[INSPECT];
      if (typeof f !== "function") return JSON.stringify({ module: false, hasObject: !!mc });
      return JSON.stringify({ module: true, snapshot: preview(f.call(mc, hook)) });
    },
    /** take answers the events after the one numbered after, as JSON text. @param {number} after */
    take(after) {
      const out = events.filter((e) => e.seq > after);
      // Values with JSON text (json, last.$json) go as that text: the
      // panel parses and shows them in its own process, not the page's.
      const answer = JSON.stringify({ events: out, dropped, seq });
      events = [];
      return answer;
    },
    /** read reads uri as the panel's "Read now": a consumer read, shown as by devtools. @param {string} uri */
    read(uri) {
      const mc = G.document && G.document.modelContext;
      let p;
      reader = "devtools";
      try {
        p = mc.readResource(uri);
      } catch (e) {
        p = Promise.reject(e);
      } finally {
        reader = "";
      }
      Promise.resolve(p).then(
        (v) => record("value", { uri, value: preview(v), size: size(v) }),
        (e) => record("value", { uri, error: message(e) }));
    },
    /** detach stops the module's events; the hook stays for the page's life. */
    detach() {
      const mc = G.document && G.document.modelContext;
      const f = mc && mc[INSPECT];
      if (typeof f === "function") f.call(mc, null);
    },
  };
  Object.defineProperty(G, "__MODELCONTEXT_DEVTOOLS_HOOK__", { value: hook, configurable: true });
}
