// @ts-check
// page.js: where the module is, and the object its API lives on.
import { bootStarted, wake } from "./boot.js";
import { fetchVerified } from "./integrity.js";

// doc is the page's document; null where there is none (a server rendering
// the page, a Node.js script, a test runner's node environment). There the
// loader installs nothing and its consumers fail with noDocument (boot.js).
/** @type {Document | null} */
export const doc = typeof document === "object" && document !== null ? document : null;

// The script tag that is running this file; null when it is imported as an
// ES module (or injected by a script).
export const script = /** @type {HTMLScriptElement | null} */ (doc && doc.currentScript);
export const debugAttr = !!script && script.hasAttribute("data-debug");

// bootMode says when the module starts: "lazy" (the default) at the first
// consumer contact (boot.js's wake), "eager" at once, "idle" in an idle
// period after the load event. data-boot on the tag sets it, or, for the ES
// module, globalThis.__MODELCONTEXT_BOOT__ set before it is imported.
export let bootMode = "lazy";
{
  const fromTag = !!script && script.hasAttribute("data-boot");
  const v = fromTag ? /** @type {HTMLScriptElement} */ (script).getAttribute("data-boot") : /** @type {any} */ (globalThis).__MODELCONTEXT_BOOT__;
  if (v === "eager" || v === "idle" || v === "lazy") bootMode = v;
  else if (v !== undefined && v !== null && v !== "") {
    console.warn(`modelcontext: ${fromTag ? "data-boot" : "__MODELCONTEXT_BOOT__"}=${JSON.stringify(String(v))} is not "lazy", "eager" or "idle"; the module boots lazily, at the first consumer call`);
  }
}

// debugOn reads the debug switch now: data-debug on the tag, or
// globalThis.__MODELCONTEXT_DEBUG__ === true at this moment. It is read on
// every registration and push. A global the page never set is looked for
// past the window's own properties, among the document's named elements;
// an own property of the global object is found at once, so there is one,
// undefined until the page sets it.
if (doc && !Object.prototype.hasOwnProperty.call(globalThis, "__MODELCONTEXT_DEBUG__")) {
  try {
    Object.defineProperty(globalThis, "__MODELCONTEXT_DEBUG__", { value: undefined, writable: true, configurable: true, enumerable: false });
  } catch {
    // A global object that takes no new property: debugOn reads it as before.
  }
}
export function debugOn() {
  return debugAttr || /** @type {any} */ (globalThis).__MODELCONTEXT_DEBUG__ === true ? 1 : 0;
}

// Where the .wasm is, first match wins: data-wasm on the tag; the page's
// __MODELCONTEXT_WASM_URL__, set before this file loads; beside the ES module
// (import.meta.url, which jsbuild writes into the module as moduleWasmURL,
// and which a bundler may have rewritten into a path of the site); beside
// the script's src. Each resolves like any URL of the page, and a query or
// hash on the script's URL changes nothing. When none of them gives a URL
// (a blob: script without data-wasm), wasmURL is "" and boot says so.
// scriptURL is where the script was ("" for the ES module): the classic
// script's runtime is beside it (loadRuntime). wasmFix is the advice of an
// error about a .wasm that is not at wasmURL: it names what chose the URL
// ("" for the ES module: the runtime's wasmAdvice tells a bundler's file
// from the module's own, and names the framework's fix).
export const [wasmURL, scriptURL, wasmFix] = locate();

function locate() {
  const fix = "put modelcontext.wasm at that URL (beside the script), or set data-wasm on the script tag";
  if (!doc) return ["", "", fix];
  const base = doc.baseURI;
  const at = moduleWasmURL ? "" : (script && script.src) || scriptURLFromStack() || base;
  try {
    const attr = script && script.getAttribute("data-wasm");
    const set = /** @type {any} */ (globalThis).__MODELCONTEXT_WASM_URL__;
    if (attr) return [new URL(attr, base).href, at, `put modelcontext.wasm at that URL, or correct data-wasm=${JSON.stringify(attr)} on the script tag`];
    if (typeof set === "string" && set !== "") {
      return [new URL(set, base).href, at, `put modelcontext.wasm at that URL, or correct globalThis.__MODELCONTEXT_WASM_URL__ (${JSON.stringify(set)})`];
    }
    if (moduleWasmURL) return [new URL(moduleWasmURL, base).href, at, ""];
    return [new URL("modelcontext.wasm", at).href, at, fix];
  } catch {
    return ["", at, fix];
  }
}

// runtimeURL is where the classic script's runtime is (loadRuntime):
// data-runtime on the tag, or the page's __MODELCONTEXT_RUNTIME_URL__; else
// beside the script; else, when nothing can be beside the script (a blob:
// script), beside the .wasm. "" when none of them gives a URL.
export const runtimeURL = locateRuntime();

function locateRuntime() {
  if (!doc) return "";
  const attr = script && script.getAttribute("data-runtime");
  const set = /** @type {any} */ (globalThis).__MODELCONTEXT_RUNTIME_URL__;
  for (const [u, base] of [[attr || "", doc.baseURI], [typeof set === "string" ? set : "", doc.baseURI], [RUNTIME_FILE, scriptURL], [RUNTIME_FILE, wasmURL]]) {
    try {
      if (u) return new URL(u, base).href;
    } catch {}
  }
  return "";
}

