// Starts testdata/bench/bare (built by wasm/cmd/bench as /bench/bare.wasm) the
// way js/loader.js starts the module: fetch, check the Content-Type,
// instantiateStreaming, go.run. window.bare.ready resolves when the Go
// program calls globalThis.bareReady.
(() => {
  'use strict';
  let resolve;
  const started = new Promise((r) => { resolve = r; });
  globalThis.bareReady = () => resolve();
  const ready = (async () => {
    const response = await fetch('/bench/bare.wasm');
    if (!response.ok) throw new Error('bare.wasm: HTTP ' + response.status);
    if ((response.headers.get('Content-Type') || '').split(';')[0].trim() !== 'application/wasm') {
      throw new Error('bare.wasm is not served as application/wasm');
    }
    const go = new Go();
    const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
    go.run(instance); // runs main until it blocks; main calls bareReady
    await started;
  })();
  window.bare = { ready };
})();
