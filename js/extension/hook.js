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
    keep(ev);
    return ev;
  };

  /** keep adds ev to the buffer. @param {any} ev */
  const keep = (ev) => {
    if (events.length >= MAX_EVENTS) {
      // Drop the older half at once: a push while no one polls stays cheap.
      dropped += MAX_EVENTS / 2;
      events = events.slice(MAX_EVENTS / 2);
    }
    events.push(ev);
  };

  /**
   * utf8Length is the length of s in UTF-8 (its size as the agent gets it).
   * @param {string} s
   */
  const utf8Length = (s) => {
    if (!/[^\x00-\x7f]/.test(s)) return s.length;
    let n = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2; // a surrogate pair: 4 bytes
    }
    return n;
  };

  /**
   * pushJSON writes push event e as JSON text for take. Its value goes as
   * the module's comparison key, which is JSON text already (tags such as
   * ["\u0000Map", entries] the panel reads): spliced in as it is, neither
   * copied nor escaped. A suppressed push sends no value: it is the last
   * dispatched one's, which the panel has (lastSeq) unless it was dispatched
   * before the panel listened or dropped from the buffer unread (then the
   * push's own key, the same, goes as last).
   * @param {any} e @param {number} after @param {number} first the lowest seq in this answer
   */
  const pushJSON = (e, after, first) => {
    /** @type {any} */
    const head = { seq: e.seq, time: e.time, type: "push", uri: e.uri, n: e.n, outcome: e.outcome };
    if (e.error !== undefined) head.error = e.error;
    if (e.count > 1) head.count = e.count;
    if (e.queued) head.queued = true;
    let tail = e.reached !== undefined ? ',"reached":' + e.reached : "";
    if (e.got !== undefined) tail += ',"got":' + JSON.stringify(gotSizes(e.got));
    if (e.outcome === "suppressed") {
      // Unchanged: its key is the last dispatched one's, value and all.
      const l = e.last;
      if (l !== undefined && (l.seq <= after || l.seq >= first)) head.lastSeq = l.seq;
      else {
        head.lastKeyed = true;
        head.size = keySize(e.key);
        tail += ',"last":' + valueJSON(e);
      }
    } else if (e.key !== undefined || e.preview !== undefined) {
      head.size = e.size !== undefined ? e.size : keySize(e.key);
      head.keyed = typeof e.key === "string"; // the value is a key (tags to read), not a preview
      tail += ',"value":' + valueJSON(e);
    }
    const text = JSON.stringify(head);
    return tail === "" ? text : text.slice(0, -1) + tail + "}";
  };

  /** valueJSON is the JSON text of push e's value. @param {any} e */
  const valueJSON = (e) => {
    if (typeof e.key !== "string") return JSON.stringify(e.preview);
    // The key of undefined (or a function) is "\u0000undefined", no JSON text.
    return e.key.charCodeAt(0) === 0 ? '{"$t":"undefined","why":"no JSON form"}' : e.key;
  };

  const lastReach = { l: NaN, s: NaN, text: "" }; // reachedOf's last answer
  /**
   * reachedOf names the consumers of the module's count r ({listeners,
   * subscribers, mcp}) as strings ("2 resourceupdated listeners", "1
   * subscriber", "MCP session s1 on mcp-default"; none is []) and returns
   * their JSON text, which take splices into its answer. Push after push
   * the same consumers are reached: the last text is reused.
   * @param {any} r
   * @returns {string}
   */
  const reachedOf = (r) => {
    const l = Number(r.listeners);
    const s = Number(r.subscribers);
    const mcp = Array.isArray(r.mcp) && r.mcp.length ? r.mcp : null;
    if (mcp === null && l === lastReach.l && s === lastReach.s) return lastReach.text;
    const out = [];
    if (l < 0) out.push("resourceupdated listeners");
    else if (l > 0) out.push(l + " resourceupdated listener" + (l > 1 ? "s" : ""));
    if (s > 0) out.push(s + " subscriber" + (s > 1 ? "s" : ""));
    if (mcp !== null) for (const m of mcp) out.push(String(m));
    const text = JSON.stringify(out);
    if (mcp === null) Object.assign(lastReach, { l, s, text });
    return text;
  };
  /** keySize is the size of a value by its key, -1 when it has no JSON form. @param {string} k */
  const keySize = (k) => (k.charCodeAt(0) === 0 ? -1 : utf8Length(k));

  const lastSized = { text: "", size: 0 }; // textSize's last answer: agent after agent, the same value
  /** textSize is the size of a JSON text in UTF-8, -1 for null. @param {string | null} s */
  const textSize = (s) => {
    if (s === null) return -1;
    if (s !== lastSized.text) Object.assign(lastSized, { text: s, size: utf8Length(s) });
    return lastSized.size;
  };

  /**
   * gotOf copies the module's notes of what each agent that follows
   * changes received of a push ({to, kind, patch, value}: the patch's and
   * the value's JSON text, strings the module made already), or undefined
   * for none.
   * @param {any} got
   */
  const gotOf = (got) => {
    if (!Array.isArray(got) || got.length === 0) return undefined;
    const str = (/** @type {any} */ x) => (typeof x === "string" ? x : null);
    return got.map((g) => ({ to: String(g.to), kind: String(g.kind), patch: str(g.patch), value: str(g.value) }));
  };

  /**
   * gotSizes says what each agent received in bytes: size, of what it got
   * (the patch, or the value; -1: nothing, or no JSON form), and full, of the
   * value; the texts themselves are not sent.
   * @param {{to: string, kind: string, patch: string | null, value: string | null}[]} got
   */
  const gotSizes = (got) => got.map((g) => {
    const full = textSize(g.value);
    return { to: g.to, kind: g.kind, size: g.kind === "patch" ? textSize(g.patch) : g.kind === "neither" ? -1 : full, full };
  });

  const hook = {
    version: 2,
    /**
     * emit is the module's call (js/loader/inspect.js). A push keeps the
     * module's comparison key (a string: JSON text made already, shared,
     * not copied) and does the rest when the panel takes it; a value with
     * no key (a push that failed open) is copied into a preview at once.
     * The page's objects are never kept.
     * @param {string} type @param {any} f
     */
    emit(type, f) {
      switch (type) {
        case "push": {
          if (f.outcome === "suppressed") {
            // A run of unchanged pushes of one uri is one event, counted.
            const p = events.length ? events[events.length - 1] : undefined;
            if (p !== undefined && p.outcome === "suppressed" && p.uri === f.uri && p.last === lastSent.get(f.uri)) {
              p.count++;
              return;
            }
          }
          const hasKey = typeof f.key === "string";
          /** @type {any} */
          const ev = {
            seq: ++seq, time: Date.now(), type, uri: f.uri, n: f.n,
            outcome: f.settle ? f.outcome + " (settled)" : f.outcome, error: f.error,
            key: hasKey ? f.key : undefined, preview: undefined, size: undefined, last: undefined, count: 1,
            // Whom it reached, as JSON text; a queued push learns it later (reached, below).
            queued: f.queued === true, reached: f.reached ? reachedOf(f.reached) : undefined,
            got: f.reached ? gotOf(f.reached.got) : undefined, // what agents that follow changes received
          };
          if (!hasKey && "value" in f && f.error === undefined) {
            ev.preview = preview(f.value);
            ev.size = size(f.value);
          }
          if (f.outcome === "dispatched" || f.outcome === "failed open") lastSent.set(f.uri, ev);
          else if (f.outcome === "suppressed") ev.last = lastSent.get(f.uri);
          keep(ev);
          return;
        }
        case "reached": {
          // A queued push was delivered: onto its event while the panel has
          // not taken it, else an event of its own the panel puts on its row.
          const reached = reachedOf(f);
          const got = gotOf(f.got);
          for (let i = events.length - 1; i >= 0; i--) {
            const e = events[i];
            if (e.type === "push" && e.queued && e.uri === f.uri && e.n === f.n) {
              e.reached = reached;
              e.got = got;
              return;
            }
          }
          record("reached", { uri: String(f.uri), n: Number(f.n), reached: JSON.parse(reached), got: got && gotSizes(got) });
          return;
        }
        case "read":
          // by: who the module says read (a tool), else the panel while it
          // reads, else a consumer in the page.
          record("read", { uri: String(f.uri), by: reader || (typeof f.by === "string" && f.by) || "page" });
          return;
        case "tool":
          record("tool", { name: String(f.name), host: String(f.host || "") });
          return;
        case "received": {
          // What a tool's answer gave an agent (read_changes): per uri, a patch or the value.
          /** @type {any[]} */
          const changes = Array.isArray(f.changes) ? f.changes : [];
          const got = gotOf(changes.map((c) => ({ to: f.to, kind: c.kind, patch: c.patch, value: c.value }))) || [];
          record("received", {
            to: String(f.to), host: String(f.host || ""), revision: Number(f.revision), since: typeof f.since === "number" ? f.since : null,
            changes: gotSizes(got).map((g, i) => ({ uri: String(changes[i].uri), kind: g.kind, size: g.size, full: g.full })),
          });
          return;
        }
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
          // frame: the frame that serves it ({origin, src, id, name}), or false.
          record(type, { uri: f.uri, template: !!f.template, frame: f.frame && typeof f.frame === "object" ? preview(f.frame) : !!f.frame, descriptor: preview(f.descriptor) });
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
    /**
     * take answers the events after the one numbered after, as JSON text:
     * {events, dropped, seq}. Push events are written here, when the panel
     * polls, not when they happen (pushJSON).
     * @param {number} after
     */
    take(after) {
      const out = events.filter((e) => e.seq > after);
      events = [];
      const first = out.length ? out[0].seq : seq + 1;
      const parts = [];
      for (const e of out) parts.push(e.type === "push" ? pushJSON(e, after, first) : JSON.stringify(e));
      return '{"events":[' + parts.join(",") + '],"dropped":' + dropped + ',"seq":' + seq + "}";
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