// checkWasmURL throws what is wrong with wasmURL before anything is
// fetched: there is none, or the page was opened as a file (a file: URL is
// read from disk where Node.js runs the page: readWasmFile).
export function checkWasmURL() {
  if (wasmURL === "") {
    throw new Error(`modelcontext: cannot tell where modelcontext.wasm is: the script was loaded from "${scriptURL}", which no file can be beside; set data-wasm on the script tag, or globalThis.__MODELCONTEXT_WASM_URL__ before it loads`);
  }
  if (wasmURL.startsWith("file:") && !nodeFS()) {
    throw new Error(`modelcontext: the WebAssembly module "${wasmURL}" cannot be loaded from a page opened as a file (file://); serve the page and its files over HTTP, for example with "python3 -m http.server" in their folder, and open http://localhost:8000/`);
  }
}

// With an eager boot, the .wasm request starts now, before the rest of the
// loader has run; boot awaits it (and reports its failure: it is marked
// handled here). Otherwise boot.js's start fetches it, while the runtime
// loads.
/** @type {Promise<Response> | null} */
const wasmResponse = bootMode === "eager" && wasmURL !== "" && !wasmURL.startsWith("file:") ? fetchVerified(wasmURL) : null;
if (wasmResponse) wasmResponse.catch(() => {});

/**
 * nodeFS is Node.js's fs/promises where the page runs in Node.js (jsdom,
 * happy-dom), whose fetch cannot read a file: URL; else null. It is reached
 * through process.getBuiltinModule, which no bundler follows into a page.
 * @returns {any}
 */
function nodeFS() {
  try {
    const p = /** @type {any} */ (globalThis).process;
    return (p && typeof p.getBuiltinModule === "function" && p.getBuiltinModule("fs/promises")) || null;
  } catch {
    return null;
  }
}

/**
 * fetchWasm starts reading the .wasm: over the network, or from disk for a
 * file: URL under Node.js (its bytes, then).
 * @returns {Promise<Response | ArrayBufferView>}
 */
export function fetchWasm() {
  const fs = wasmURL.startsWith("file:") ? nodeFS() : null;
  if (fs) return fs.readFile(new URL(wasmURL));
  return wasmResponse || fetchVerified(wasmURL);
}

// scriptURLFromStack finds this file's URL in a stack trace, for the classic
// script loaded some other way than a tag of its own (imported for its side
// effect, or evaluated by a loader library): the last frame is the file's top
// level, "<url>:<line>:<column>".
function scriptURLFromStack() {
  const m = /((?:https?|file|blob):[^\s()]+?):\d+:\d+\)?\s*$/.exec(new Error().stack || "");
  return m ? m[1] : "";
}

// mc is document.modelContext: the page's own object if it has one (native
// WebMCP, a polyfill, another library; an own property or an accessor on
// Document.prototype), which is augmented and never replaced, or a new
// EventTarget.
let madeHere = false; // mc is the EventTarget ownContext made
/** @type {any} */
export const mc = ownContext();

function ownContext() {
  if (!doc) return new EventTarget();
  const own = /** @type {any} */ (doc).modelContext;
  if (own !== null && (typeof own === "object" || typeof own === "function")) return own;
  const target = new EventTarget();
  Object.defineProperty(doc, "modelContext", { value: target, configurable: true, enumerable: true });
  madeHere = true;
  return target;
}
// events fires the module's events: mc itself, or, for an existing object
// that cannot carry events, an EventTarget whose methods are added to it.
/** @type {EventTarget} */
export const events = typeof mc.dispatchEvent === "function" && typeof mc.addEventListener === "function" ? mc : new EventTarget();
if (events !== mc) define("dispatchEvent", events.dispatchEvent.bind(events));
// listen adds a listener to events as the object's own addEventListener
// does, which the one defined below wraps.
/** @type {(type: string, listener: any, options?: any) => void} */
const listen = /** @type {any} */ (events.addEventListener).bind(events);

// heard says, for each of the module's events, whether a listener may be
// listening. When none can be, the module makes no event (runtime/host.js's
// resourceupdated, runtime/lifecycle.js's resourcelistchanged): a
// CustomEvent, and for a list change a copy of the list, is most of what a
// push or a register and its unregister cost, and most pages have no
// listener. Listeners are seen on an EventTarget of this file's making (mc
// made here, or the one that carries an object's events): added through its
// addEventListener and not yet taken off through its removeEventListener, or
// set as an on… handler and not cleared. The options of a listener of these
// types are read once and handed to the browser as read, so that both see
// one capture flag. What the browser takes off by itself (a `once` listener
// that ran, one whose `signal` aborted) still counts: heard may say yes when
// nobody listens, never no when somebody does. A page's own object that
// carries events (native WebMCP, a polyfill) may have had listeners before
// this file ran, or get them from another script world: on it every event
// is made.
export const pagesOwn = events === mc && !madeHere;
export const heard = { resourceupdated: pagesOwn, resourcelistchanged: pagesOwn };

