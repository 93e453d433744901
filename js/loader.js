// modelcontext: live resources on document.modelContext, backed by Go/WebAssembly.
//
// This loader is the only JavaScript of the module. It installs the page API
// synchronously, queues calls until the Go runtime is ready, and gives Go the
// few things only JavaScript can do: call the page's functions, hold its
// values, compute comparison keys and fire events. Every decision (validation,
// ordering, de-duplication, subscriptions) is made in Go (wasm/registry).
//
// `make build` folds Go's wasm_exec.js into this file at the @include line, so
// that a page needs one script tag. Go calls the loader through `host` below;
// the loader calls Go through the module's exports (wasm/bridge/exports.go),
// passing only numbers: strings travel as UTF-8 in a buffer of Go's memory,
// values stay in `vals` and are named by index.
(() => {
  "use strict";

  const INSTALLED = Symbol.for("modelcontext.resources");
  const existing = document.modelContext;
  if (existing && existing[INSTALLED]) return; // loaded twice: the first copy serves

  // Go's wasm_exec.js defines globalThis.Go and, where they are missing, the
  // globals fs, process and path. Folded in here it runs against `goGlobals`
  // instead of the page's globalThis, so the loader never adds, replaces or
  // deletes a page global: a page that also runs its own Go program with the
  // stock wasm_exec.js, before or after this script, keeps its Go, fs,
  // process and path. The module does not use syscall/js, so the Go runtime
  // never needs the real globalThis through this object; `fs` is the binding
  // wasm_exec.js writes Go's console output through.
  const goGlobals = {
    crypto: globalThis.crypto,
    performance: globalThis.performance,
    TextEncoder: globalThis.TextEncoder,
    TextDecoder: globalThis.TextDecoder,
  };
  let fs;
  ((globalThis) => {
    // @include wasm_exec.js
  })(goGlobals);
  const Go = goGlobals.Go;
  fs = goGlobals.fs;

  // The script tag that is running this file; null when it is imported as an
  // ES module (or injected by a script).
  const script = document.currentScript;
  const debugAttr = !!script && script.hasAttribute("data-debug");
  // Where the .wasm is, first match wins: data-wasm on the tag; the page's
  // __MODELCONTEXT_WASM_URL__, set before this file loads; beside the ES
  // module (import.meta.url); beside the script's src. Both resolve like any
  // URL of the page, and a query or hash on the script's URL changes nothing.
  const wasmURL = (() => {
    const attr = script && script.getAttribute("data-wasm");
    if (attr) return new URL(attr, document.baseURI).href;
    const set = globalThis.__MODELCONTEXT_WASM_URL__;
    if (typeof set === "string" && set !== "") return new URL(set, document.baseURI).href;
    const moduleURL = /* @module-wasm-url */ undefined;
    if (moduleURL) return moduleURL;
    const base = (script && script.src) || scriptURLFromStack() || document.baseURI;
    return new URL("modelcontext.wasm", base).href;
  })();

  // scriptURLFromStack finds this file's URL in a stack trace, for the
  // classic script loaded some other way than a tag of its own (imported for
  // its side effect, or evaluated by a loader library): the last frame is the
  // file's top level, "<url>:<line>:<column>".
  function scriptURLFromStack() {
    const m = /((?:https?|file|blob):[^\s()]+?):\d+:\d+\)?\s*$/.exec(new Error().stack || "");
    return m ? m[1] : "";
  }

  // ---- The object the API lives on ----------------------------------------

  let mc = existing;
  if (mc === null || (typeof mc !== "object" && typeof mc !== "function")) {
    mc = new EventTarget();
    Object.defineProperty(document, "modelContext", { value: mc, configurable: true, enumerable: true });
  }
  let events = mc;
  if (typeof mc.dispatchEvent !== "function" || typeof mc.addEventListener !== "function") {
    events = new EventTarget();
    for (const k of ["addEventListener", "removeEventListener", "dispatchEvent"]) {
      define(k, events[k].bind(events));
    }
  }

  function define(name, value) {
    Object.defineProperty(mc, name, { value, configurable: true, writable: true, enumerable: false });
  }

  // ---- State --------------------------------------------------------------

  const LOADING = 0, READY = 1, FAILED = 2;
  let state = LOADING;
  let failure = null; // the Error that `ready` rejected with
  let ex = null; // the module's exports
  let lastError = ""; // message of the error Go asked the loader to throw
  let go = null; // the Go runtime (wasm_exec.js)

  const regs = new Map(); // registration ID → record, see host.bind
  const handlers = new Map(); // subscription ID → subscribeResource handler
  const FREE = Symbol("free");
  const vals = [FREE]; // value handles → page values (0 is no value)
  const freeVals = [];
  let pending = null; // the snapshot being registered, taken by host.bind
  // Pushes nested in pushes (get or a listener calling onChange): bounded, so
  // that an endless loop is reported instead of exhausting the stack inside Go.
  const MAX_PUSH_DEPTH = 64;
  let pushDepth = 0;

  // quietError reports without ever throwing, even when the stack is exhausted.
  function quietError(...args) {
    try {
      console.error(...args);
    } catch {}
  }

  function hold(v) {
    const h = freeVals.length ? freeVals.pop() : vals.length;
    vals[h] = v;
    return h;
  }

  // ---- Reading and encoding descriptors -----------------------------------

  // Kinds, as in wasm/registry/descriptor.go.
  const K_UNDEFINED = 0, K_NULL = 1, K_STRING = 2, K_NUMBER = 3, K_BOOLEAN = 4, K_FUNCTION = 5,
    K_OBJECT = 6, K_ARRAY = 7, K_SYMBOL = 8, K_BIGINT = 9;
  const KIND_NAMES = ["undefined", "null", "string", "number", "boolean", "function", "object", "array", "symbol", "bigint"];

  function kindOf(v) {
    switch (typeof v) {
      case "undefined": return K_UNDEFINED;
      case "string": return K_STRING;
      case "number": return K_NUMBER;
      case "boolean": return K_BOOLEAN;
      case "function": return K_FUNCTION;
      case "symbol": return K_SYMBOL;
      case "bigint": return K_BIGINT;
    }
    if (v === null) return K_NULL;
    try {
      return Array.isArray(v) ? K_ARRAY : K_OBJECT;
    } catch {
      return K_OBJECT; // a revoked Proxy
    }
  }

  // snapshot reads every field of a descriptor exactly once.
  function snapshot(desc) {
    const s = { kind: kindOf(desc), desc };
    if (s.kind !== K_OBJECT) return s;
    for (const k of ["uri", "name", "title", "description", "mimeType", "get", "subscribe", "annotations", "uriTemplate"]) {
      s[k] = read(desc, k, k);
    }
    if (kindOf(s.annotations) === K_OBJECT) {
      const a = s.annotations;
      s.audience = read(a, "audience", "annotations.audience");
      s.priority = read(a, "priority", "annotations.priority");
      s.lastModified = read(a, "lastModified", "annotations.lastModified");
      if (kindOf(s.audience) === K_ARRAY) {
        try {
          s.audience = Array.prototype.slice.call(s.audience);
        } catch (e) {
          throw new TypeError(`modelcontext: registerResource: reading "annotations.audience" threw: ${describe(e)}`);
        }
      }
    }
    return s;
  }

  function read(o, key, label) {
    try {
      return o[key];
    } catch (e) {
      throw new TypeError(`modelcontext: registerResource: reading "${label}" threw: ${describe(e)}`);
    }
  }

  function describe(e) {
    try {
      return e instanceof Error ? e.message : String(e);
    } catch {
      return "an unprintable value";
    }
  }

  const encoder = new TextEncoder();
  let scratch = new Uint8Array(512);
  let scratchView = new DataView(scratch.buffer);
  let pos = 0;

  function room(n) {
    if (pos + n <= scratch.length) return;
    const bigger = new Uint8Array(Math.max(pos + n, scratch.length * 2));
    bigger.set(scratch.subarray(0, pos));
    scratch = bigger;
    scratchView = new DataView(scratch.buffer);
  }

  // put writes one field in the format DecodeDescriptor reads.
  function put(v, depth) {
    const k = kindOf(v);
    room(1);
    scratch[pos++] = k;
    if (k === K_STRING) {
      room(4 + v.length * 3);
      const n = utf8(v, scratch, pos + 4);
      scratchView.setUint32(pos, n, true);
      pos += 4 + n;
    } else if (k === K_BOOLEAN) {
      room(1);
      scratch[pos++] = v ? 1 : 0;
    } else if (k === K_NUMBER) {
      room(8);
      scratchView.setFloat64(pos, v, true);
      pos += 8;
    } else if (k === K_ARRAY) {
      const n = depth > 0 ? 0 : v.length;
      room(4);
      scratchView.setUint32(pos, n, true);
      pos += 4;
      for (let i = 0; i < n; i++) put(v[i], depth + 1);
    }
  }

  // encode writes the snapshot into Go's buffer and returns its length.
  function encode(s) {
    pos = 0;
    room(1);
    scratch[pos++] = s.kind;
    for (const k of ["uri", "name", "title", "description", "mimeType", "get", "subscribe", "annotations", "audience", "priority", "lastModified", "uriTemplate"]) {
      put(s[k], 0);
    }
    return flush(0);
  }

  // encodeFields writes values as fields after `prefix` bytes already in
  // Go's buffer, and returns the length of the fields.
  function encodeFields(values, prefix) {
    pos = 0;
    for (const v of values) put(v, 0);
    return flush(prefix);
  }

  function flush(prefix) {
    const p = ex.mc_buffer(prefix + pos);
    new Uint8Array(ex.mem.buffer, p + prefix, pos).set(scratch.subarray(0, pos));
    return pos;
  }

  // ascii writes a short ASCII string into dst at `at` and reports whether it
  // could: for a uri, a charCodeAt loop is several times faster than
  // TextEncoder.encodeInto.
  function ascii(s, dst, at) {
    if (s.length > 128) return false;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return false;
      dst[at + i] = c;
    }
    return true;
  }

  // utf8 writes s as UTF-8 into dst at `at` and returns the length. A string
  // with lone surrogates is written as WTF-8 (each surrogate as its own
  // three-byte sequence), so that "x:\ud800" and "x:\ufffd" stay different
  // uris in Go, as they are in JavaScript.
  function utf8(s, dst, at) {
    if (ascii(s, dst, at)) return s.length;
    if (s.isWellFormed()) return encoder.encodeInto(s, dst.subarray(at)).written;
    let n = at;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
        const lo = s.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
          i++;
        }
      }
      if (c < 0x80) dst[n++] = c;
      else if (c < 0x800) (dst[n++] = 0xc0 | (c >> 6)), (dst[n++] = 0x80 | (c & 63));
      else if (c < 0x10000) (dst[n++] = 0xe0 | (c >> 12)), (dst[n++] = 0x80 | ((c >> 6) & 63)), (dst[n++] = 0x80 | (c & 63));
      else (dst[n++] = 0xf0 | (c >> 18)), (dst[n++] = 0x80 | ((c >> 12) & 63)), (dst[n++] = 0x80 | ((c >> 6) & 63)), (dst[n++] = 0x80 | (c & 63));
    }
    return n - at;
  }

  // putString writes s into Go's buffer as UTF-8 and returns its length.
  let bufPtr = 0, bufView = null;
  function putString(s) {
    const max = s.length * 3;
    const p = ex.mc_buffer(max);
    if (p !== bufPtr || bufView.buffer !== ex.mem.buffer || bufView.length < max) {
      bufPtr = p;
      bufView = new Uint8Array(ex.mem.buffer, p, Math.max(max, 256));
    }
    return utf8(s, bufView, 0);
  }

  // publicInfo is the descriptor getResources returns.
  function publicInfo(s) {
    const info = s.uri === undefined ? { uriTemplate: s.uriTemplate, name: s.name } : { uri: s.uri, name: s.name };
    if (s.title !== undefined) info.title = s.title;
    if (s.description !== undefined) info.description = s.description;
    info.mimeType = s.mimeType === undefined ? "application/json" : s.mimeType;
    if (s.annotations !== undefined) {
      const a = {};
      if (s.audience !== undefined) a.audience = s.audience.slice();
      if (s.priority !== undefined) a.priority = s.priority;
      if (s.lastModified !== undefined) a.lastModified = s.lastModified;
      info.annotations = a;
    }
    if (s.uri !== undefined) info.subscribable = s.subscribe !== undefined;
    return info;
  }

  function copyInfo(info) {
    const c = { ...info };
    if (info.annotations) {
      c.annotations = { ...info.annotations };
      if (info.annotations.audience) c.annotations.audience = info.annotations.audience.slice();
    }
    return c;
  }

  // ---- Comparison keys ----------------------------------------------------

  const toString = Object.prototype.toString;

  // keyReplacer keeps visible the content that JSON.stringify would hide,
  // tagged with its type so that a Map never equals a plain object.
  function keyReplacer(_, v) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    if (v instanceof Map) return { "\u0000Map": Array.from(v) };
    if (v instanceof Set) return { "\u0000Set": Array.from(v) };
    if (ArrayBuffer.isView(v)) {
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      return { ["\u0000" + toString.call(v)]: Array.from(bytes) };
    }
    if (v instanceof ArrayBuffer) return { "\u0000ArrayBuffer": Array.from(new Uint8Array(v)) };
    return v;
  }

  // keyOf returns the comparison key of v; it throws where JSON cannot encode v.
  function keyOf(v) {
    const k = JSON.stringify(v, keyReplacer);
    return k === undefined ? "\u0000" + typeof v : k;
  }

  // ---- What Go calls (wasm/bridge/imports.go) -----------------------------

  const decoder = new TextDecoder();
  // str reads a string Go passed as a pointer and a length. Go's messages are
  // mostly short ASCII, which String.fromCharCode reads faster than TextDecoder.
  function str(p, n) {
    const b = new Uint8Array(ex.mem.buffer, p, n);
    if (n <= 4096) {
      let ascii = true;
      for (let i = 0; i < n; i++) {
        if (b[i] >= 0x80) {
          ascii = false;
          break;
        }
      }
      if (ascii) return n <= 1024 ? String.fromCharCode.apply(null, b) : latin(b);
    }
    return decoder.decode(b);
  }

  function latin(b) {
    let s = "";
    for (let i = 0; i < b.length; i += 1024) s += String.fromCharCode.apply(null, b.subarray(i, i + 1024));
    return s;
  }

  function dispatch(type, detail) {
    try {
      events.dispatchEvent(new CustomEvent(type, { detail }));
    } catch (e) {
      quietError(`modelcontext: dispatching ${type} failed:`, e);
    }
  }

  const host = {
    bind(id) {
      const s = pending;
      regs.set(id, { uri: s.uri === undefined ? s.uriTemplate : s.uri, desc: s.desc, get: s.get, subscribe: s.subscribe, teardown: null, info: publicInfo(s), base: null, cand: null });
    },
    subscribe(id) {
      const r = regs.get(id);
      const onChange = () => {
        if (state !== READY) return;
        if (pushDepth >= MAX_PUSH_DEPTH) {
          quietError(`modelcontext: onChange of "${r.uri}" re-entered ${MAX_PUSH_DEPTH} pushes deep (does get() call onChange?); this push was dropped`);
          return;
        }
        pushDepth++;
        try {
          ex.mc_push(id);
        } finally {
          pushDepth--;
        }
      };
      let t;
      try {
        t = r.subscribe.call(r.desc, onChange);
      } catch (e) {
        r.info.subscribable = false;
        return -hold(e);
      }
      if (typeof t !== "function") return 16 + kindOf(t);
      r.teardown = t;
      return 0;
    },
    retire(id) {
      const r = regs.get(id);
      regs.delete(id);
      if (r && r.teardown) {
        try {
          r.teardown();
        } catch (e) {
          return hold(e);
        }
      }
      return 0;
    },
    get(id, push) {
      const r = regs.get(id);
      try {
        const v = r.get.call(r.desc);
        if (v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function") {
          Promise.resolve(v).then(
            (x) => settle(id, push, hold(x), 1),
            (e) => settle(id, push, hold(e), 0));
          return 0;
        }
        return hold(v);
      } catch (e) {
        return -hold(e);
      }
    },
    compare(id, h) {
      const r = regs.get(id);
      try {
        r.cand = keyOf(vals[h]);
      } catch {
        r.cand = null;
        return 2; // KeyNone: fail open
      }
      return r.cand === r.base ? 0 : 1;
    },
    setBaseline(id, keep) {
      keep = keep !== 0;
      const r = regs.get(id);
      r.base = keep ? r.cand : null;
      r.cand = null;
    },
    dispatch(id, h) {
      dispatch("resourceupdated", { uri: regs.get(id).uri, value: vals[h] });
    },
    deliver(sub, id, h) {
      const f = handlers.get(sub);
      if (!f) return 0;
      try {
        f(vals[h], regs.get(id).uri);
      } catch (e) {
        return hold(e);
      }
      return 0;
    },
    endSubscription(sub) {
      handlers.delete(sub);
    },
    release(h) {
      if (!(h > 0 && h < vals.length) || vals[h] === FREE) return; // not a live handle
      vals[h] = FREE;
      freeVals.push(h);
    },
    listChanged() {
      dispatch("resourcelistchanged", { resources: getResources() });
    },
    warn(p, n) {
      console.warn(str(p, n));
    },
    error(p, n, h) {
      if (h) console.error(str(p, n), vals[h]);
      else console.error(str(p, n));
    },
    debugging() {
      return debugAttr || globalThis.__MODELCONTEXT_DEBUG__ === true ? 1 : 0;
    },
    debug(p, n) {
      console.debug(str(p, n));
    },
    setError(p, n) {
      lastError = str(p, n);
    },
    ready() {
      started = true;
    },
    setParams(p, n) {
      lastParams = JSON.parse(str(p, n));
    },
    mcpOpen(server, p, n) {
      mcpOpen(server, str(p, n));
    },
    mcpClose(server) {
      mcpClose(server);
    },
    mcpPost(server, sp, sn, p, n, attach, idsPtr, count, h) {
      mcpPost(server, sn ? str(sp, sn) : "", str(p, n), attach, count ? Array.from(new Int32Array(ex.mem.buffer, idsPtr, count)) : [], h);
    },
    mcpRead(server, req, id, p, n, cls) {
      mcpRead(server, req, id, n ? JSON.parse(str(p, n)) : undefined, cls);
    },
  };
  let lastParams; // the template parameters of the last mc_lookup
  let started = false;

  // imports wraps every host function so that no exception ever unwinds Go's
  // frames: a throw that escaped into Go would skip its deferred calls.
  function imports() {
    const o = {};
    for (const [name, f] of Object.entries(host)) {
      o[name] = function () {
        try {
          return f.apply(undefined, arguments);
        } catch (e) {
          quietError(`modelcontext: internal error in the loader's ${name}:`, e);
          return 0;
        }
      };
    }
    return o;
  }

  function settle(id, push, h, ok) {
    if (state === READY) ex.mc_settle(id, push, h, ok);
  }

  // ---- Calls into Go ------------------------------------------------------

  function internal(code) {
    if (code < 0) throw new Error(lastError);
    return code;
  }

  function notFound(msg) {
    return new DOMException(msg, "NotFoundError");
  }

  function registerNow(s) {
    const n = encode(s);
    pending = s;
    let id;
    try {
      id = internal(ex.mc_register(n));
    } finally {
      pending = null;
    }
    if (id === 0) throw new TypeError(lastError);
    return id;
  }

  function getResources() {
    return listInfos(0);
  }

  function getResourceTemplates() {
    return listInfos(1);
  }

  function listInfos(templates) {
    if (state === FAILED) throw failure;
    if (state === LOADING) {
      const out = [];
      for (const e of early.values()) if (("uriTemplate" in e.info) === !!templates) out.push(copyInfo(e.info));
      return out;
    }
    const n = internal(ex.mc_list(templates));
    const out = new Array(n);
    if (n === 0) return out;
    const ids = new Int32Array(ex.mem.buffer, ex.mc_list_ptr(), n);
    for (let i = 0; i < n; i++) out[i] = copyInfo(regs.get(ids[i]).info);
    return out;
  }

  function readNow(uri) {
    lastParams = undefined;
    const id = internal(ex.mc_lookup(putString(uri)));
    if (id === 0) return Promise.reject(notFound(lastError));
    const r = regs.get(id);
    try {
      return Promise.resolve(lastParams === undefined ? r.get.call(r.desc) : r.get.call(r.desc, lastParams));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  function subscribeNow(uri, handler) {
    const sub = internal(ex.mc_subscribe(putString(uri)));
    if (sub === 0) throw notFound(lastError);
    handlers.set(sub, handler);
    return sub;
  }

  // ---- Before Go is ready: the queue --------------------------------------

  const queue = []; // calls to replay, in order
  const early = new Map(); // uri → {info, handle}: the list as it will be after replay

  // precheck mirrors registry.Validate for registrations made before Go is
  // ready, so that they throw at the call site. Go validates again at replay;
  // the browser tests check that both give the same messages.
  function precheck(s) {
    const P = "modelcontext: registerResource: ";
    if (s.kind !== K_OBJECT) return P + "the descriptor must be an object, got " + KIND_NAMES[s.kind];
    let key = "uri", id = s.uri;
    if (s.uriTemplate !== undefined && s.uri === undefined) {
      key = "uriTemplate";
      id = s.uriTemplate;
    }
    if (id === undefined) return P + '"uri" is required (a string like "state://cart")';
    if (typeof id !== "string") return P + `"${key}" must be a string, got ${KIND_NAMES[kindOf(id)]}`;
    if (id === "") return P + `"${key}" must not be empty`;
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:./s.test(id)) return P + `"${key}" "${id}" has no scheme; write it like "state://cart"`;
    const bad = (field, what) => P + `"${field}" ${what} (${key} "${id}")`;
    if (key === "uri" && s.uriTemplate !== undefined) return bad("uriTemplate", 'must not be given together with "uri"');
    if (key === "uriTemplate") {
      const why = templateProblem(id);
      if (why) return P + `"uriTemplate" "${id}" ${why}`;
      if (s.subscribe !== undefined) return bad("subscribe", "is not supported with a uriTemplate: templates are read on demand; register a concrete uri to push it");
    }
    const k = (v) => KIND_NAMES[kindOf(v)];
    if (s.name === undefined) return bad("name", "is required");
    if (typeof s.name !== "string") return bad("name", "must be a string, got " + k(s.name));
    if (s.name === "") return bad("name", "must not be empty");
    if (s.get === undefined) return bad("get", "is required, a function that returns the current value");
    if (typeof s.get !== "function") return bad("get", "must be a function, got " + k(s.get));
    if (s.subscribe !== undefined && typeof s.subscribe !== "function") return bad("subscribe", "must be a function, got " + k(s.subscribe));
    for (const f of ["title", "description", "mimeType"]) {
      if (s[f] !== undefined && typeof s[f] !== "string") return bad(f, "must be a string, got " + k(s[f]));
    }
    if (s.annotations === undefined) return "";
    if (kindOf(s.annotations) !== K_OBJECT) return bad("annotations", "must be an object, got " + k(s.annotations));
    if (s.audience !== undefined) {
      if (kindOf(s.audience) !== K_ARRAY) return bad("annotations.audience", "must be an array, got " + k(s.audience));
      for (let i = 0; i < s.audience.length; i++) {
        if (s.audience[i] !== "user" && s.audience[i] !== "assistant") return bad(`annotations.audience[${i}]`, 'must be "user" or "assistant"');
      }
    }
    if (s.priority !== undefined && !(typeof s.priority === "number" && s.priority >= 0 && s.priority <= 1)) {
      return bad("annotations.priority", "must be a number from 0 to 1");
    }
    if (s.lastModified !== undefined && !(typeof s.lastModified === "string" && isISODate(s.lastModified))) {
      return bad("annotations.lastModified", "must be an ISO 8601 date string");
    }
    return "";
  }

  // templateProblem mirrors registry.ParseTemplate.
  function templateProblem(t) {
    let rest = t, vars = 0;
    for (;;) {
      const open = rest.indexOf("{"), close = rest.indexOf("}");
      if (open < 0) return close >= 0 ? 'has a "}" without "{"' : "";
      if (close >= 0 && close < open) return 'has a "}" without "{"';
      if (close < 0) return 'has a "{" without "}"';
      const name = rest.slice(open + 1, close);
      if (!/^[A-Za-z0-9_.%]+$/.test(name)) return `has the expression {${name}}; only simple {name} expressions (RFC 6570 level 1) are supported`;
      if (open === 0 && vars > 0) return "has two expressions next to each other; separate them with a literal";
      vars++;
      rest = rest.slice(close + 1);
    }
  }

  function isISODate(t) {
    const m = /^\d{4}-(\d\d)-(\d\d)(?:[Tt]|$)/.exec(t);
    return !!m && +m[1] >= 1 && +m[1] <= 12 && +m[2] >= 1 && +m[2] <= 31;
  }

  function replay() {
    for (let i = 0; i < queue.length; i++) {
      const q = queue[i];
      queue[i] = null;
      try {
        switch (q.op) {
          case "register":
            q.handle.id = registerNow(q.s);
            break;
          case "unregister":
            if (q.handle.id) ex.mc_unregister(q.handle.id);
            break;
          case "read":
            readNow(q.uri).then(q.resolve, q.reject);
            break;
          case "subscribe":
            if (!q.handle.cancelled) q.handle.id = subscribeNow(q.uri, q.handler);
            break;
          case "serve":
            if (!q.handle.stopped) serveNow(q.options, q.handle);
            break;
        }
      } catch (e) {
        if (q.reject) q.reject(e);
        else console.error(e);
      }
    }
    queue.length = 0;
    early.clear();
  }

  function fail(err) {
    state = FAILED;
    failure = err;
    for (const q of queue) if (q && q.reject) q.reject(err);
    queue.length = 0;
    early.clear();
  }

  // ---- The page API -------------------------------------------------------

  function registerResource(descriptor) {
    if (state === FAILED) throw failure;
    const s = snapshot(descriptor);
    const handle = { id: 0, done: false };
    if (state === READY) {
      handle.id = registerNow(s);
    } else {
      const msg = precheck(s);
      if (msg) throw new TypeError(msg);
      queue.push({ op: "register", s, handle });
      early.set(earlyKey(s), { info: publicInfo(s), handle });
    }
    return function unregister() {
      if (handle.done) return;
      handle.done = true;
      if (state === READY) {
        internal(ex.mc_unregister(handle.id));
      } else if (state === LOADING) {
        queue.push({ op: "unregister", handle });
        const e = early.get(earlyKey(s));
        if (e && e.handle === handle) early.delete(earlyKey(s));
      }
    };
  }

  function earlyKey(s) {
    return s.uri === undefined ? "\u0000" + s.uriTemplate : s.uri;
  }

  function checkURI(method, uri) {
    if (typeof uri !== "string") {
      throw new TypeError(`modelcontext: ${method}: "uri" must be a string, got ${KIND_NAMES[kindOf(uri)]}`);
    }
  }

  function readResource(uri) {
    try {
      checkURI("readResource", uri);
    } catch (e) {
      return Promise.reject(e);
    }
    if (state === READY) return readNow(uri);
    if (state === FAILED) return Promise.reject(failure);
    return new Promise((resolve, reject) => queue.push({ op: "read", uri, resolve, reject }));
  }

  function subscribeResource(uri, handler) {
    checkURI("subscribeResource", uri);
    if (typeof handler !== "function") {
      throw new TypeError(`modelcontext: subscribeResource: "handler" must be a function, got ${KIND_NAMES[kindOf(handler)]}`);
    }
    if (state === FAILED) throw failure;
    const handle = { id: 0, cancelled: false };
    if (state === READY) {
      handle.id = subscribeNow(uri, handler);
    } else {
      if (!early.has(uri)) throw notFound(`modelcontext: no resource is registered for uri "${uri}"`);
      queue.push({ op: "subscribe", uri, handler, handle });
    }
    return function unsubscribe() {
      if (handle.cancelled) return;
      handle.cancelled = true;
      if (state === READY && handle.id) internal(ex.mc_unsubscribe(handle.id));
    };
  }


  // ---- The MCP server (wasm/mcp): transport only, decisions in Go ---------

  const mcpServers = new Map(); // server ID → {channel, listener}
  // "/" posts to this window's own origin, whatever it is.
  const targetOrigin = "/";

  // mcpFields extracts what the server reads of a payload (mcp.Message); sub
  // is the name of the sub-channel "<channel>/<sub>" it came on, if any.
  function mcpFields(d, sub) {
    const obj = (v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined);
    const idText = (v) => (typeof v === "string" || typeof v === "number" ? JSON.stringify(v) : undefined);
    const m = obj(d) || {};
    const params = obj(m.params) || {};
    const meta = obj(params._meta) || {};
    const notes = obj(params.notifications) || {};
    return [
      d, m.jsonrpc, m.id, typeof m.id === "number" ? JSON.stringify(m.id) : undefined, m.method,
      m.params, params.uri, params.cursor, params.protocolVersion,
      meta["io.modelcontextprotocol/protocolVersion"], meta["io.modelcontextprotocol/clientCapabilities"],
      params.notifications, notes.resourcesListChanged, notes.resourceSubscriptions, idText(params.requestId),
      m.result, m.error, sub,
    ];
  }

  // Messages on the sub-channels "<channel>/<name>" go to Go too, which
  // serves them as sessions when the server has sessions on.
  function mcpOpen(server, channel) {
    const prefix = channel + "/";
    const listener = (ev) => {
      const d = ev.data;
      if (d === null || typeof d !== "object" || d.type !== "mcp" || d.direction !== "client-to-server") return;
      const sub = d.channel === channel ? undefined : typeof d.channel === "string" && d.channel.startsWith(prefix) ? d.channel.slice(prefix.length) : null;
      if (sub === null || state !== READY) return;
      let origin = ev.origin;
      if (typeof origin !== "string") origin = "";
      const n = putString(origin);
      const len = encodeFields(mcpFields(d.payload, sub), n);
      inMessage = true;
      try {
        ex.mc_mcp_message(server, n, len, ev.source === window ? 1 : 0);
      } finally {
        inMessage = false;
      }
      flushOutgoing();
    };
    mcpServers.set(server, { channel, listener });
    window.addEventListener("message", listener);
  }

  function mcpClose(server) {
    const srv = mcpServers.get(server);
    if (srv) window.removeEventListener("message", srv.listener);
    mcpServers.delete(server);
  }

  function mcpResource(info) {
    const r = copyInfo(info);
    delete r.subscribable;
    return r;
  }

  function mcpPost(server, sub, msg, attach, ids, h) {
    const srv = mcpServers.get(server);
    const payload = JSON.parse(msg);
    if (attach === 1) payload.result.resources = ids.map((id) => mcpResource(regs.get(id).info));
    else if (attach === 2) payload.result.resourceTemplates = ids.map((id) => mcpResource(regs.get(id).info));
    else if (attach === 3 || attach === 4) {
      const v = vals[h];
      host.release(h);
      const c = payload.result.contents[0];
      if (attach === 3) c.text = typeof v === "string" ? v : v.text;
      else c.blob = base64(v.bytes);
    }
    if (!srv) return;
    outgoing.push({ channel: sub ? srv.channel + "/" + sub : srv.channel, type: "mcp", direction: "server-to-client", payload });
    if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flushOutgoing);
    }
  }

  // Messages are posted after Go has returned, with no wasm frames on the
  // stack (posting from deep inside them measured slower), in the order Go
  // wrote them: at the end of the message or read that produced them, or in
  // a microtask for those that a push or a registration produced.
  const outgoing = [];
  let flushQueued = false;
  let inMessage = false; // Go is handling a message event
  function flushOutgoing() {
    flushQueued = false;
    for (let i = 0; i < outgoing.length; i++) window.postMessage(outgoing[i], targetOrigin);
    outgoing.length = 0;
  }

  // mcpRead calls the getter and prepares its value for mcp.Server.ReadDone:
  // text (JSON text, or a string as it is) or bytes, with their size. A
  // synchronous value is answered at once, without a trip through the
  // microtask queue.
  function mcpRead(server, req, id, params, cls) {
    let v;
    try {
      const r = regs.get(id);
      if (!r) throw new Error("the resource was unregistered");
      v = params === undefined ? r.get.call(r.desc) : r.get.call(r.desc, params);
      if ((v !== null && typeof v === "object" && typeof v.then === "function") || (typeof Blob !== "undefined" && v instanceof Blob)) {
        mcpReadLater(server, req, v, cls);
        return;
      }
    } catch (e) {
      mcpReadDone(server, req, 0, 0, 0, 0, describe(e));
      return;
    }
    mcpPrepare(server, req, v, cls);
  }

  async function mcpReadLater(server, req, p, cls) {
    let v;
    try {
      v = await p;
      if (typeof Blob !== "undefined" && v instanceof Blob) v = await v.arrayBuffer();
    } catch (e) {
      mcpReadDone(server, req, 0, 0, 0, 0, describe(e));
      return;
    }
    mcpPrepare(server, req, v, cls);
  }

  function mcpPrepare(server, req, v, cls) {
    try {
      const bytes = v instanceof ArrayBuffer ? new Uint8Array(v) : ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : null;
      if (bytes) {
        const b = { bytes, text: undefined };
        let utf8 = 0;
        if (cls !== 0) {
          try {
            b.text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
            utf8 = 1;
          } catch {}
        }
        mcpReadDone(server, req, 2, hold(b), bytes.byteLength, utf8, "");
        return;
      }
      let text = typeof v === "string" && cls !== 2 ? v : JSON.stringify(v);
      if (text === undefined) text = "null";
      const size = text.length > 8 << 20 ? encoder.encode(text).length : text.length;
      mcpReadDone(server, req, 1, hold(text), size, 0, "");
    } catch (e) {
      mcpReadDone(server, req, 0, 0, 0, 0, describe(e));
    }
  }

  function mcpReadDone(server, req, kind, h, size, utf8, err) {
    if (state === READY) ex.mc_mcp_read_done(server, req, kind, h, size, utf8, putString(err));
    if (!inMessage) flushOutgoing(); // an asynchronous read: nothing of Go's is on the stack
  }

  function base64(bytes) {
    if (typeof bytes.toBase64 === "function") return bytes.toBase64();
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }

  function serveNow(options, handle) {
    const len = encodeFields(mcpOptions(options, location.origin), 0);
    const id = internal(ex.mc_mcp_start(len));
    if (id === 0) throw new TypeError(lastError);
    handle.id = id;
  }

  function mcpOptions(o, origin) {
    if (o === null || typeof o !== "object" || Array.isArray(o)) return [o, undefined, undefined, undefined, undefined, origin, undefined, undefined];
    let origins = o.allowedOrigins;
    if (Array.isArray(origins)) origins = origins.slice();
    return [o, o.channel, origins, o.pageSize, o.maxBytes, origin, o.sessions, o.maxSessions];
  }

  // serveMCP starts an MCP server on window.postMessage and returns a handle
  // whose stop() ends it.
  function serveMCP(options = {}) {
    if (state === FAILED) throw failure;
    const handle = { id: 0, stopped: false };
    if (state === READY) serveNow(options, handle);
    else queue.push({ op: "serve", options, handle });
    return {
      stop() {
        if (handle.stopped) return;
        handle.stopped = true;
        if (state === READY && handle.id) internal(ex.mc_mcp_stop(handle.id));
      },
    };
  }

  // ---- Tool fallback: the resources as read-only tools ---------------------

  // registerResourceTools registers list_resources and read_resource with the
  // page's registerTool (native WebMCP or a polyfill), for agents that only
  // speak tools. It returns a function that unregisters them.
  function registerResourceTools() {
    if (typeof mc.registerTool !== "function") {
      throw new Error("modelcontext: registerResourceTools needs document.modelContext.registerTool (WebMCP or a polyfill such as @mcp-b/global)");
    }
    const text = (t) => ({ content: [{ type: "text", text: t }] });
    const tools = [
      {
        name: "list_resources",
        description: "Lists the live resources of this page: uri, name, description and MIME type of each.",
        inputSchema: { type: "object", properties: {} },
        annotations: { readOnlyHint: true },
        execute: async () => text(JSON.stringify(getResources().map(mcpResource))),
      },
      {
        name: "read_resource",
        description: "Reads the current value of one resource of this page by its uri (see list_resources).",
        inputSchema: { type: "object", properties: { uri: { type: "string", description: "The resource's uri" } }, required: ["uri"] },
        annotations: { readOnlyHint: true },
        execute: async (args) => {
          try {
            const v = await readResource(args && args.uri);
            if (v instanceof ArrayBuffer || ArrayBuffer.isView(v) || (typeof Blob !== "undefined" && v instanceof Blob)) {
              const ab = v instanceof Blob ? await v.arrayBuffer() : v instanceof ArrayBuffer ? v : v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
              return text("base64:" + base64(new Uint8Array(ab)));
            }
            return text(typeof v === "string" ? v : JSON.stringify(v));
          } catch (e) {
            return { ...text(describe(e)), isError: true };
          }
        },
      },
    ];
    const undo = tools.map((t) => {
      const r = mc.registerTool(t);
      return () => {
        if (r && typeof r.unregister === "function") r.unregister();
        else if (typeof mc.unregisterTool === "function") mc.unregisterTool(t.name);
      };
    });
    return () => undo.splice(0).forEach((f) => f());
  }

  // ---- Booting Go ---------------------------------------------------------

  async function boot() {
    const where = `the WebAssembly module "${wasmURL}"`;
    let response;
    try {
      response = await fetch(wasmURL, { credentials: "same-origin" });
    } catch (e) {
      throw new Error(`modelcontext: could not fetch ${where}: ${describe(e)} (a wrong URL, the network, or a Content-Security-Policy connect-src that does not allow it)`);
    }
    if (!response.ok) {
      throw new Error(`modelcontext: could not fetch ${where}: HTTP ${response.status} ${response.statusText}; check the URL, or set data-wasm on the script tag`);
    }
    const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
    if (type !== "application/wasm") {
      throw new Error(`modelcontext: ${where} was served as "${type || "no Content-Type"}"; the server must send .wasm files as application/wasm`);
    }
    go = new Go();
    go.importObject.modelcontext = imports();
    let instance;
    try {
      instance = (await WebAssembly.instantiateStreaming(response, go.importObject)).instance;
    } catch (e) {
      const why = describe(e);
      if (/Content Security Policy|unsafe-eval|CSP/i.test(why)) {
        throw new Error(`modelcontext: the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src (${why})`);
      }
      throw new Error(`modelcontext: could not instantiate ${where}: ${why}`);
    }
    ex = instance.exports;
    const exited = go.run(instance); // runs main until it blocks: it calls host.ready
    if (!started) throw new Error(`modelcontext: ${where} did not start; was it built from this version of wasm/cmd/modelcontext?`);
    exited.then(() => {
      fail(new Error("modelcontext: the Go runtime exited; reload the page"));
      console.error(failure.message);
    });
    state = READY;
    replay();
    if (script && script.hasAttribute("data-mcp")) {
      const channel = script.getAttribute("data-mcp");
      const options = channel ? { channel } : {};
      if (script.hasAttribute("data-mcp-sessions")) options.sessions = true;
      serveMCP(options);
    }
  }

  const ready = boot().catch((err) => {
    fail(err);
    throw err;
  });

  define("registerResource", registerResource);
  define("getResources", getResources);
  define("getResourceTemplates", getResourceTemplates);
  define("serveMCP", serveMCP);
  define("registerResourceTools", registerResourceTools);
  define("readResource", readResource);
  define("subscribeResource", subscribeResource);
  define("ready", ready);
  define(INSTALLED, true);
  // For tests and leak checks, not for pages: live counts and the raw exports.
  define(Symbol.for("modelcontext.internals"), {
    stats() {
      return {
        registrations: ex ? ex.mc_stats(0) : 0,
        subscriptions: ex ? ex.mc_stats(1) : 0,
        loaderRegistrations: regs.size,
        loaderHandlers: handlers.size,
        heldValues: vals.length - 1 - freeVals.length,
        mcpServers: mcpServers.size,
        mcpSessions: ex ? ex.mc_stats(2) : 0,
        goValueRefs: go && go._values ? go._values.length - go._idPool.length : 0,
        wasmMemoryBytes: ex ? ex.mem.buffer.byteLength : 0,
      };
    },
    get exports() {
      return ex;
    },
    get goExited() {
      return !!(go && go.exited);
    },
  });
  if (script && script.hasAttribute("data-tools") && typeof mc.registerTool === "function") registerResourceTools();
})();
