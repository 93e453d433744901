// @ts-check
// stub.js: what the test build adds to the loader, for tests and leak
// checks, never for pages. `jsbuild -test` bundles it with the stub, and
// calls installStubHooks after boot.js's install (and hooks.js with the
// runtime), and writes that build apart from dist/ (`make build-test`: .cache/testdist/,
// with the .wasm that has the exports only the hooks call); dist/ never
// holds it, and wasm/cmd/jsbuild's tests check that.
//
// document.modelContext[Symbol.for("modelcontext.internals")] then has:
//
//   stats()        live counts: Go's registrations, subscriptions and MCP
//                  sessions; the loader's registrations, handlers, held
//                  values and MCP servers; the Go runtime's calls into
//                  syscall/js (goJSCalls, see hooks.js); the size of Go's
//                  memory (all 0 before the runtime is loaded)
//   exports        the module's raw exports (null before it runs), with
//                  the test build's own (mc_list, mc_stats: the test build
//                  runs its own .wasm, built with -tags modelcontext_test)
//   goExited       whether the Go runtime has exited
//   runtimeLoaded  whether the runtime (modelcontext-runtime.js) is loaded
//   inspecting     whether a DevTools hook listens (inspect.js)
//   breakHost(f)   makes the next call of host function f throw, as a bug
//                  in the loader would (once the runtime is loaded)
//   setCompleteTimeout(ms)  how long a completer may take before its MCP
//                  completion answers an error (5000 by default)
//   cacheDrift()   "" when the loader's cache of current registrations
//                  (table.js) holds what Go lists, in Go's order, else the
//                  first difference ("" before the module runs)
import { devtools } from "../loader/inspect.js";
import { define } from "../loader/page.js";

/** @type {any} the runtime's side (hooks.js), once the runtime is loaded */
let runtimeHooks = null;

/** @param {any} h */
export function setRuntimeHooks(h) {
  runtimeHooks = h;
}

// installStubHooks puts the hooks on document.modelContext (the test
// build's entry calls it after boot.js's install).
export function installStubHooks() {
  define(Symbol.for("modelcontext.internals"), internals);
}

const internals = {
  stats() {
    if (runtimeHooks) return runtimeHooks.stats();
    return {
      registrations: 0, subscriptions: 0, loaderRegistrations: 0, loaderHandlers: 0, heldValues: 0,
      mcpServers: 0, mcpSessions: 0, goJSCalls: 0, goJSImports: 0, wasmMemoryBytes: 0,
    };
  },
  get exports() {
    return runtimeHooks ? runtimeHooks.exports : null;
  },
  get goExited() {
    return runtimeHooks ? runtimeHooks.goExited : false;
  },
  get runtimeLoaded() {
    return runtimeHooks !== null;
  },
  // whether a DevTools hook listens on the inspection channel (inspect.js)
  get inspecting() {
    return devtools.hook !== null;
  },
  cacheDrift() {
    return runtimeHooks ? runtimeHooks.cacheDrift() : "";
  },
  setCompleteTimeout(/** @type {number} */ ms) {
    if (!runtimeHooks) throw new Error("modelcontext test hooks: setCompleteTimeout before the runtime is loaded");
    runtimeHooks.setCompleteTimeout(ms);
  },
  breakHost(/** @type {string} */ name) {
    if (!runtimeHooks) throw new Error("modelcontext test hooks: breakHost before the runtime is loaded");
    runtimeHooks.breakHost(name);
  },
};
