// Reference implementation of the document.modelContext resources contract
// (wasm/CONTRACT.md §2–§5) in plain JavaScript.
//
// It is the side-by-side benchmark for the Go/WebAssembly module and the
// oracle the browser contract tests are validated against. It differs from
// the product only where the product needs wasm: `ready` resolves at once,
// nothing is queued, and there are no URI templates and no MCP server.
//
// It is meant to be the fastest honest JavaScript for the contract, so that
// the benchmark's ratios mean something: comparison keys of plain data go
// through JSON.stringify without a replacer (V8's fast path), a push
// allocates only the event and its detail, and listings are built into
// arrays of their final length. Nothing of the contract is traded for speed.
//
//   <script src="/reference/modelcontext.js" data-debug></script>
(function () {
  'use strict';

  const INSTALLED = Symbol.for('modelcontext.installed');
  const script = document.currentScript;
  const scriptDebug = !!(script && script.hasAttribute('data-debug'));

  // --- The object the members go on -----------------------------------------

  // An existing document.modelContext (native WebMCP, a polyfill, another
  // library; an own property or an accessor on Document.prototype) is
  // augmented, never replaced or shadowed.
  let mc = document.modelContext;
  if (mc !== null && (typeof mc === 'object' || typeof mc === 'function')) {
    if (mc[INSTALLED]) return; // loaded twice: the first install stays
  } else {
    mc = new EventTarget();
    Object.defineProperty(document, 'modelContext', {
      value: mc, writable: true, configurable: true, enumerable: true,
    });
  }
  // An existing object that cannot carry events gets its own EventTarget.
  let events = mc;
  if (typeof mc.dispatchEvent !== 'function' || typeof mc.addEventListener !== 'function') {
    events = new EventTarget();
    define('addEventListener', events.addEventListener.bind(events));
    define('removeEventListener', events.removeEventListener.bind(events));
    define('dispatchEvent', events.dispatchEvent.bind(events));
  }

  function define(name, value) {
    Object.defineProperty(mc, name, { value, writable: true, configurable: true });
  }

  // --- Logging ----------------------------------------------------------------

  function debugOn() {
    return scriptDebug || globalThis.__MODELCONTEXT_DEBUG__ === true;
  }

  function debug(msg) {
    console.debug('[modelcontext] ' + msg);
  }

  function typeName(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'array';
    return typeof v;
  }

  // --- Registry ---------------------------------------------------------------

  // uri -> Entry. A Map keeps insertion order, and set() on an existing key
  // keeps its slot, which is exactly the replacement rule.
  const entries = new Map();
  // The consumer subscriptions of a uri live in a channel, {subs}, where subs
  // is an array of {handler, active} replaced on every change (copy-on-write,
  // so a delivery in progress keeps the list it started with). A replacement
  // hands the channel on to the new entry; an unregistration ends it. The
  // entry holds its channel, so a push needs no lookup by uri.

  const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:[\s\S]/;
  // A real calendar date, then optionally a time and a zone.
  const ISO_DATE = /^(\d{4})-(\d\d)-(\d\d)(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;
  function isISODate(t) {
    const m = ISO_DATE.exec(t);
    if (!m) return false;
    const y = +m[1], mo = +m[2], d = +m[3];
    return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
  }
  const PREFIX = 'modelcontext: registerResource: ';

  function fail(msg) {
    throw new TypeError(PREFIX + msg);
  }

  // validate reads every field of the descriptor exactly once and returns
  // the registration record, or throws the contract's TypeError.
  function validate(d) {
    if (d === null || typeof d !== 'object' || Array.isArray(d)) {
      fail('the descriptor must be an object, got ' + typeName(d));
    }
    const uri = d.uri;
    if (uri === undefined) fail('"uri" is required (a string like "state://cart")');
    if (typeof uri !== 'string') fail('"uri" must be a string, got ' + typeName(uri));
    if (uri === '') fail('"uri" must not be empty');
    if (!SCHEME.test(uri)) fail('"uri" "' + uri + '" has no scheme; write it like "state://cart"');
    const at = ' (uri "' + uri + '")';

    const name = d.name;
    if (name === undefined) fail('"name" is required' + at);
    if (typeof name !== 'string') fail('"name" must be a string, got ' + typeName(name) + at);
    if (name === '') fail('"name" must not be empty' + at);

    const get = d.get;
    if (get === undefined) fail('"get" is required, a function that returns the current value' + at);
    if (typeof get !== 'function') fail('"get" must be a function, got ' + typeName(get) + at);

    const subscribe = d.subscribe;
    if (subscribe !== undefined && typeof subscribe !== 'function') {
      fail('"subscribe" must be a function, got ' + typeName(subscribe) + at);
    }

    const title = d.title;
    if (title !== undefined && typeof title !== 'string') fail('"title" must be a string, got ' + typeName(title) + at);
    const description = d.description;
    if (description !== undefined && typeof description !== 'string') {
      fail('"description" must be a string, got ' + typeName(description) + at);
    }
    const mimeType = d.mimeType;
    if (mimeType !== undefined && typeof mimeType !== 'string') {
      fail('"mimeType" must be a string, got ' + typeName(mimeType) + at);
    }

    let annotations;
    const a = d.annotations;
    if (a !== undefined) {
      if (a === null || typeof a !== 'object' || Array.isArray(a)) {
        fail('"annotations" must be an object, got ' + typeName(a) + at);
      }
      annotations = {};
      const audience = a.audience;
      if (audience !== undefined) {
        if (!Array.isArray(audience)) fail('"annotations.audience" must be an array, got ' + typeName(audience) + at);
        const copy = [];
        for (let i = 0; i < audience.length; i++) {
          const who = audience[i];
          if (who !== 'user' && who !== 'assistant') {
            fail('"annotations.audience[' + i + ']" must be "user" or "assistant"' + at);
          }
          copy.push(who);
        }
        annotations.audience = copy;
      }
      const priority = a.priority;
      if (priority !== undefined) {
        if (typeof priority !== 'number' || !(priority >= 0 && priority <= 1)) {
          fail('"annotations.priority" must be a number from 0 to 1' + at);
        }
        annotations.priority = priority;
      }
      const lastModified = a.lastModified;
      if (lastModified !== undefined) {
        if (typeof lastModified !== 'string' || !isISODate(lastModified)) {
          fail('"annotations.lastModified" must be an ISO 8601 date string' + at);
        }
        annotations.lastModified = lastModified;
      }
    }

    return {
      uri, name, title, description,
      mimeType: mimeType === undefined ? 'application/json' : mimeType,
      annotations,
      self: d,
      get,
      subscribe,
      subscribable: subscribe !== undefined,
      teardown: undefined,
      alive: true,
      // De-duplication: the key of the last dispatched value.
      hasKey: false,
      key: undefined,
      // Ordering of asynchronous getters: seq numbers onChange calls,
      // handled is the newest one dispatched or suppressed.
      seq: 0,
      handled: 0,
      channel: null,
    };
  }

  function describe(e) {
    const r = { uri: e.uri, name: e.name };
    if (e.title !== undefined) r.title = e.title;
    if (e.description !== undefined) r.description = e.description;
    r.mimeType = e.mimeType;
    if (e.annotations !== undefined) {
      const a = e.annotations;
      const c = {};
      if (a.audience !== undefined) c.audience = a.audience.slice();
      if (a.priority !== undefined) c.priority = a.priority;
      if (a.lastModified !== undefined) c.lastModified = a.lastModified;
      r.annotations = c;
    }
    r.subscribable = e.subscribable;
    return r;
  }

  // getResources fills an array of its final length: growing one by push()
  // measured 1.5–3× slower for a thousand resources.
  function getResources() {
    const list = new Array(entries.size);
    let i = 0;
    for (const e of entries.values()) list[i++] = describe(e);
    return list;
  }

  // The page's revision (§11): one step per event, carried in its detail.
  let revision = 0;

  function listChanged() {
    events.dispatchEvent(new CustomEvent('resourcelistchanged', { detail: { resources: getResources(), revision: ++revision } }));
  }

  // retire ends a registration's push source: later onChange calls and
  // in-flight results are ignored, and its teardown runs.
  function retire(e) {
    e.alive = false;
    const teardown = e.teardown;
    if (typeof teardown !== 'function') return;
    e.teardown = undefined;
    if (debugOn()) debug('teardown of "' + e.uri + '"');
    try {
      teardown();
    } catch (err) {
      console.error('modelcontext: the teardown of "' + e.uri + '" threw:', err);
    }
  }

  function registerResource(descriptor, options) {
    const e = validate(descriptor);
    const uri = e.uri;
    const signal = signalOf(options, uri);
    if (signal !== undefined && signal.aborted) return function unregister() {};
    if (signal !== undefined) {
      const unregister = registerEntry(e, uri);
      const onAbort = () => unregister();
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) unregister(); // aborted while it registered: the event has fired
      return function unregisterAndForget() {
        signal.removeEventListener('abort', onAbort);
        unregister();
      };
    }
    return registerEntry(e, uri);
  }

  // signalOf reads registerResource's options: their signal (an AbortSignal)
  // or undefined; anything else is a TypeError naming it and the uri.
  function signalOf(options, uri) {
    if (options === undefined || options === null) return undefined;
    const where = ' (uri "' + uri + '")';
    if (typeof options !== 'object' && typeof options !== 'function') {
      throw new TypeError('modelcontext: registerResource: "options" must be an object, got ' + typeName(options) + where);
    }
    const signal = options.signal;
    if (signal === undefined || signal instanceof AbortSignal) return signal;
    throw new TypeError('modelcontext: registerResource: "options.signal" must be an AbortSignal, got ' + typeName(signal) + where);
  }

  function registerEntry(e, uri) {
    const old = entries.get(uri);
    // The new entry takes the uri before the old one's teardown runs: a
    // teardown that registers the uri once more replaces this entry.
    entries.set(uri, e);
    if (old !== undefined) {
      e.channel = old.channel; // consumer subscriptions survive a replacement
      retire(old);
    }
    if (debugOn()) debug((old !== undefined ? 'replaced "' : 'registered "') + uri + '"');

    // An entry replaced while its predecessor tore down is gone: no subscribe.
    if (e.subscribe !== undefined && e.alive) {
      const onChange = function () {
        if (e.alive && e.subscribable) push(e);
      };
      try {
        const teardown = e.subscribe.call(e.self, onChange);
        if (typeof teardown === 'function') {
          if (e.alive) e.teardown = teardown;
          else teardown(); // unregistered from inside subscribe
        } else {
          console.warn('modelcontext: subscribe() of "' + uri + '" returned ' + typeName(teardown) +
            ', not a teardown function; this subscription can never be torn down and leaks');
        }
      } catch (err) {
        e.subscribable = false;
        console.error('modelcontext: subscribe() of "' + uri + '" threw; the resource stays registered as pull-only:', err);
      }
    }
    // Once per register, even when subscribe or a teardown replaced it since.
    listChanged();

    return function unregister() {
      if (entries.get(uri) !== e) return; // already gone, or replaced since
      entries.delete(uri);
      retire(e);
      const ch = e.channel;
      if (ch !== null) {
        e.channel = null;
        for (const s of ch.subs) s.active = false;
        ch.subs = [];
      }
      if (debugOn()) debug('unregistered "' + uri + '"');
      listChanged();
    };
  }

  // --- Pushes -----------------------------------------------------------------

  function push(e) {
    const seq = ++e.seq;
    let value;
    try {
      value = e.get.call(e.self);
    } catch (err) {
      console.error('modelcontext: get() of "' + e.uri + '" failed; nothing was pushed:', err);
      return;
    }
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
      Promise.resolve(value).then(
        (v) => settle(e, seq, v),
        (err) => {
          if (e.alive) console.error('modelcontext: get() of "' + e.uri + '" failed; nothing was pushed:', err);
        });
      return;
    }
    settle(e, seq, value);
  }

  function settle(e, seq, value) {
    if (!e.alive) return;
    if (seq < e.handled) {
      if (debugOn()) debug('resource "' + e.uri + '": late result dropped (a newer push was already handled)');
      return;
    }
    e.handled = seq;
    const key = keyOf(value);
    if (key === NO_KEY) {
      e.hasKey = false;
      e.key = undefined;
      if (debugOn()) debug('resource "' + e.uri + '": value has no comparison key; pushed anyway (fail-open)');
    } else if (e.hasKey && key === e.key) {
      if (debugOn()) debug('resource "' + e.uri + '": push suppressed (value unchanged)');
      return;
    } else {
      e.hasKey = true;
      e.key = key;
      if (debugOn()) debug('resource "' + e.uri + '" changed');
    }
    dispatch(e, value);
  }

  // Dispatches run one at a time: a push started from inside a listener or
  // handler is delivered after the current one, so every consumer sees every
  // value in order.
  // pending holds (entry, value) pairs; next is the index of the next pair.
  const pending = [];
  let dispatching = false;

  function dispatch(e, value) {
    if (dispatching) {
      pending.push(e, value);
      return;
    }
    dispatching = true;
    try {
      deliver(e, value);
      for (let next = 0; next < pending.length; next += 2) deliver(pending[next], pending[next + 1]);
    } finally {
      dispatching = false;
      pending.length = 0;
    }
  }

  function deliver(e, value) {
    const uri = e.uri;
    events.dispatchEvent(new CustomEvent('resourceupdated', { detail: { uri, value, revision: ++revision } }));
    // Read after the event: a listener may have subscribed or unregistered.
    const ch = e.channel;
    if (ch === null) return;
    const subs = ch.subs;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i];
      if (!s.active) continue;
      try {
        s.handler(value, uri);
      } catch (err) {
        console.error('modelcontext: a subscribeResource handler of "' + uri + '" threw:', err);
      }
    }
  }

  // --- Comparison keys --------------------------------------------------------

  // A comparison key is the value's JSON.stringify form, in which Map, Set,
  // ArrayBuffer, typed arrays and DataView show their content, tagged with
  // their type (["\0Map", entries]), and strings that start with "\0" are
  // escaped so no value can pose as a tag; the replacer below does both. A
  // value has NO_KEY when JSON cannot encode it (cycles, BigInt, a throwing
  // toJSON) or its content cannot be seen (Blob).
  const NO_KEY = {};
  const TAG = Symbol('modelcontext.tag');
  const bytesDecoder = new TextDecoder('latin1'); // windows-1252: one char per byte, injective
  const HAS_BLOB = typeof Blob === 'function';

  function tagged(tag, a, b) {
    const r = b === undefined ? [tag, a] : [tag, a, b];
    r[TAG] = true;
    return r;
  }

  function bytes(view) {
    const u8 = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    try {
      return bytesDecoder.decode(u8);
    } catch (_) { // e.g. a SharedArrayBuffer view
      let s = '';
      for (let i = 0; i < u8.length; i++) s += String.fromCharCode(u8[i]);
      return s;
    }
  }

  function replacer(k, v) {
    if (typeof v === 'string') {
      if (v.length !== 0 && v.charCodeAt(0) === 0 && !(k === '0' && this[TAG] === true)) return '\0' + v;
      return v;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return v;
    if (v instanceof Map) return tagged('\0Map', Array.from(v));
    if (v instanceof Set) return tagged('\0Set', Array.from(v));
    if (ArrayBuffer.isView(v)) return tagged('\0' + Object.prototype.toString.call(v).slice(8, -1), bytes(v));
    if (v instanceof ArrayBuffer) return tagged('\0ArrayBuffer', bytes(new Uint8Array(v)));
    if (typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer) {
      return tagged('\0SharedArrayBuffer', bytes(new Uint8Array(v)));
    }
    if (HAS_BLOB && v instanceof Blob) throw NO_KEY;
    return v;
  }

  // keyOf gives every value the key JSON.stringify(value, replacer) gives
  // it. A replacer, even one that changes nothing, takes V8 off its fast
  // path, so plain data (see plain) is stringified without one: the replacer
  // would change nothing in it, so the key is the same.
  function keyOf(value) {
    try {
      const s = plain(value, 0) ? JSON.stringify(value) : JSON.stringify(value, replacer);
      return s === undefined ? '\0undefined' : s;
    } catch (_) {
      return NO_KEY;
    }
  }

  // plain reports whether the replacer would leave v and everything in it
  // unchanged: every object in it is an array or a plain object (prototype
  // Object.prototype or null); no object, array or function in it has a
  // toJSON (whose result could be a Map); no string in it starts with "\0"
  // (the replacer escapes those); there is no BigInt (which throws, unless a
  // page gave BigInt a toJSON); and it is at most PLAIN_DEPTH objects deep
  // (deeper values, and cycles, go through the replacer, which fails on a
  // cycle, instead of recursing until the stack runs out).
  //
  // It reads every value JSON.stringify reads, getters included. A getter or
  // Proxy that returns a plain value to this read and a Map to
  // JSON.stringify's would have that Map stringified as {}.
  const PLAIN_DEPTH = 64;
  const objectProto = Object.prototype;
  const getProto = Object.getPrototypeOf;
  const isArray = Array.isArray;

  function plain(v, depth) {
    switch (typeof v) {
      case 'object':
        return v === null || plainObject(v, depth);
      case 'string':
        return v.length === 0 || v.charCodeAt(0) !== 0;
      case 'bigint':
        return false;
      case 'function':
        return v.toJSON === undefined;
      default:
        return true;
    }
  }

  function plainObject(o, depth) {
    if (depth >= PLAIN_DEPTH || o.toJSON !== undefined) return false;
    if (isArray(o)) {
      for (let i = 0; i < o.length; i++) if (!plain(o[i], depth + 1)) return false;
      return true;
    }
    const proto = getProto(o);
    if (proto !== objectProto && proto !== null) return false;
    // for-in visits every own enumerable string key JSON.stringify visits (and
    // inherited enumerable ones, which only makes the check stricter).
    for (const k in o) if (!plain(o[k], depth + 1)) return false;
    return true;
  }

  // --- Consumers --------------------------------------------------------------

  function notFound(uri) {
    return new DOMException('modelcontext: no resource is registered for uri "' + uri + '"', 'NotFoundError');
  }

  function readResource(uri) {
    if (typeof uri !== 'string') {
      return Promise.reject(new TypeError('modelcontext: readResource: "uri" must be a string, got ' + typeName(uri)));
    }
    const e = entries.get(uri);
    if (e === undefined) return Promise.reject(notFound(uri));
    try {
      return Promise.resolve(e.get.call(e.self));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function subscribeResource(uri, handler) {
    if (typeof uri !== 'string') {
      throw new TypeError('modelcontext: subscribeResource: "uri" must be a string, got ' + typeName(uri));
    }
    if (typeof handler !== 'function') {
      throw new TypeError('modelcontext: subscribeResource: "handler" must be a function, got ' + typeName(handler));
    }
    const e = entries.get(uri);
    if (e === undefined) throw notFound(uri);
    let ch = e.channel;
    if (ch === null) ch = e.channel = { subs: [] };
    const sub = { handler, active: true };
    ch.subs = ch.subs.concat(sub);
    return function unsubscribe() {
      if (!sub.active) return;
      sub.active = false;
      ch.subs = ch.subs.filter((s) => s !== sub);
    };
  }

  // --- Install ----------------------------------------------------------------

  define('registerResource', registerResource);
  define('getResources', getResources);
  define('readResource', readResource);
  define('subscribeResource', subscribeResource);
  define('ready', Promise.resolve());
  // onresourceupdated / onresourcelistchanged: event handler attributes.
  for (const type of ['resourceupdated', 'resourcelistchanged']) {
    let handler = null;
    const listener = (ev) => { if (handler !== null) return handler.call(mc, ev); };
    Object.defineProperty(mc, 'on' + type, {
      configurable: true,
      get() { return handler; },
      set(f) {
        if (typeof f !== 'function') {
          if (handler !== null) events.removeEventListener(type, listener);
          handler = null;
        } else {
          if (handler === null) events.addEventListener(type, listener);
          handler = f;
        }
      },
    });
  }
  Object.defineProperty(mc, INSTALLED, { value: true });
})();
