// @ts-check
// boot.js: when the module starts, and the API installed on
// document.modelContext. Starting it loads the rest of the loader (the
// runtime, js/loader/runtime: loadRuntime, which jsbuild writes) and then
// fetches, compiles and starts the .wasm (start.js's boot).
import { booted } from "./runtime/lifecycle.js";
import { boot } from "./runtime/start.js";
import { changesSince, debugLine, fail, getResourceTemplates, getResources, pageRevision, readResource, registerResource, subscribeResource } from "./api.js";
import { connectFrame } from "./frames.js";
import { devtools, inspectEmit, installInspect } from "./inspect.js";
import { registerPageResource, watchMarkup } from "./markup.js";
import { awaitMessages, serveMCP, tagParent } from "./mcp.js";
import { bootMode, checkWasmURL, debugOn, define, doc, fetchWasm, mc, script, wasmURL } from "./page.js";
import { registerResourceTools } from "./tools.js";
import { checkResource } from "./table.js";
import { describe, quietError } from "./values.js";

// bootStarted: the module has been asked to start (wake).
export let bootStarted = false;

/**
 * Ready is document.modelContext.ready: a Promise that starts the module
 * when it is awaited or its then, catch or finally is called (a consumer
 * waiting for the module is a consumer contact). What those return are
 * plain Promises.
 * @extends {Promise<void>}
 */
class Ready extends Promise {
  static get [Symbol.species]() {
    return Promise;
  }
  /**
   * @param {any} [onFulfilled]
   * @param {any} [onRejected]
   * @returns {Promise<any>}
   */
  then(onFulfilled, onRejected) {
    if (!bootStarted) wake("ready was awaited");
    return super.then(onFulfilled, onRejected);
  }
}
/** @type {(v: void) => void} */
let resolveReady = () => {};
/** @type {(e: Error) => void} */
let rejectReady = () => {};
export const ready = new Ready((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// Marked handled without starting the module: a page that does not wait
// for ready sees no unhandled rejection (the failure is reported once, by
// wake).
Promise.prototype.then.call(ready, undefined, () => {});

/**
 * wake starts the module, once: at the first consumer contact of a lazy
 * boot (why says which, for the debug line), at once for an eager one, in
 * idle time for an idle one. Its failure is reported here, once.
 * @param {string} why
 */
export function wake(why) {
  if (bootStarted) return;
  bootStarted = true;
  if (debugOn()) debugLine(`starting the WebAssembly module: ${why}`);
  devtools.why = why;
  inspectEmit("boot", { state: "starting", why }); // once a page: no check of the hook first
  start().then(resolveReady, (/** @type {any} */ e) => {
    // Every failure to load names itself, whatever threw it.
    const err = describe(e).startsWith("modelcontext:") ? e : new Error(`modelcontext: could not load the WebAssembly module "${wasmURL}": ${describe(e)}`);
    fail(err);
    quietError(err.message);
    rejectReady(err);
  });
}

// start loads the runtime and fetches the .wasm, boots the module and
// replays the calls made meanwhile. A failure rejects, with what to fix.
export async function start() {
  checkWasmURL();
  // The .wasm downloads while the runtime loads.
  const response = fetchWasm();
  response.catch(() => {}); // boot reports it
  await loadRuntime();
  await boot(response);
  booted();
}

// install puts the members on document.modelContext and starts what the
// script tag asks for (the entry calls it once every module is evaluated).
export function install() {
  installInspect();
  define("registerResource", registerResource);
  define("getResources", getResources);
  define("getResourceTemplates", getResourceTemplates);
  define("readResource", readResource);
  define("subscribeResource", subscribeResource);
  define("serveMCP", serveMCP);
  define("registerResourceTools", registerResourceTools);
  define("registerPageResource", registerPageResource);
  define("connectFrame", connectFrame);
  // Reading ready is consumer contact too: an agent harness (Puppeteer,
  // Playwright, the DevTools protocol) awaits a Promise without calling its then.
  Object.defineProperty(mc, "ready", {
    configurable: true,
    enumerable: false,
    get() {
      if (!bootStarted) wake("ready was read");
      return ready;
    },
  });
  define("changesSince", changesSince);
  Object.defineProperty(mc, "revision", { configurable: true, enumerable: false, get: () => pageRevision.value });
  // The installed copy's members that reading through document.modelContext
  // would start, and its check of a binding's descriptor: the ES module
  // takes them from here (jsbuild).
  define(INSTALLED, { ready, check: checkResource });
  if (!doc) {
    // No document (server rendering, Node.js): producers validate and register
    // nowhere, consumers fail with this, and ready is rejected (handled above).
    bootStarted = true;
    const err = new Error("modelcontext: there is no document here (server-side rendering, or Node.js without a DOM), so no agent can read resources: registerResource does nothing, and consumers work in a browser, or under jsdom or happy-dom");
    fail(err);
    rejectReady(err);
  } else {
    if (script && script.hasAttribute("data-tools") && typeof mc.registerTool === "function") registerResourceTools();
    if (script && script.hasAttribute("data-declarative")) watchMarkup((script.getAttribute("data-declarative") || "").trim());
    if (script && script.hasAttribute("data-page-resource")) registerPageResource({ uri: script.getAttribute("data-page-resource") || undefined });
    if (script && (script.hasAttribute("data-mcp") || script.hasAttribute("data-mcp-parent"))) awaitMessages(script.getAttribute("data-mcp") || DEFAULT_CHANNEL, undefined, tagParent());
    if (bootMode === "eager") wake('data-boot="eager"');
    else if (bootMode === "idle") whenIdle(() => wake("idle time after the load event"));
    else if (debugOn()) debugLine("waiting for an agent: the WebAssembly module starts at the first consumer call, event listener, await of ready or MCP message");
  }
}

/**
 * whenIdle calls f in an idle period after the load event (or soon after
 * it, where the browser has no requestIdleCallback).
 * @param {() => void} f
 */
function whenIdle(f) {
  const idle = () => (typeof requestIdleCallback === "function" ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 0));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
