// @ts-check
// page.js: where the module is, and the object its API lives on.

// The script tag that is running this file; null when it is imported as an
// ES module (or injected by a script).
const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
const debugAttr = !!script && script.hasAttribute("data-debug");

// bootMode says when the module starts: "lazy" (the default) at the first
// consumer contact (boot.js's wake), "eager" at once, "idle" in an idle
// period after the load event. data-boot on the tag sets it, or, for the ES
// module, globalThis.__MODELCONTEXT_BOOT__ set before it is imported.
let bootMode = "lazy";
{
  const fromTag = !!script && script.hasAttribute("data-boot");
  const v = fromTag ? /** @type {HTMLScriptElement} */ (script).getAttribute("data-boot") : /** @type {any} */ (globalThis).__MODELCONTEXT_BOOT__;
  if (v === "eager" || v === "idle" || v === "lazy") bootMode = v;
  else if (v !== undefined && v !== null && v !== "") {
    console.warn(`modelcontext: ${fromTag ? "data-boot" : "__MODELCONTEXT_BOOT__"}=${JSON.stringify(String(v))} is not "lazy", "eager" or "idle"; the module boots lazily, at the first consumer call`);
  }
}
// bootStarted: the module has been asked to start (boot.js's wake).
let bootStarted = false;

// debugOn reads the debug switch now: data-debug on the tag, or
// globalThis.__MODELCONTEXT_DEBUG__ === true at this moment.
function debugOn() {
  return debugAttr || /** @type {any} */ (globalThis).__MODELCONTEXT_DEBUG__ === true ? 1 : 0;
}

// Where the .wasm is, first match wins: data-wasm on the tag; the page's
// __MODELCONTEXT_WASM_URL__, set before this file loads; beside the ES module
// (import.meta.url, which jsbuild writes into the module as moduleWasmURL);
// beside the script's src. Each resolves like any URL of the page, and a
// query or hash on the script's URL changes nothing. When none of them gives
// a URL (a blob: script without data-wasm), wasmURL is "" and boot says so.
/** @type {string} */
let wasmURL = "";
/** @type {string} where the script was, when the .wasm cannot be found beside it */
let scriptURL = "";
// wasmFix is the advice of an error about a .wasm that is not at wasmURL:
// it names what chose the URL.
let wasmFix = "put modelcontext.wasm at that URL (beside the script), or set data-wasm on the script tag";
try {
  const attr = script && script.getAttribute("data-wasm");
  const set = /** @type {any} */ (globalThis).__MODELCONTEXT_WASM_URL__;
  if (attr) {
    wasmFix = `put modelcontext.wasm at that URL, or correct data-wasm=${JSON.stringify(attr)} on the script tag`;
    wasmURL = new URL(attr, document.baseURI).href;
  } else if (typeof set === "string" && set !== "") {
    wasmFix = `put modelcontext.wasm at that URL, or correct globalThis.__MODELCONTEXT_WASM_URL__ (${JSON.stringify(set)})`;
    wasmURL = new URL(set, document.baseURI).href;
  } else if (moduleWasmURL) wasmURL = moduleWasmURL;
  else {
    scriptURL = (script && script.src) || scriptURLFromStack() || document.baseURI;
    wasmURL = new URL("modelcontext.wasm", scriptURL).href;
  }
} catch {}

// With an eager boot, the .wasm request starts now, before the rest of the
// loader has run; boot awaits it (and reports its failure: it is marked
// handled here). Otherwise boot fetches it when it starts.
/** @type {Promise<Response> | null} */
const wasmResponse = bootMode === "eager" && wasmURL !== "" && !wasmURL.startsWith("file:") ? fetch(wasmURL, { credentials: "same-origin" }) : null;
if (wasmResponse) wasmResponse.catch(() => {});

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
/** @type {any} */
let mc = /** @type {any} */ (document).modelContext;
if (mc === null || (typeof mc !== "object" && typeof mc !== "function")) {
  mc = new EventTarget();
  Object.defineProperty(document, "modelContext", { value: mc, configurable: true, enumerable: true });
}
// events fires the module's events: mc itself, or, for an existing object
// that cannot carry events, an EventTarget whose methods are added to it.
/** @type {EventTarget} */
let events = mc;
if (typeof mc.dispatchEvent !== "function" || typeof mc.addEventListener !== "function") {
  const target = new EventTarget();
  events = target;
  define("removeEventListener", target.removeEventListener.bind(target));
  define("dispatchEvent", target.dispatchEvent.bind(target));
}
// listen adds a listener to events as the object's own addEventListener
// does, which the one defined below wraps.
/** @type {(type: string, listener: any, options?: any) => void} */
const listen = /** @type {any} */ (events.addEventListener).bind(events);

// A listener for one of the module's events is a consumer: adding one
// starts the module. Every other type passes through untouched.
define("addEventListener", function addEventListener(/** @type {any} */ type, /** @type {any} */ listener, /** @type {any} */ options) {
  if (!bootStarted && (type === "resourceupdated" || type === "resourcelistchanged")) wake(`a listener for ${type} was added`);
  return listen(type, listener, options);
});

// onresourceupdated and onresourcelistchanged are event handler attributes,
// as the platform's ontoolchange: a function set there runs for each event,
// as a listener added when it was first set; null or anything that is not a
// function clears it (and a later function is added anew, last). Setting a
// function starts the module, as adding a listener does.
for (const type of ["resourceupdated", "resourcelistchanged"]) {
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
        return;
      }
      if (handler === null) listen(type, listener);
      handler = f;
      if (!bootStarted) wake(`on${type} was set`);
    },
  });
}

/**
 * define adds a member to document.modelContext, changing nothing else on it.
 * @param {string | symbol} name
 * @param {any} value
 */
function define(name, value) {
  Object.defineProperty(mc, name, { value, configurable: true, writable: true, enumerable: false });
}

/**
 * dispatch fires a CustomEvent on document.modelContext; a listener that
 * throws is reported by the browser and stops nothing.
 * @param {string} type
 * @param {any} detail
 */
function dispatch(type, detail) {
  try {
    events.dispatchEvent(new CustomEvent(type, { detail }));
  } catch (e) {
    quietError(`modelcontext: dispatching ${type} failed:`, e);
  }
}
