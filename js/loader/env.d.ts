// What the loader's modules use that jsbuild provides around them (see
// wasm/cmd/jsbuild): for type-checking the loader with tsc. The constants
// from Go come from the file `jsbuild -constants` writes; esbuild injects
// them, loadRuntime and goClass where a module names them (the MSG_
// phrases of registerResource's messages, registry.Messages, it writes in
// as strings).

/** The .wasm beside the ES module; "" in the classic script. */
declare const moduleWasmURL: string;
/** The file name of the classic script's runtime (modelcontext-runtime.js). */
declare const RUNTIME_FILE: string;
/** The symbol that marks document.modelContext as installed. */
declare const INSTALLED: symbol;
/** Go's wasm_exec.js runtime, as much of it as the loader uses. */
interface GoRuntime {
  importObject: WebAssembly.Imports & Record<string, any>;
  exited: boolean;
  run(instance: WebAssembly.Instance): Promise<void>;
}
/**
 * goClass runs Go's wasm_exec.js, the first time, against an object of its
 * own rather than the page's globalThis, and returns the Go class it defines.
 */
declare function goClass(): { new (): GoRuntime; prototype: GoRuntime };
/**
 * loadRuntime loads the runtime (js/loader/runtime), once: the classic
 * script imports modelcontext-runtime.js from beside itself and links it to
 * the stub; the ES module has it in the same bundle.
 */
declare function loadRuntime(): Promise<void>;
