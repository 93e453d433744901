// The bridge tests' host module. `make test-wasm` appends this file to a copy
// of Go's wasm_exec.js that it hands wasmbrowsertest, so that the test binary
// is instantiated with a "modelcontext" import module, as the loader
// instantiates the real one, and the bridge's //go:wasmimport functions are
// the real ones. Each host function is a recording fake: it appends
// "name(args)" to bridgeHost.calls (strings decoded), answers what
// bridgeHost.answers says, and can be made to throw once; like the loader's
// wrapper, a throw is caught and reported to Go through the fault flag. The
// instance's exports (its memory, mc_buffer, mc_fault) are those of the
// WebAssembly.Instance handed to run, Go's public entry point.
(() => {
  "use strict";
  const Base = globalThis.Go;
  globalThis.Go = class extends Base {
    run(instance) {
      this.bridgeExports = instance.exports;
      return super.run(instance);
    }

    constructor() {
      super();
      const go = this;
      const text = (p, n) => new TextDecoder().decode(new Uint8Array(go.bridgeExports.mem.buffer, p, n));
      const h = {
        calls: [],
        answers: {}, // name → number to return (default 0)
        throwIn: "", // the next call of this function throws
        take() {
          const c = h.calls.join(" ");
          h.calls.length = 0;
          return c;
        },
      };
      globalThis.bridgeHost = h;
      // The host functions, with where their strings are among the
      // arguments: [pointer index] of each (pointer, length) pair.
      const strings = {
        error: [0], debug: [0],
        mcpOpen: [1, 3], mcpPost: [1, 3], mcpRead: [3], mcpComplete: [3, 5, 7], mcpForget: [1],
      };
      const names = ["dispatch", "deliver", "endSubscription", "release", "error", "debug", "ready", "mcpOpen", "mcpClose",
        "mcpPost", "mcpRead", "textBytes", "mcpComplete", "mcpForget", "revision"];
      const mod = {};
      for (const name of names) {
        mod[name] = (...args) => {
          try {
            const shown = [];
            for (let i = 0; i < args.length; i++) {
              if ((strings[name] || []).includes(i)) {
                shown.push(text(args[i], args[i + 1]));
                i++;
              } else {
                shown.push(String(args[i]));
              }
            }
            h.calls.push(name + "(" + shown.join(",") + ")");
            if (h.throwIn === name) {
              h.throwIn = "";
              throw new Error("host " + name + " broke");
            }
            return h.answers[name] || 0;
          } catch (e) {
            new Int32Array(go.bridgeExports.mem.buffer, go.bridgeExports.mc_fault(), 1)[0] = 1;
            return 0;
          }
        };
      }
      this.importObject.modelcontext = mod;
    }
  };
})();
