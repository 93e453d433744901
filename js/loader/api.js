// @ts-check
// api.js: the page API, and the queue of calls made before Go is ready.
import { changesNow } from "./runtime/changes.js";
import { readNow, registerNow, subscribeNow, unregisterNow, unsubscribeNow } from "./runtime/lifecycle.js";
import { bootStarted, wake } from "./boot.js";
import { devtools, inspectEmit } from "./inspect.js";
import { deliverEarlyMessages } from "./mcp.js";
import { bad, enter, leave, list, newRegistration, notFound, resources, snapshot, templates, validate } from "./table.js";
import { describe, typeName } from "./values.js";
/** @typedef {import("./table.js").Registration} Registration */

export const LOADING = 0;
export const READY = 1;
export const FAILED = 2;
export let state = LOADING;

// isReady tells the runtime that the module runs (it reads state through
// this: a let crosses to the runtime once, as its value then, so jsbuild
// refuses it).
export function isReady() {
  return state === READY;
}

// setReady records that the module runs (boot.js, once it has booted).
export function setReady() {
  state = READY;
}
/** @type {Error | null} the Error `ready` rejected with */
export let failure = null;

// The page's revision (document.modelContext.revision): one more for each
// resourceupdated and resourcelistchanged dispatched, heard or not. The
// runtime steps it (runtime/changes.js); before the module runs it is 0.
export const pageRevision = { value: 0 };

// The calls made before Go is ready, in order. The table answers at once
// (getResources already lists a queued registration); replay runs the calls
// again against Go, rebuilding the table step by step, so that every event
// they fire sees the list as it was at that step.
/** @type {any[]} */
export const queue = [];

/**
 * registerResource registers a resource; aborting options.signal
 * unregisters it, as the returned function does.
 * @param {any} descriptor
 * @param {any} [options]
 */
export function registerResource(descriptor, options) {
  const s = snapshot(descriptor);
  const problem = validate(s);
  if (problem) throw new TypeError(problem);
  const signal = signalOf(options, s);
  if (state === FAILED || (signal !== undefined && signal.aborted)) return function unregister() {};
  const r = newRegistration(s);
  if (state === READY) registerNow(r);
  else {
    enter(r);
    queue.push({ op: "register", r });
  }
  const unregister = function unregister() {
    if (r.done) return;
    r.done = true;
    if (signal !== undefined) signal.removeEventListener("abort", unregister);
    if (state === READY) unregisterNow(r);
    else if (state === LOADING && leave(r)) queue.push({ op: "unregister", r });
  };
  if (signal !== undefined) {
    signal.addEventListener("abort", unregister);
    // Aborted while it registered (by its subscribe, or a listener): the
    // abort event has fired already.
    if (signal.aborted) unregister();
  }
  return unregister;
}

/**
 * signalOf reads registerResource's options: their signal, an AbortSignal,
 * or undefined. Options that are not an object, or a signal that is not an
 * AbortSignal, are a TypeError naming them and the uri.
 * @param {any} options
 * @param {Registration} s
 * @returns {AbortSignal | undefined}
 */
function signalOf(options, s) {
  if (options === undefined || options === null) return undefined;
  const key = s.uri !== undefined ? "uri" : "uriTemplate";
  const id = s.uri !== undefined ? s.uri : s.uriTemplate;
  if (typeof options !== "object" && typeof options !== "function") throw new TypeError(bad(key, id, "options", MSG_OBJECT + typeName(options)));
  let signal;
  try {
    signal = options.signal;
  } catch (e) {
    throw new TypeError(bad(key, id, "options.signal", MSG_SIGNAL_THREW + describe(e)));
  }
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  throw new TypeError(bad(key, id, "options.signal", MSG_ABORT_SIGNAL + typeName(signal)));
}

/** @param {string} msg */
export function debugLine(msg) {
  console.debug("[modelcontext] " + msg);
}

