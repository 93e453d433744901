// Types for modelcontext/nuxt: the Nuxt module. In nuxt.config:
// modules: ["modelcontext/nuxt"]. It takes no options.

/** Leaves the package out of Vite's pre-bundling, keeps its .wasm out of prefetch and preload hints, and serves it compressed. */
declare function modelcontext(options: Record<string, never>, nuxt: unknown): void;
declare namespace modelcontext {
  function getMeta(): Promise<{ name: string }>;
}
export default modelcontext;
