// @ts-check
// host.js: what Go calls. Each member implements the //go:wasmimport function
// of wasm/bridge/imports.go whose Go signature is written above it; the
// names and signatures are checked against imports.go by wasm/cmd/jsbuild's
// tests. It also runs a push up to the call into Go (push, result).
import { forgetSession, patchInfo, pushedKeys, stepPush } from "./changes.js";
import { mcpComplete } from "./complete.js";
import { str, utf8Length } from "./encode.js";
import { hold, release, vals } from "./handles.js";
import { keyOf } from "./keys.js";
import { regs } from "./lookup.js";
import { toGo } from "./observe.js";
import { dispatch, mayHear, unheard } from "./events.js";
import { mcpClose, mcpOpen, mcpPost, mcpRead } from "./server.js";
import { ex } from "./start.js";
import { isReady, pageRevision } from "../api.js";
import { debugOn } from "../page.js";
import { isThenable, quietError } from "../values.js";
/** @typedef {import("./changes.js").PatchState} PatchState */
/** @typedef {import("../table.js").Registration} Registration */

/**
 * @typedef {object} Handler a consumer subscription's handler and the uri it
 * subscribed to (which a replacement of the resource keeps); for
 * subscribeResource's {patch: true}, the value it was handed last
 * @property {Function} f
 * @property {string} uri
 * @property {PatchState | null} patch
 */
/** @type {Map<number, Handler>} consumer subscription → its handler */
export const handlers = new Map();
// Pushes nested in pushes (get or a listener calling onChange): bounded, so
// that an endless loop is reported instead of exhausting the stack inside Go.
const MAX_PUSH_DEPTH = 64;
let pushDepth = 0;
export let started = false; // main has called ready

export const host = {
  // func hostDispatch(id, v int32)
  dispatch(/** @type {number} */ id, /** @type {number} */ h) {
    const r = /** @type {Registration} */ (regs.get(id));
    const revision = stepPush(r);
    if (mayHear("resourceupdated")) dispatch("resourceupdated", { uri: r.key, value: vals[h], revision });
    else unheard("resourceupdated");
  },
  // func hostDeliver(sub, v int32) int32
  deliver(/** @type {number} */ sub, /** @type {number} */ h) {
    const s = handlers.get(sub);
    if (!s) return 0;
    try {
      if (s.patch === null) s.f(vals[h], s.uri);
      else s.f(vals[h], s.uri, patchInfo(s.patch, s.uri, h));
    } catch (e) {
      return hold(e);
    }
    return 0;
  },
  // func hostEndSubscription(sub int32)
  endSubscription(/** @type {number} */ sub) {
    handlers.delete(sub);
  },
  // func hostRelease(v int32)
  release(/** @type {number} */ h) {
    release(h);
  },
  // func hostError(msg string, v int32)
  error(/** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ h) {
    if (h) console.error(str(p, n), vals[h]);
    else console.error(str(p, n));
  },
  // func hostDebug(msg string)
  debug(/** @type {number} */ p, /** @type {number} */ n) {
    console.debug(str(p, n));
  },
  // func hostReady()
  ready() {
    started = true;
  },
  // func hostMCPOpen(server int32, channel, origins string, parent int32)
  mcpOpen(/** @type {number} */ server, /** @type {number} */ p, /** @type {number} */ n, /** @type {number} */ op, /** @type {number} */ on,
    /** @type {number} */ parent) {
    mcpOpen(server, str(p, n), str(op, on).split("\n"), parent !== 0);
  },
  // func hostMCPClose(server int32)
  mcpClose(/** @type {number} */ server) {
    mcpClose(server);
  },
  // func hostMCPPost(server int32, session, msg string, attach, first, count, v int32)
  mcpPost(/** @type {number} */ server, /** @type {number} */ sp, /** @type {number} */ sn, /** @type {number} */ p, /** @type {number} */ n,
    /** @type {number} */ attach, /** @type {number} */ first, /** @type {number} */ count, /** @type {number} */ h) {
    mcpPost(server, sn ? str(sp, sn) : "", str(p, n), attach, first, count, h);
  },
  // func hostMCPRead(server, req, id int32, params string)
  mcpRead(/** @type {number} */ server, /** @type {number} */ req, /** @type {number} */ id, /** @type {number} */ p, /** @type {number} */ n) {
    mcpRead(server, req, id, n ? str(p, n) : "");
  },
  // func hostMCPForget(server int32, session string)
  mcpForget(/** @type {number} */ server, /** @type {number} */ p, /** @type {number} */ n) {
    forgetSession(server, n ? str(p, n) : "");
  },
  // func hostRevision() float64
  revision() {
    return pageRevision.value;
  },
  // func hostTextBytes(v int32) int32
  textBytes(/** @type {number} */ h) {
    return utf8Length(vals[h]);
  },
  // func hostMCPComplete(server, req, id int32, name, value, args string)
  mcpComplete(/** @type {number} */ server, /** @type {number} */ req, /** @type {number} */ id, /** @type {number} */ np, /** @type {number} */ nn,
    /** @type {number} */ vp, /** @type {number} */ vn, /** @type {number} */ ap, /** @type {number} */ an) {
    mcpComplete(server, req, id, str(np, nn), vn ? str(vp, vn) : "", str(ap, an));
  },
};