export function getResources() {
  if (!bootStarted) wake("getResources was called");
  if (state === FAILED) throw failure;
  return list(resources);
}

export function getResourceTemplates() {
  if (!bootStarted) wake("getResourceTemplates was called");
  if (state === FAILED) throw failure;
  return list(templates);
}

/**
 * @param {string} method
 * @param {any} uri
 */
function checkURI(method, uri) {
  if (typeof uri !== "string") throw new TypeError(`modelcontext: ${method}: "uri" ${MSG_STRING}${typeName(uri)}`);
}

/** @param {any} uri */
export function readResource(uri) {
  if (!bootStarted) wake("readResource was called");
  if (devtools.hook !== null) inspectEmit("read", { uri, by: devtools.by });
  try {
    checkURI("readResource", uri);
  } catch (e) {
    return Promise.reject(e);
  }
  if (state === READY) return readNow(uri);
  if (state === FAILED) return Promise.reject(failure);
  return new Promise((resolve, reject) => queue.push({ op: "read", uri, resolve, reject }));
}

/**
 * @param {any} uri
 * @param {any} handler
 * @param {any} [options]
 */
export function subscribeResource(uri, handler, options) {
  if (!bootStarted) wake("subscribeResource was called");
  checkURI("subscribeResource", uri);
  if (typeof handler !== "function") throw new TypeError(`modelcontext: subscribeResource: "handler" ${MSG_FUNCTION}${typeName(handler)}`);
  const patch = patchOption(options);
  if (state === FAILED) throw failure;
  const r = resources.get(uri);
  if (!r) throw notFound(uri);
  const handle = { sub: 0, cancelled: false };
  if (state === READY) handle.sub = subscribeNow(r, handler, patch);
  else queue.push({ op: "subscribe", uri, handler, patch, handle });
  return function unsubscribe() {
    if (handle.cancelled) return;
    handle.cancelled = true;
    if (state === READY && handle.sub) unsubscribeNow(handle.sub);
  };
}

/**
 * patchOption reads subscribeResource's options: whether the handler is
 * handed patches ({patch: true}).
 * @param {any} options
 */
function patchOption(options) {
  if (options === undefined || options === null) return false;
  const P = "modelcontext: subscribeResource: ";
  if (typeof options !== "object") throw new TypeError(`${P}"options" ${MSG_OBJECT}${typeName(options)}`);
  const p = options.patch;
  if (p !== undefined && typeof p !== "boolean") throw new TypeError(`${P}"options.patch" must be a boolean, got ${typeName(p)}`);
  return p === true;
}

/**
 * changesSince answers what changed since revision (a Promise): the uris
 * updated, added and removed, or reset when the module no longer remembers
 * that far back.
 * @param {any} revision
 */
export function changesSince(revision) {
  if (!bootStarted) wake("changesSince was called");
  const P = "modelcontext: changesSince: ";
  if (typeof revision !== "number" || !Number.isInteger(revision)) {
    return Promise.reject(new TypeError(`${P}"revision" must be an integer (a document.modelContext.revision), got ${typeName(revision)}`));
  }
  if (revision < 0 || revision > pageRevision.value) {
    return Promise.reject(new RangeError(`${P}"revision" must be from 0 to the current revision, ${pageRevision.value}; got ${revision}`));
  }
  if (state === READY) return Promise.resolve(changesNow(revision));
  if (state === FAILED) return Promise.reject(failure);
  return new Promise((resolve, reject) => queue.push({ op: "changes", revision, resolve, reject }));
}

// fail ends loading with err: pending reads reject with it, consumers throw
// it from now on, and registrations become no-ops.
/** @param {Error} err */
export function fail(err) {
  state = FAILED;
  failure = err;
  deliverEarlyMessages(() => {}); // to no server: they are dropped
  for (const q of queue) if (q && q.reject) q.reject(err);
  queue.length = 0;
  for (const r of resources.values()) r.current = false;
  for (const r of templates.values()) r.current = false;
  resources.clear();
  templates.clear();
}
