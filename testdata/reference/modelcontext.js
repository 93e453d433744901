// Reference implementation of the document.modelContext resources contract
// (SPEC.md §2–§5) in plain JavaScript.
//
// It is the side-by-side benchmark for the Go/WebAssembly module and the
// oracle the browser contract tests are validated against. It differs from
// the product only where the product needs wasm: `ready` resolves at once,
// nothing is queued, and there are no URI templates and no MCP server.
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
  // uri -> array of {handler, active} (copy-on-write). Keyed by uri, so it
  // survives a replacement; deleted on unregistration.
  const consumers = new Map();

  const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:[\s\S]/;
  const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
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
        if (typeof lastModified !== 'string' || !ISO_DATE.test(lastModified)) {
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

  function getResources() {
    const list = [];
    for (const e of entries.values()) list.push(describe(e));
    return list;
  }

  function listChanged() {
    events.dispatchEvent(new CustomEvent('resourcelistchanged', { detail: { resources: getResources() } }));
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

  function registerResource(descriptor) {
    const e = validate(descriptor);
    const uri = e.uri;
    const old = entries.get(uri);
    if (old !== undefined) retire(old);
    entries.set(uri, e);
    if (debugOn()) debug((old !== undefined ? 'replaced "' : 'registered "') + uri + '"');

    if (e.subscribe !== undefined) {
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
    if (entries.get(uri) === e) listChanged();

    return function unregister() {
      if (entries.get(uri) !== e) return; // already gone, or replaced since
      entries.delete(uri);
      retire(e);
      const subs = consumers.get(uri);
      if (subs !== undefined) {
        consumers.delete(uri);
        for (const s of subs) s.active = false;
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
    dispatch(e.uri, value);
  }

  // Dispatches run one at a time: a push started from inside a listener or
  // handler is delivered after the current one, so every consumer sees every
  // value in order.
  const pending = [];
  let dispatching = false;

  function dispatch(uri, value) {
    if (dispatching) {
      pending.push(uri, value);
      return;
    }
    dispatching = true;
    try {
      deliver(uri, value);
      while (pending.length > 0) {
        const u = pending.shift();
        deliver(u, pending.shift());
      }
    } finally {
      dispatching = false;
      pending.length = 0;
    }
  }

  function deliver(uri, value) {
    events.dispatchEvent(new CustomEvent('resourceupdated', { detail: { uri, value } }));
    const subs = consumers.get(uri);
    if (subs === undefined) return;
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

  // keyOf returns the value's JSON.stringify form, in which Map, Set,
  // ArrayBuffer, typed arrays and DataView show their content, tagged with
  // their type (["\0Map", ...entries]); strings that start with "\0" are
  // escaped so no value can pose as a tag. NO_KEY when JSON cannot encode it
  // (cycles, BigInt, a throwing toJSON) or the content cannot be seen (Blob).
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

  function keyOf(value) {
    try {
      const s = JSON.stringify(value, replacer);
      return s === undefined ? '\0undefined' : s;
    } catch (_) {
      return NO_KEY;
    }
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
    if (!entries.has(uri)) throw notFound(uri);
    const sub = { handler, active: true };
    const subs = consumers.get(uri);
    consumers.set(uri, subs === undefined ? [sub] : subs.concat(sub));
    return function unsubscribe() {
      if (!sub.active) return;
      sub.active = false;
      const now = consumers.get(uri);
      if (now === undefined) return;
      const rest = now.filter((s) => s !== sub);
      if (rest.length === 0) consumers.delete(uri);
      else consumers.set(uri, rest);
    };
  }

  // --- Install ----------------------------------------------------------------

  define('registerResource', registerResource);
  define('getResources', getResources);
  define('readResource', readResource);
  define('subscribeResource', subscribeResource);
  define('ready', Promise.resolve());
  Object.defineProperty(mc, INSTALLED, { value: true });
})();
