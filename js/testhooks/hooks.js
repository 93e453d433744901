// @ts-check
// hooks.js: the runtime's side of the test hooks (stub.js has the other):
// `jsbuild -test` bundles it with the runtime, which calls installHooks when
// it is loaded. It hands stub.js what
// document.modelContext[Symbol.for("modelcontext.internals")] reads then.
import { setCompleteTimeout } from "../loader/runtime/complete.js";
import { freeVals, vals } from "../loader/runtime/handles.js";
import { handlers, host, internal } from "../loader/runtime/host.js";
import { inListOrder, regs } from "../loader/runtime/lookup.js";
import { mcpServers } from "../loader/runtime/server.js";
import { ex, go } from "../loader/runtime/start.js";
import { isReady } from "../loader/api.js";
import { resources, templates } from "../loader/table.js";
import { setRuntimeHooks } from "./stub.js";

// The Go runtime's table of JavaScript references changes only through the
// "syscall/js.*" functions of its import object (each one that hands Go a
// value, and finalizeRef, which frees one). The module imports no syscall/js,
// so a test can hold it to "no new references" by counting those calls, at
// the level of the import object the loader instantiates the module with
// (go.importObject), without reading wasm_exec.js's private fields. Go's
// constructor assigns this.importObject; an accessor on Go.prototype wraps
// each syscall/js function as it is assigned. goJSImports counts the
// functions wrapped, so that a test can tell "no calls" from "nothing to
// count" (a wasm_exec.js that names its imports otherwise).
let goJSCalls = 0;
let goJSImports = 0;

// installHooks wraps Go's import object and hands stub.js the hooks.
export function installHooks() {
  countGoJSCalls();
  setRuntimeHooks(hooks);
}

function countGoJSCalls() {
  const own = new WeakMap();
  Object.defineProperty(goClass().prototype, "importObject", {
    configurable: true,
    get() {
      return own.get(this);
    },
    set(/** @type {any} */ o) {
      const gojs = o && o.gojs;
      if (gojs) {
        for (const name of Object.keys(gojs)) {
          if (!name.startsWith("syscall/js.")) continue;
          const f = gojs[name];
          gojs[name] = (/** @type {number} */ sp) => {
            goJSCalls++;
            return f(sp);
          };
          goJSImports++;
        }
      }
      own.set(this, o);
    },
  });
}

/**
 * testEx is ex with the test build's own exports (wasm/bridge/testbuild.go,
 * built with -tags modelcontext_test into .cache/testdist/modelcontext.wasm),
 * which the module pages load lacks: only the hooks call them.
 * @returns {ModuleExports & TestModuleExports}
 */
function testEx() {
  return /** @type {ModuleExports & TestModuleExports} */ (ex);
}

const hooks = {
  cacheDrift() {
    if (!ex || !isReady()) return "";
    for (const t of [resources, templates]) {
      const what = t === templates ? "templates" : "resources";
      const p = internal(testEx().mc_list(t === templates ? 1 : 0));
      const ids = Array.from(new Int32Array(ex.mem.buffer, p + 4, new Int32Array(ex.mem.buffer, p, 1)[0]));
      if (ids.length !== t.size) return `Go lists ${ids.length} ${what} [${ids}], the loader's cache holds ${t.size}`;
      let i = 0;
      for (const r of inListOrder(t)) {
        const key = r.key;
        if (t.get(key) !== r) return `${what} at ${i}: the cache holds ID ${r.id} under another key than "${key}"`;
        if (r.id !== ids[i]) return `${what} at ${i}: Go lists ID ${ids[i]}, the loader's cache holds ID ${r.id} ("${key}")`;
        if (!r.current || r.key !== key || regs.get(r.id) !== r) return `${what} at ${i}: the cache's registration ${r.id} ("${key}") is not current, or not in regs`;
        i++;
      }
    }
    if (regs.size !== resources.size + templates.size) return `regs holds ${regs.size} registrations, the cache ${resources.size + templates.size}`;
    return "";
  },
  stats() {
    return {
      registrations: ex ? testEx().mc_stats(0) : 0,
      subscriptions: ex ? testEx().mc_stats(1) : 0,
      loaderRegistrations: regs.size,
      loaderHandlers: handlers.size,
      heldValues: vals.length - 1 - freeVals.length,
      mcpServers: mcpServers.size,
      mcpSessions: ex ? testEx().mc_stats(2) : 0,
      goJSCalls,
      goJSImports,
      wasmMemoryBytes: ex ? ex.mem.buffer.byteLength : 0,
    };
  },
  get exports() {
    return ex;
  },
  get goExited() {
    return !!(go && go.exited);
  },
  setCompleteTimeout(/** @type {number} */ ms) {
    setCompleteTimeout(ms);
  },
  breakHost(/** @type {string} */ name) {
    const h = /** @type {Record<string, Function>} */ (/** @type {unknown} */ (host));
    const f = h[name];
    h[name] = () => {
      h[name] = f;
      throw new Error("broken by the test");
    };
  },
};
