// Test harness for the browser contract tests (wasm/e2e). Loaded before the
// implementation under test. It records console.debug/warn/error calls and
// offers small helpers to the scenarios the tests evaluate in the page.
(function () {
  'use strict';
  const log = []; // {level, text, args} with args made printable
  const raw = []; // {level, args} with the very arguments
  function printable(a) {
    if (typeof a === 'string') return a;
    if (a instanceof Error || a instanceof DOMException) return a.name + ': ' + a.message;
    try {
      return JSON.stringify(a) ?? String(a);
    } catch (_) {
      return String(a);
    }
  }
  for (const level of ['debug', 'warn', 'error']) {
    const original = console[level];
    console[level] = function (...args) {
      log.push({ level, text: printable(args[0]), args: args.map(printable) });
      raw.push({ level, args });
      return original.apply(this, args);
    };
  }
  // Uncaught errors (e.g. a throwing event listener) are recorded, not fatal.
  const uncaught = [];
  window.addEventListener('error', (ev) => {
    uncaught.push(ev.error instanceof Error ? ev.error.message : String(ev.message));
  });

  // Every fetch the page makes, by URL, in order: the module's .wasm request
  // shows up here the moment it is made.
  const fetches = [];
  let onWasmFetch = null;
  const originalFetch = window.fetch;
  window.fetch = function (input, init) {
    const url = String(input instanceof Request ? input.url : input);
    fetches.push(url);
    if (onWasmFetch !== null && /\.wasm(\?|#|$)/.test(url)) onWasmFetch(url);
    return originalFetch.call(this, input, init);
  };
  const wasmFetched = new Promise((resolve) => { onWasmFetch = resolve; });

  let next = 0;
  const H = {
    fetches,
    // wasmFetched resolves with the URL of the first .wasm request.
    wasmFetched,
    // wasmRequests lists the .wasm requests made so far: those fetch was
    // called for, and those the browser's resource timing saw.
    wasmRequests() {
      const isWasm = (u) => /\.wasm(\?|#|$)/.test(u);
      return {
        fetched: fetches.filter(isWasm),
        timed: performance.getEntriesByType('resource').map((e) => e.name).filter(isWasm),
      };
    },
    // runtimeRequests lists the requests for the loader's runtime
    // (modelcontext-runtime.js, which the classic script imports when the
    // module starts, or a page uses markup or the tools), by resource timing.
    runtimeRequests() {
      return performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /\/modelcontext-runtime\.js(\?|#|$)/.test(u));
    },
    // quiet resolves at a point after which a module that was going to load
    // by itself would have asked for its .wasm: after the load event, in an
    // idle period after it (when an idle boot starts), and after a request
    // to the page's server has come back (a sentinel: its resource timing
    // entry exists).
    async quiet() {
      if (document.readyState !== 'complete') await new Promise((r) => window.addEventListener('load', r, { once: true }));
      await new Promise((r) => (window.requestIdleCallback ? requestIdleCallback(() => r(), { timeout: 5000 }) : setTimeout(r, 0)));
      const sentinel = '/blank.html?sentinel=' + Math.random();
      await (await originalFetch(sentinel)).text();
      const seen = performance.getEntriesByType('resource').some((e) => e.name.endsWith(sentinel));
      if (!seen) throw new Error('the sentinel request left no resource timing entry');
    },
    log,
    raw,
    uncaught,
    // logs(level) returns the first argument of each call at that level.
    logs(level) {
      return log.filter((l) => l.level === level).map((l) => l.text);
    },
    // mine(level) returns the calls whose first argument mentions modelcontext.
    mine(level) {
      return H.logs(level).filter((t) => t.includes('modelcontext'));
    },
    clearLog() {
      log.length = 0;
      raw.length = 0;
      uncaught.length = 0;
    },
    // uri returns a fresh uri so scenarios never collide.
    uri(name) {
      return 'test://' + (name || 'r') + '/' + (++next);
    },
    sleep(ms) {
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
    // settle lets pending microtasks run, then yields to the event loop
    // three times (setTimeout 0): a point in the order of things, not a wait
    // for time. The module dispatches pushes, events and handler calls within
    // the call that caused them or in the microtasks after it, so what a
    // scenario checks after settle has happened by then.
    async settle() {
      for (let i = 0; i < 3; i++) await H.sleep(0);
    },
    deferred() {
      let resolve, reject;
      const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
      return { promise, resolve, reject };
    },
    // error describes what fn throws, or returns null if it does not throw.
    error(fn) {
      try {
        fn();
      } catch (err) {
        return H.describeError(err);
      }
      return null;
    },
    // rejection describes how promise rejects, or null if it resolves.
    async rejection(promise) {
      try {
        await promise;
      } catch (err) {
        return H.describeError(err);
      }
      return null;
    },
    describeError(err) {
      if (err === null || typeof err !== 'object') return { thrown: String(err) };
      return {
        name: err.name,
        message: err.message,
        typeError: err instanceof TypeError,
        domException: err instanceof DOMException,
        error: err instanceof Error,
      };
    },
    // pushable registers a resource whose value is whatever `value` holds,
    // pushed with push(v) (which sets it and calls onChange). Returns
    // {uri, unregister, push, value, onChange, gets, tornDown}.
    pushable(mc, opts) {
      const uri = (opts && opts.uri) || H.uri('p');
      const r = { uri, value: opts && 'value' in opts ? opts.value : undefined, onChange: null, gets: 0, tornDown: false };
      r.unregister = mc.registerResource({
        uri,
        name: (opts && opts.name) || 'p',
        get: () => { r.gets++; return r.value; },
        subscribe: (onChange) => { r.onChange = onChange; return () => { r.tornDown = true; }; },
      });
      r.push = (v) => { r.value = v; r.onChange(); };
      return r;
    },
    // record collects the resourceupdated events of uri and, unless
    // noHandler, the subscribeResource handler calls of uri.
    record(mc, uri, noHandler) {
      const rec = { events: [], handler: [], order: [] };
      const listener = (ev) => {
        if (ev.detail.uri !== uri) return;
        rec.events.push(ev.detail.value);
        rec.order.push('event');
      };
      mc.addEventListener('resourceupdated', listener);
      rec.stopEvents = () => mc.removeEventListener('resourceupdated', listener);
      if (!noHandler) {
        rec.unsubscribe = mc.subscribeResource(uri, (value, u) => {
          rec.handler.push(value);
          rec.order.push('handler');
          rec.handlerUris = rec.handlerUris || [];
          rec.handlerUris.push(u);
        });
      }
      return rec;
    },
    // listChanges counts resourcelistchanged events and keeps their details.
    listChanges(mc) {
      const rec = { count: 0, details: [] };
      mc.addEventListener('resourcelistchanged', (ev) => {
        rec.count++;
        rec.details.push(ev.detail);
      });
      return rec;
    },
    // loadAgain inserts another script tag for the implementation in use
    // and resolves when it has run.
    loadAgain() {
      return new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = window.__implSrc;
        s.onload = () => resolve();
        s.onerror = () => reject(new Error('could not load ' + s.src));
        document.head.appendChild(s);
      });
    },
  };
  window.H = H;
})();
