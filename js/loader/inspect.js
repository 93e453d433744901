// @ts-check
// inspect.js: the inspection channel that DevTools' Model Context panel
// (js/extension/panel.js) listens on. It costs nothing when no one listens:
// once the module runs, runtime/observe.js swaps in the functions that note
// what pushes reach only while a hook listens, and the other places that
// decide something the panel shows (a registration, a read, an MCP message,
// a tool's call) check devtools.hook against null and make no object when it
// is null. A listener is a hook object with an emit(type, fields) method, found
// once as globalThis.__MODELCONTEXT_DEVTOOLS_HOOK__ when this script runs
// (the panel's "Record from load" injects it before the page's scripts), or
// handed over later to document.modelContext[Symbol.for("modelcontext.inspect")]
// (attaching to a running page), which answers what is there now.
import { bootStarted } from "./boot.js";
import { frameOf } from "./runtime/frameclient.js";
import { observe } from "./runtime/observe.js";
import { FAILED, READY, failure, state } from "./api.js";
import { bootMode, debugAttr, debugOn, define, mc } from "./page.js";
import { list, resources, templates } from "./table.js";
import { removeResourceTools } from "./tools.js";
import { describe, quietError } from "./values.js";

/**
 * devtools holds the hook that listens, or null; why is what started the
 * module (wake's reason), for the panel's boot state; by is who reads while
 * the module itself reads for someone (a tool), "" otherwise.
 * @type {{hook: null | {emit: (type: string, fields: any) => void}, why: string, by: string}}
 */
export const devtools = { hook: null, why: "", by: "" };

/**
 * inspectAttach makes hook the listener (null detaches) and returns what
 * the panel lists at once: the resources and templates as listed, the boot
 * state and the debug switch. Listing here starts nothing: it is not a
 * consumer contact (wasm/CONTRACT.md §2.1).
 * @param {any} hook
 */
function inspectAttach(hook) {
  if (hook !== null && (typeof hook !== "object" || typeof hook.emit !== "function")) {
    throw new TypeError("modelcontext: the inspection hook must be an object with an emit(type, fields) method, or null to detach");
  }
  devtools.hook = hook;
  // The running module notes what pushes reach only while a hook listens.
  if (state === READY) observe(hook !== null);
  return inspectSnapshot();
}

function inspectSnapshot() {
  return {
    resources: list(resources),
    templates: list(templates),
    // Which frame each of a connected frame's resources comes from.
    frames: [...resources.values(), ...templates.values()].filter((r) => r.id >= FRAME_ID_BASE).map((r) => Object.assign({ uri: r.key }, frameOf(r))),
    boot: {
      mode: bootMode,
      state: state === READY ? "booted" : state === FAILED ? "failed" : bootStarted ? "starting" : "waiting",
      why: devtools.why,
      error: failure ? describe(failure) : "",
    },
    debug: { on: debugOn() === 1, attribute: debugAttr, global: /** @type {any} */ (globalThis).__MODELCONTEXT_DEBUG__ === true },
    // The tool bridge: whether the page has registerTool (the browser's
    // WebMCP or a polyfill) and whether registerResourceTools' tools are on it.
    tools: { host: typeof mc.registerTool === "function", registered: removeResourceTools !== null },
  };
}

/**
 * inspectEmit hands an event to the hook. A hook that throws is detached
 * and reported once: the panel never breaks the page.
 * @param {string} type
 * @param {any} fields
 */
export function inspectEmit(type, fields) {
  const hook = devtools.hook;
  if (hook === null) return;
  try {
    hook.emit(type, fields);
  } catch (e) {
    devtools.hook = null; // the running module stops noting at its next push (runtime/observe.js)
    quietError("modelcontext: the DevTools inspection hook threw and was detached:", e);
  }
}

// installInspect opens the inspection channel, and attaches a hook the
// DevTools panel set before the script ran (boot.js's install).
export function installInspect() {
  define(Symbol.for("modelcontext.inspect"), inspectAttach);
  const found = /** @type {any} */ (globalThis).__MODELCONTEXT_DEVTOOLS_HOOK__;
  if (found && typeof found.emit === "function") {
    devtools.hook = found;
    inspectEmit("attach", inspectSnapshot());
  }
}
