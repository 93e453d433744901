// bench-arm.js: one arm of bench.html. It registers a cart of ten items whose
// value alternates between two pre-built values on each push (no push is
// suppressed), heard by one resourceupdated listener, and, in the hook arm,
// attaches the panel's hook as the panel does once it is open.
(() => {
  "use strict";
  const mc = document.modelContext;
  const hook = globalThis.__MODELCONTEXT_DEVTOOLS_HOOK__ || null;
  const cart = (n) => ({
    items: Array.from({ length: 10 }, (_, i) => ({ id: "sku-" + i, name: "Item " + i, qty: 1 + (i % 3), price: 9.5 + i })),
    count: 10 + n,
    total: 123.5 + n,
  });
  const values = [cart(0), cart(1)];
  let flip = 0;
  let same = { a: 1 };
  /** @type {null | (() => void)} */
  let onChange = null;
  /** @type {null | (() => void)} */
  let onSame = null;
  let heard = 0;
  let taken = 0; // events the hook answered so far
  let seq = 0;
  mc.registerResource({ uri: "state://cart", name: "cart", get: () => values[flip], subscribe(on) { onChange = on; return () => {}; } });
  mc.registerResource({ uri: "state://same", name: "same", get: () => same, subscribe(on) { onSame = on; return () => {}; } });
  mc.addEventListener("resourceupdated", () => heard++);

  /** @param {string} what @param {boolean} ok */
  const check = (ok, what) => {
    if (!ok) throw new Error("bench-arm: " + what);
  };

  window.Arm = {
    hooked: hook !== null,
    ready: mc.ready.then(() => {
      if (hook) check(JSON.parse(hook.attach()).module === true, "the hook did not attach");
      // The first push of each sets its baseline.
      onChange();
      onSame();
      return true;
    }),
    /** push times n pushes of the cart, each a new value, and returns ms. @param {number} n */
    push(n) {
      const before = heard;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        flip ^= 1;
        onChange();
      }
      const ms = performance.now() - t0;
      check(heard - before === n, `${n} pushes dispatched ${heard - before} events`);
      return ms;
    },
    /** same times n pushes of an unchanged value (suppressed), and returns ms. @param {number} n */
    same(n) {
      const before = heard;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) onSame();
      const ms = performance.now() - t0;
      check(heard === before, `${heard - before} suppressed pushes were dispatched`);
      return ms;
    },
    /**
     * take times the panel's poll of the hook's buffer (hook.take, the
     * JSON text the panel receives) and returns {ms, events}; without a
     * hook it costs nothing.
     */
    take() {
      if (!hook) return { ms: 0, events: 0 };
      const t0 = performance.now();
      const text = hook.take(seq);
      const ms = performance.now() - t0;
      const answer = JSON.parse(text);
      seq = answer.seq;
      taken += answer.events.length;
      return { ms, events: answer.events.length };
    },
  };
})();
