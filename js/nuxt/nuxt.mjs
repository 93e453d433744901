// modelcontext/nuxt: the Nuxt module (js/FRAMEWORKS.md#nuxt). One line of
// nuxt.config, modules: ["modelcontext/nuxt"], and what Nuxt needs is done:
//
// - nuxt dev: Vite's dependency pre-bundler would copy the package into
//   node_modules/.cache/vite/, away from its .wasm (a 404 at the first
//   consumer call), so the package is left out of pre-bundling;
// - nuxt build: Nuxt turns every asset of a page's chunks into a
//   <link rel="prefetch">, so every visit would download the .wasm that the
//   module fetches only when an agent asks; its hints are taken out of the
//   manifest the renderer reads;
// - the .wasm is served compressed (brotli and gzip, written beside it when
//   nitro.compressPublicAssets has not compressed the public files already).
//
// Build-time code, run by Nuxt in Node.js; nothing of it reaches a page.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

// The package's entries, none pre-bundled: one copy of the module, beside
// its .wasm.
const ENTRIES = ["modelcontext", "modelcontext/vue", "modelcontext/react"];

// The module's .wasm in a bundler's manifest: its source path.
const MODULE_WASM = /(^|\/)modelcontext\/modelcontext\.wasm$/;

/**
 * @param {Record<string, unknown>} _options
 * @param {any} nuxt
 */
export default function modelcontext(_options, nuxt) {
  const vite = (nuxt.options.vite ||= {});
  const optimizeDeps = (vite.optimizeDeps ||= {});
  optimizeDeps.exclude = [...(optimizeDeps.exclude || []), ...ENTRIES.filter((e) => !optimizeDeps.exclude?.includes(e))];

  /** @type {Set<string>} the emitted .wasm files, relative to buildAssetsDir */
  const emitted = new Set();
  nuxt.hook("build:manifest", (/** @type {Record<string, any>} */ manifest) => {
    for (const [key, entry] of Object.entries(manifest)) {
      if (MODULE_WASM.test(entry.src || key) && entry.file) emitted.add(entry.file);
    }
    for (const entry of Object.values(manifest)) {
      if (emitted.has(entry.file)) entry.prefetch = entry.preload = false;
      if (Array.isArray(entry.assets)) entry.assets = entry.assets.filter((/** @type {string} */ a) => !emitted.has(a));
    }
  });

  nuxt.hook("nitro:build:public-assets", async (/** @type {any} */ nitro) => {
    const dir = join(nitro.options.output.publicDir, nuxt.options.app.buildAssetsDir);
    for (const file of emitted) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      const bytes = await readFile(path);
      const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
      if (!existsSync(path + ".br")) await writeFile(path + ".br", await promisify(zlib.brotliCompress)(bytes, { params }));
      if (!existsSync(path + ".gz")) await writeFile(path + ".gz", await promisify(zlib.gzip)(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }));
    }
  });
}

// What Nuxt names the module in its logs.
modelcontext.getMeta = () => Promise.resolve({ name: "modelcontext/nuxt" });
