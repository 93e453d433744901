// The Worker's entry point: runs wasm/cmd/edge (build/app.wasm, built with
// GOOS=js GOARCH=wasm) for each request, with Go's own wasm_exec.js.
//
// github.com/syumai/workers reads `globalThis.context` once, while the Go
// program initialises, and puts its request handler on `context.binding`;
// the program then calls the import workers.ready. Initialisation runs
// synchronously inside go.run, so setting the global just before it and
// removing it just after hands each instance its own context, and
// overlapping requests never see one another's.
import "./build/wasm_exec.js";
import app from "./build/app.wasm";

// The Go side calls tryCatch(fn) to turn a thrown JavaScript error into a Go
// error.
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

async function start(env, ctx) {
  const go = new Go();
  const binding = {};
  let ready;
  const started = new Promise((resolve) => (ready = resolve));
  const instance = new WebAssembly.Instance(app, {
    ...go.importObject,
    workers: { ready: () => ready() },
  });
  globalThis.context = { env, ctx, binding };
  try {
    go.run(instance);
  } finally {
    delete globalThis.context;
  }
  await started;
  return { go, binding };
}

// One Go program serves every request of this isolate: wasm/cmd/edge
// handles each request completely within the call JavaScript makes for it
// (see whole in main.go), so no work of one request runs on behalf of
// another. A new program starts only if the last one exited or failed to
// start. Its context is the first request's: env is the same for every
// request, ctx (waitUntil) is not, so Go code must not use ctx.
let program = null; // a Promise of { go, binding }

async function running(env, ctx) {
  const p = program;
  if (p) {
    const current = await p.catch(() => null);
    if (current && !current.go.exited) return current;
    if (program !== p) return running(env, ctx); // another request restarted it meanwhile
  }
  program = start(env, ctx);
  return program;
}

export default {
  async fetch(request, env, ctx) {
    const { binding } = await running(env, ctx);
    return binding.handleRequest(request);
  },
};
