// @ts-check
// start.js: fetch, compile and start the Go runtime (boot.js's start calls
// boot once the runtime is loaded).
// ex is the module's exports once it is instantiated. Its type,
// ModuleExports, is generated from wasm/bridge's //go:wasmexport functions
// (jsbuild -constants), so that make check-loader fails a call with the
// wrong number of arguments.
import { imports, setFaultAddr, started } from "./host.js";
import { fail } from "../api.js";
import { wasmFix, wasmURL } from "../page.js";
import { describe } from "../values.js";
/** @type {ModuleExports} */
export let ex = /** @type {any} */ (null);

/** @type {any} the Go runtime (wasm_exec.js) */
export let go = null;

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/**
 * boot compiles and starts the module from its response, or its bytes read
 * from disk (boot.js's start fetched it: page.js's fetchWasm). Its errors say
 * what to fix, naming the URL.
 * @param {Promise<Response | ArrayBufferView>} fetched
 */
export async function boot(fetched) {
  const where = `the WebAssembly module "${wasmURL}"`;
  let response;
  try {
    response = await fetched;
  } catch (e) {
    if (describe(e).startsWith("modelcontext:")) throw e; // integrity.js's, which says what to fix
    throw new Error(`modelcontext: could not fetch ${where}: ${describe(e)} (a wrong URL, the network, or a Content-Security-Policy connect-src that does not allow it)`);
  }
  if (!ArrayBuffer.isView(response) && !response.ok) {
    throw new Error(`modelcontext: could not fetch ${where}: HTTP ${response.status} ${response.statusText}; ${wasmAdvice()}`);
  }
  go = new (goClass())();
  go.importObject.modelcontext = imports();
  const instance = await instantiate(response, where);
  ex = /** @type {ModuleExports} */ (/** @type {unknown} */ (instance.exports));
  const exited = go.run(instance); // runs main until it blocks: it calls host.ready
  if (!started) throw new Error(`modelcontext: ${where} did not start; was it built from this version of wasm/cmd/modelcontext?`);
  setFaultAddr(ex.mc_fault()); // exports may be called once main runs
  exited.then(() => {
    const err = new Error("modelcontext: the Go runtime exited; reload the page");
    fail(err);
    console.error(err.message);
  });
}

/**
 * wasmAdvice is the advice of an error about a .wasm that is not at wasmURL:
 * page.js's wasmFix where the tag or the page chose the URL; for the ES
 * module, what did: a bundler that emitted the file under a name of its own,
 * Vite's dependency pre-bundler that moved the module away from it, or
 * nothing (the module looked beside itself, where no bundler put the file),
 * with the fix of the framework the page shows (frameworkOf).
 */
function wasmAdvice() {
  if (wasmFix) return wasmFix;
  const path = new URL(wasmURL).pathname;
  const framework = frameworkOf();
  const on = framework ? ` (the page runs ${framework})` : "";
  const or = "or set globalThis.__MODELCONTEXT_WASM_URL__ before the module loads";
  if (/\/deps\/modelcontext\.wasm$/.test(path)) {
    const fix = framework === "Nuxt" ? `add "modelcontext/nuxt" to the modules of nuxt.config` : `add optimizeDeps: { exclude: ["modelcontext"] } to the Vite config`;
    return `Vite's dependency pre-bundler moved the module away from its .wasm${on}: ${fix}`;
  }
  if (!path.endsWith("/modelcontext.wasm")) return `your bundler emitted the module's .wasm as ${JSON.stringify(wasmURL)}${on}: serve that file with the rest of the build, ${or}`;
  /** @type {Record<string, string>} */
  const fixes = {
    Angular: `Angular's application builder (17.1 and later) emits it through the package's "es2020" export; with another builder, add {"glob": "modelcontext.wasm", "input": "node_modules/modelcontext", "output": "/"} to the build's "assets" in angular.json`,
    Nuxt: `add "modelcontext/nuxt" to the modules of nuxt.config`,
    "Next.js": "Next.js emits it when a component imports the package: import it, not a copy of its file",
    "Vite's dev server": "let Vite's server.fs.allow reach the package's folder",
  };
  const fix = fixes[Object.keys(fixes).find((k) => framework.startsWith(k)) || ""] || "copy node_modules/modelcontext/modelcontext.wasm there, beside the bundle (as esbuild needs)";
  return `no bundler emitted the module's .wasm, so the module looked for it beside itself${on}; ${fix}, ${or}`;
}