/**
 * @typedef {object} Listening the listeners of one of the module's events
 * that heard counts
 * @property {Map<any, number>} added listener → its captures (BUBBLE, CAPTURE)
 * @property {boolean} handler an on… handler is set
 */
const BUBBLE = 1;
const CAPTURE = 2;
/** @type {Record<"resourceupdated" | "resourcelistchanged", Listening>} */
export const listening = {
  resourceupdated: { added: new Map(), handler: false },
  resourcelistchanged: { added: new Map(), handler: false },
};

/**
 * listened records that listener was added (on) or taken off (!on) for type
 * with the capture flag capture, as the browser just did, and recounts.
 * @param {"resourceupdated" | "resourcelistchanged"} type
 * @param {any} listener
 * @param {boolean} capture
 * @param {boolean} on
 */
function listened(type, listener, capture, on) {
  if (listener === null || listener === undefined) return; // the browser ignores it
  const l = listening[type];
  const bit = capture ? CAPTURE : BUBBLE;
  const bits = l.added.get(listener) || 0;
  if (on) l.added.set(listener, bits | bit);
  else if (bits & ~bit) l.added.set(listener, bits & ~bit);
  else l.added.delete(listener);
  recount(type);
}

/**
 * recount derives heard[type] from listening[type].
 * @param {"resourceupdated" | "resourcelistchanged"} type
 */
function recount(type) {
  const l = listening[type];
  heard[type] = pagesOwn || l.handler || l.added.size > 0;
}

/**
 * captureOf reads the capture flag of addEventListener's or
 * removeEventListener's options as the browser does: a boolean, or an
 * object's capture (a getter may throw, as it would in the browser).
 * @param {any} options
 */
function captureOf(options) {
  if (options !== null && (typeof options === "object" || typeof options === "function")) return Boolean(options.capture);
  return Boolean(options);
}

/**
 * flatOptions reads addEventListener's options once, in the browser's
 * order, into what the browser is then given: the capture flag alone, or a
 * plain object of the four members. The browser and the count then see the
 * same capture flag, whatever a getter of the page's options returns from
 * one read to the next.
 * @param {any} options
 */
function flatOptions(options) {
  if (options === null || (typeof options !== "object" && typeof options !== "function")) return Boolean(options);
  return { capture: Boolean(options.capture), once: Boolean(options.once), passive: options.passive, signal: options.signal };
}

/**
 * ours says whether type is one of the module's events.
 * @param {any} type
 * @returns {type is "resourceupdated" | "resourcelistchanged"}
 */
function ours(type) {
  return type === "resourceupdated" || type === "resourcelistchanged";
}

// A listener for one of the module's events is a consumer: adding one
// starts the module. Every other type passes through untouched.
define("addEventListener", function addEventListener(/** @type {any} */ type, /** @type {any} */ listener, /** @type {any} */ options) {
  if (!ours(type)) return listen(type, listener, options);
  const flat = flatOptions(options);
  const result = listen(type, listener, flat);
  listened(type, listener, typeof flat === "boolean" ? flat : flat.capture, true);
  if (!bootStarted) wake(`a listener for ${type} was added`);
  return result;
});

// On an EventTarget of this file's making, taking the last listener of a
// type off makes that type unheard again.
if (!pagesOwn) {
  /** @type {(type: string, listener: any, options?: any) => void} */
  const unlisten = /** @type {any} */ (events.removeEventListener).bind(events);
  define("removeEventListener", function removeEventListener(/** @type {any} */ type, /** @type {any} */ listener, /** @type {any} */ options) {
    if (!ours(type)) return unlisten(type, listener, options);
    const capture = captureOf(options); // read once: the browser is given the flag
    const result = unlisten(type, listener, capture);
    listened(type, listener, capture, false);
    return result;
  });
}

// onresourceupdated and onresourcelistchanged are event handler attributes,
// as the platform's ontoolchange: a function set there runs for each event,
// as a listener added when it was first set; null or anything that is not a
// function clears it (and a later function is added anew, last). Setting a
// function starts the module, as adding a listener does.
for (const type of /** @type {const} */ (["resourceupdated", "resourcelistchanged"])) {
  /** @type {Function | null} */
  let handler = null;
  const listener = (/** @type {Event} */ ev) => {
    if (handler !== null) return handler.call(mc, ev);
  };
  Object.defineProperty(mc, "on" + type, {
    configurable: true,
    enumerable: false,
    get() {
      return handler;
    },
    set(/** @type {any} */ f) {
      if (typeof f !== "function") {
        if (handler !== null) events.removeEventListener(type, listener);
        handler = null;
        listening[type].handler = false;
        recount(type);
        return;
      }
      if (handler === null) listen(type, listener);
      handler = f;
      listening[type].handler = true;
      recount(type);
      if (!bootStarted) wake(`on${type} was set`);
    },
  });
}

/**
 * define adds a member to document.modelContext, changing nothing else on it.
 * @param {string | symbol} name
 * @param {any} value
 */
export function define(name, value) {
  Object.defineProperty(mc, name, { value, configurable: true, writable: true, enumerable: false });
}