/**
 * push is onChange of r: while r is the current registration of its key and
 * its subscribe did not throw, it numbers the call, calls the getter and,
 * once the value is there, hands Go the result (see result).
 * @param {Registration} r
 */
export function push(r) {
  // A registration's subscribe runs only once the module runs, and a failed
  // start or an exited Go makes no registration current (api.js's fail):
  // r.current says all that state would.
  if (r.pullOnly || !r.current) return;
  if (pushDepth >= MAX_PUSH_DEPTH) {
    quietError(`modelcontext: onChange of "${r.key}" re-entered ${MAX_PUSH_DEPTH} pushes deep (does get() call onChange?); this push was dropped`);
    return;
  }
  const n = ++r.pushes;
  pushDepth++;
  try {
    let v, later;
    try {
      v = r.get.call(r.desc);
      later = isThenable(v); // which reads v.then: it may throw too
    } catch (e) {
      failed(r, n, e);
      return;
    }
    if (later) {
      Promise.resolve(v).then(
        (x) => { if (isReady()) result(r, n, x); },
        (e) => { if (isReady()) failed(r, n, e); });
      return;
    }
    result(r, n, v);
  } finally {
    pushDepth--;
  }
}

/**
 * settled is onChange of r when its settle is above 0: a burst of calls
 * makes one push, settle ms after the last of them, and at the latest
 * 4 × settle ms after the first; the push reads get() then.
 * @param {Registration} r
 */
export function settled(r) {
  if (r.pullOnly || !r.current) return; // as in push
  const now = performance.now();
  if (r.timer === 0) r.burst = now;
  else clearTimeout(r.timer);
  const wait = Math.min(r.settle, r.burst + 4 * r.settle - now);
  r.timer = setTimeout(() => {
    r.timer = 0;
    push(r);
  }, Math.max(0, wait));
}

/**
 * result computes the comparison key of v, the value of push n of r, and
 * tells Go how it compares with the baseline (the key of the last value
 * dispatched); Go decides what the push does. A new key (or none) becomes
 * the baseline before Go is called, so that a push made while Go delivers
 * this value compares with it, and the old one is restored when Go does not
 * dispatch it (a newer push was handled first, or r is gone): Go calls
 * nothing of the page's then. The value is released here when Go is done
 * with it as mc_push returns (not dispatched, or delivered at once); one
 * that waits behind the delivery in progress, Go releases once delivered.
 * @param {Registration} r
 * @param {number} n
 * @param {any} v
 */