/**
 * frameworkOf names the framework the page shows, for wasmAdvice: Angular
 * (the ng-version attribute of its root), Nuxt (window.__NUXT__), Next.js
 * (__NEXT_DATA__, or its scripts under /_next/), Vite's dev server (its
 * /@vite/client); "" for none of them.
 */
function frameworkOf() {
  const g = /** @type {any} */ (globalThis);
  const ng = document.querySelector("[ng-version]");
  if (ng) return `Angular ${ng.getAttribute("ng-version")}`;
  if (g.__NUXT__ || document.getElementById("__NUXT_DATA__")) return "Nuxt";
  if (g.__NEXT_DATA__ || g.__next_f || document.querySelector('script[src*="/_next/"]')) return "Next.js";
  if (document.querySelector('script[src$="/@vite/client"]')) return "Vite's dev server";
  return "";
}

/**
 * instantiate compiles the module as it downloads when it is served as
 * application/wasm. Real WebAssembly under another type is compiled from its
 * bytes, with a warning; anything else is an error that says what the server
 * sent instead. Bytes read from disk are compiled as they are.
 * @param {Response | ArrayBufferView} response
 * @param {string} where
 */
async function instantiate(response, where) {
  if (ArrayBuffer.isView(response)) return compileBytes(response, where);
  const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
  try {
    if (type === "application/wasm") {
      try {
        return (await WebAssembly.instantiateStreaming(response, go.importObject)).instance;
      } catch (e) {
        // A Response of a DOM in Node.js (happy-dom's) is not the platform's,
        // which streaming compilation requires: compile its bytes instead.
        if (!(e instanceof TypeError) || response.bodyUsed) throw e;
        return (await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject)).instance;
      }
    }
    if (type === "text/html") {
      throw new Error(`modelcontext: ${where} is missing: the server answered with an HTML page, as many servers do for a file they do not have; ${wasmAdvice()}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!WASM_MAGIC.every((b, i) => bytes[i] === b)) {
      throw new Error(`modelcontext: ${where} is not a WebAssembly module (it was served as "${type || "no Content-Type"}"); check the URL, or set data-wasm on the script tag`);
    }
    console.warn(`modelcontext: ${where} was served as "${type || "no Content-Type"}", not application/wasm; it was compiled anyway, without streaming. Configure the server to send .wasm files as application/wasm.`);
    return (await WebAssembly.instantiate(bytes, go.importObject)).instance;
  } catch (e) {
    throw instantiateError(e, where);
  }
}

/**
 * compileBytes instantiates the module from its bytes.
 * @param {ArrayBufferView} bytes
 * @param {string} where
 */
async function compileBytes(bytes, where) {
  try {
    return (await WebAssembly.instantiate(/** @type {BufferSource} */ (bytes), go.importObject)).instance;
  } catch (e) {
    throw instantiateError(e, where);
  }
}

/**
 * instantiateError says what stopped the module from being instantiated.
 * @param {any} e
 * @param {string} where
 */
function instantiateError(e, where) {
  const why = describe(e);
  if (why.startsWith("modelcontext:")) return e;
  if (/Content Security Policy|unsafe-eval|CSP/i.test(why)) {
    return new Error(`modelcontext: the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src (${why})`);
  }
  return new Error(`modelcontext: could not instantiate ${where}: ${why}`);
}
