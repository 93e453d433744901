// @ts-check
// boot.js: fetch and start the Go runtime, then install the API.

/** @type {any} the module's exports */
let ex = null;
/** @type {any} the Go runtime (wasm_exec.js) */
let go = null;

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

// boot fetches, compiles and starts the module, then replays the calls made
// meanwhile. Its errors say what to fix, naming the URL.
async function boot() {
  if (wasmURL === "") {
    throw new Error(`modelcontext: cannot tell where modelcontext.wasm is: the script was loaded from "${scriptURL}", which no file can be beside; set data-wasm on the script tag, or globalThis.__MODELCONTEXT_WASM_URL__ before it loads`);
  }
  const where = `the WebAssembly module "${wasmURL}"`;
  if (new URL(wasmURL).protocol === "file:") {
    throw new Error(`modelcontext: ${where} cannot be loaded from a page opened as a file (file://); serve the page and its files over HTTP, for example with "python3 -m http.server" in their folder, and open http://localhost:8000/`);
  }
  let response;
  try {
    response = await (wasmResponse || fetch(wasmURL, { credentials: "same-origin" }));
  } catch (e) {
    throw new Error(`modelcontext: could not fetch ${where}: ${describe(e)} (a wrong URL, the network, or a Content-Security-Policy connect-src that does not allow it)`);
  }
  if (!response.ok) {
    throw new Error(`modelcontext: could not fetch ${where}: HTTP ${response.status} ${response.statusText}; ${wasmFix}`);
  }
  go = new Go();
  go.importObject.modelcontext = imports();
  const instance = await instantiate(response, where);
  ex = instance.exports;
  const exited = go.run(instance); // runs main until it blocks: it calls host.ready
  if (!started) throw new Error(`modelcontext: ${where} did not start; was it built from this version of wasm/cmd/modelcontext?`);
  faultAddr = ex.mc_fault(); // exports may be called once main runs
  exited.then(() => {
    const err = new Error("modelcontext: the Go runtime exited; reload the page");
    fail(err);
    console.error(err.message);
  });
  state = READY;
  replay();
  if (script && script.hasAttribute("data-mcp")) {
    const channel = script.getAttribute("data-mcp");
    /** @type {any} */
    const options = channel ? { channel } : {};
    if (script.hasAttribute("data-mcp-sessions")) options.sessions = true;
    serveMCP(options);
  }
  deliverEarlyMessages();
}

/**
 * instantiate compiles the module as it downloads when it is served as
 * application/wasm. Real WebAssembly under another type is compiled from its
 * bytes, with a warning; anything else is an error that says what the server
 * sent instead.
 * @param {Response} response
 * @param {string} where
 */
async function instantiate(response, where) {
  const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
  try {
    if (type === "application/wasm") return (await WebAssembly.instantiateStreaming(response, go.importObject)).instance;
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
    if (describe(e).startsWith("modelcontext:")) throw e;
    const why = describe(e);
    if (/Content Security Policy|unsafe-eval|CSP/i.test(why)) {
      throw new Error(`modelcontext: the page's Content-Security-Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src (${why})`);
    }
    throw new Error(`modelcontext: could not instantiate ${where}: ${why}`);
  }
}

/**
 * Ready is document.modelContext.ready: a Promise that starts the module
 * when it is awaited or its then, catch or finally is called (a consumer
 * waiting for the module is a consumer contact). What those return are
 * plain Promises.
 * @extends {Promise<void>}
 */
class Ready extends Promise {
  static get [Symbol.species]() {
    return Promise;
  }
  /**
   * @param {any} [onFulfilled]
   * @param {any} [onRejected]
   * @returns {Promise<any>}
   */
  then(onFulfilled, onRejected) {
    if (!bootStarted) wake("ready was awaited");
    return super.then(onFulfilled, onRejected);
  }
}
/** @type {(v: void) => void} */
let resolveReady = () => {};
/** @type {(e: Error) => void} */
let rejectReady = () => {};
const ready = new Ready((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// Marked handled without starting the module: a page that does not wait
// for ready sees no unhandled rejection (the failure is reported once, by
// wake).
Promise.prototype.then.call(ready, undefined, () => {});

/**
 * wake starts the module, once: at the first consumer contact of a lazy
 * boot (why says which, for the debug line), at once for an eager one, in
 * idle time for an idle one. Its failure is reported here, once.
 * @param {string} why
 */
function wake(why) {
  if (bootStarted) return;
  bootStarted = true;
  if (debugOn()) debugLine(`starting the WebAssembly module: ${why}`);
  boot().then(resolveReady, (err) => {
    fail(err);
    quietError(err.message);
    rejectReady(err);
  });
}

define("registerResource", registerResource);
define("getResources", getResources);
define("getResourceTemplates", getResourceTemplates);
define("readResource", readResource);
define("subscribeResource", subscribeResource);
define("serveMCP", serveMCP);
define("registerResourceTools", registerResourceTools);
define("registerPageResource", registerPageResource);
define("ready", ready);
define(INSTALLED, true);
if (script && script.hasAttribute("data-tools") && typeof mc.registerTool === "function") registerResourceTools();
if (script && script.hasAttribute("data-declarative")) watchMarkup((script.getAttribute("data-declarative") || "").trim());
if (script && script.hasAttribute("data-page-resource")) registerPageResource({ uri: script.getAttribute("data-page-resource") || undefined });
if (script && script.hasAttribute("data-mcp")) awaitMessages(script.getAttribute("data-mcp") || DEFAULT_CHANNEL);
if (bootMode === "eager") wake('data-boot="eager"');
else if (bootMode === "idle") whenIdle(() => wake("idle time after the load event"));
else if (debugOn()) debugLine("waiting for an agent: the WebAssembly module starts at the first consumer call, event listener, await of ready or MCP message");

/**
 * whenIdle calls f in an idle period after the load event (or soon after
 * it, where the browser has no requestIdleCallback).
 * @param {() => void} f
 */
function whenIdle(f) {
  const idle = () => (typeof requestIdleCallback === "function" ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 0));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