export function result(r, n, v) {
  let k;
  try {
    k = keyOf(v);
  } catch {
    k = null;
  }
  if (k !== null && k === r.base) {
    internal(toGo(r, n, RESULT_SAME, 0));
    return;
  }
  const old = r.base;
  r.base = k;
  const h = hold(v);
  pushedKeys[h] = k; // its JSON text, for patches (changes.js)
  const outcome = internal(toGo(r, n, k === null ? RESULT_NO_KEY : RESULT_DIFFERENT, h));
  if (outcome === DISPATCHED) return; // Go holds v until it is delivered
  release(h);
  if (outcome !== DELIVERED) r.base = old;
}

/**
 * failed tells Go that push n of r failed with e (get threw, or its Promise
 * rejected).
 * @param {Registration} r
 * @param {number} n
 * @param {any} e
 */
export function failed(r, n, e) {
  const h = hold(e);
  try {
    internal(toGo(r, n, RESULT_THREW, h));
  } finally {
    release(h);
  }
}

/**
 * mcPush tells Go the result res of push n of r (the value h), and returns
 * what mc_push returned (observe.js's toGo).
 * @param {Registration} r
 * @param {number} n
 * @param {number} res
 * @param {number} h
 */
export function mcPush(r, n, res, h) {
  return ex.mc_push(r.id, n, res, h, debugOn());
}

/**
 * internal returns what an export returned, or throws the failure it
 * returned instead: minus the address of a record in Go's memory, its kind
 * (an Error, or FAIL_TYPE_ERROR), its length and its message
 * (wasm/bridge/answer.go).
 * @param {number} code
 */
export function internal(code) {
  if (code >= 0) return code;
  const w = new Int32Array(ex.mem.buffer, -code, 2);
  const msg = str(-code + 8, w[1]);
  throw w[0] === FAIL_TYPE_ERROR ? new TypeError(msg) : new Error(msg);
}

let faultAddr = 0;

/**
 * setFaultAddr takes where in Go's memory the fault flag is, once main runs.
 * @param {number} addr
 */
export function setFaultAddr(addr) {
  faultAddr = addr;
}

// imports wraps every host function so that no exception ever unwinds Go's
// frames (a throw escaping into Go would skip its deferred calls): a host
// function that throws is a bug in the loader, reported here and to Go
// through the fault flag (see bridge.checkFault), never as a value. Each
// wrapper calls host[name] when it runs, so that internals.breakHost can
// swap in a function that throws, and observe.js the ones that note what a
// push reached while a DevTools panel listens.
export function imports() {
  /** @type {Record<string, Function>} */
  const o = {};
  const h = /** @type {Record<string, Function>} */ (/** @type {unknown} */ (host));
  for (const name of Object.keys(host)) {
    // No host function takes more than nine numbers: extra undefined
    // arguments are free, where arguments and apply are not.
    o[name] = (/** @type {any} */ a, /** @type {any} */ b, /** @type {any} */ c, /** @type {any} */ d,
      /** @type {any} */ e, /** @type {any} */ g, /** @type {any} */ i, /** @type {any} */ j, /** @type {any} */ k) => {
      try {
        return h[name](a, b, c, d, e, g, i, j, k);
      } catch (err) {
        return fault(name, err);
      }
    };
  }
  // The calls of a push get wrappers of their own: the shared one above is
  // one function for all, so V8 never inlines the call it makes.
  o.dispatch = (/** @type {number} */ id, /** @type {number} */ v) => {
    try { return host.dispatch(id, v); } catch (err) { return fault("dispatch", err); }
  };
  o.deliver = (/** @type {number} */ sub, /** @type {number} */ v) => {
    try { return host.deliver(sub, v); } catch (err) { return fault("deliver", err); }
  };
  o.release = (/** @type {number} */ v) => {
    try { return host.release(v); } catch (err) { return fault("release", err); }
  };
  return o;
}

/**
 * fault reports a host function that threw and raises the fault flag Go
 * checks after the call; the 0 it returns means nothing.
 * @param {string} name
 * @param {unknown} err
 */
function fault(name, err) {
  quietError(`modelcontext: internal error in the loader's ${name}:`, err);
  try {
    new Int32Array(ex.mem.buffer, faultAddr, 1)[0] = 1;
  } catch {}
  return 0;
}
