// debug-tap.js — lets the agent panel count suppressed pushes.
//
// The module has no public counter of the pushes it drops as "value unchanged";
// it only says so in its debug log (data-debug on its script tag):
//
//   [modelcontext] resource "state://cart": push suppressed (value unchanged)
//
// So this tap wraps console.debug, counts those lines per uri, and passes every
// call on to the real console.debug untouched. It must run before the module's
// script tag so that no line is missed.
(function () {
  'use strict';

  const original = console.debug;
  const suppressed = /^\[modelcontext\] resource "(.*)": push suppressed \(value unchanged\)/;
  const listeners = new Set();
  const counts = new Map();

  // Renders the arguments the way the console would for the common cases:
  // plain strings joined by spaces, with printf-style %s/%d/%o substitutions.
  function text(args) {
    if (args.length === 0) return '';
    let first = String(args[0]);
    let rest = Array.prototype.slice.call(args, 1);
    if (typeof args[0] === 'string' && /%[sdifoOc]/.test(first)) {
      first = first.replace(/%([sdifoOc%])/g, (m, c) => {
        if (c === '%') return '%';
        if (rest.length === 0) return m;
        const v = rest.shift();
        return c === 'c' ? '' : String(v);
      });
    }
    return [first].concat(rest.map(String)).join(' ');
  }

  console.debug = function debug() {
    try {
      const m = suppressed.exec(text(arguments));
      if (m) {
        const uri = m[1];
        counts.set(uri, (counts.get(uri) || 0) + 1);
        for (const fn of listeners) {
          try { fn(uri, counts.get(uri)); } catch (err) { console.error(err); }
        }
      }
    } catch (_) {
      // Never let the tap break logging.
    }
    return original.apply(this, arguments);
  };

  // The panel reads counts and listens through this small object.
  globalThis.__agentPanelTap = {
    suppressedCount(uri) { return counts.get(uri) || 0; },
    onSuppressed(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
})();
