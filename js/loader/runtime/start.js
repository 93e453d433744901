// @ts-check
// start.js: fetch, compile and start the Go runtime (boot.js's start calls
// boot once the runtime is loaded).
// ex is the module's exports once it is instantiated. Its type,
// ModuleExports, is generated from wasm/bridge's //go:wasmexport functions
// (jsbuild -constants), so that make check-loader fails a call with the
// wrong number of arguments.
/** @type {ModuleExports} */
let ex = /** @type {any} */ (null);

/** @type {any} the Go runtime (wasm_exec.js) */
let go = null;

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/**
 * boot compiles and starts the module from its response, or its bytes read
 * from disk (boot.js's start fetched it: page.js's fetchWasm). Its errors say
 * what to fix, naming the URL.
 * @param {Promise<Response | ArrayBufferView>} fetched
 */
async function boot(fetched) {
  const where = `the WebAssembly module "${wasmURL}"`;
  let response;
  try {
    response = await fetched;
  } catch (e) {
    if (describe(e).startsWith("modelcontext:")) throw e; // integrity.js's, which says what to fix
    throw new Error(`modelcontext: could not fetch ${where}: ${describe(e)} (a wrong URL, the network, or a Content-Security-Policy connect-src that does not allow it)`);
  }
  if (!ArrayBuffer.isView(response) && !response.ok) {
    throw new Error(`modelcontext: could not fetch ${where}: HTTP ${response.status} ${response.statusText}; ${wasmFix}`);
  }
  go = new Go();
  go.importObject.modelcontext = imports();
  const instance = await instantiate(response, where);
  ex = /** @type {ModuleExports} */ (/** @type {unknown} */ (instance.exports));
  const exited = go.run(instance); // runs main until it blocks: it calls host.ready
  if (!started) throw new Error(`modelcontext: ${where} did not start; was it built from this version of wasm/cmd/modelcontext?`);
  faultAddr = ex.mc_fault(); // exports may be called once main runs
  exited.then(() => {
    const err = new Error("modelcontext: the Go runtime exited; reload the page");
    fail(err);
    console.error(err.message);
  });
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
      throw new Error(`modelcontext: ${where} is missing: the server answered with an HTML page, as many servers do for a file they do not have; ${wasmFix}`);
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
