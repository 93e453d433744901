// What the loader's files use that jsbuild puts around them (see
// wasm/cmd/jsbuild): for type-checking the loader with tsc. The constants
// from Go come from the file `jsbuild -constants` writes.

/** The .wasm beside the ES module; "" in the classic script. */
declare const moduleWasmURL: string;
/** The file name of the classic script's runtime (modelcontext-runtime.js). */
declare const RUNTIME_FILE: string;
/** The symbol that marks document.modelContext as installed. */
declare const INSTALLED: symbol;
/** Go's wasm_exec.js runtime, as much of it as the loader uses. */
declare class Go {
  importObject: WebAssembly.Imports & Record<string, any>;
  exited: boolean;
  run(instance: WebAssembly.Instance): Promise<void>;
}
/**
 * loadRuntime loads the runtime (js/loader/runtime), once: the classic
 * script imports modelcontext-runtime.js from beside itself, the ES module
 * has it inline. Its functions are then in the stub's scope.
 */
declare function loadRuntime(): Promise<void>;
