// Starts testdata/bench/floor (built by wasm/cmd/bench as /bench/floor.wasm)
// the way js/loader.js starts the module: fetch, instantiateStreaming with
// the host functions in the import object, go.run. window.floor.ready
// resolves when the Go program calls ready; window.floor.exports are its
// exports.
(() => {
  'use strict';
  let resolve;
  const started = new Promise((r) => { resolve = r; });
  const echo = (x) => x;
  // The way js/loader.js wraps every host function (its imports()).
  const wrap = (f) => function () {
    try {
      return f.apply(undefined, arguments);
    } catch (e) {
      console.error('floor: the host function threw:', e);
      return 0;
    }
  };
  // event is what bench.js's floor-event workload does, made from Go:
  // bench.js sets floor.target (with its listener) and floor.value.
  const floor = (window.floor = { exports: null, ready: null, target: null, value: null });
  const event = (x) => {
    floor.target.dispatchEvent(new CustomEvent('resourceupdated', { detail: { uri: 'bench://floor', value: floor.value } }));
    return x;
  };
  floor.ready = (async () => {
    const response = await fetch('/bench/floor.wasm');
    if (!response.ok) throw new Error('floor.wasm: HTTP ' + response.status);
    const go = new Go();
    go.importObject.floor = { ready: () => resolve(), echo, echoWrapped: wrap(echo), event };
    const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
    floor.exports = instance.exports;
    go.run(instance); // runs main until it blocks; main calls ready
    await started;
  })();
})();
