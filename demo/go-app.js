// go-app.js — starts the page's Go app, the delivery estimate in the checkout
// (wasm/cmd/delivery, built by make build into dist/delivery.wasm), with Go's
// own wasm_exec.js, which index.html loads just before this script. The app
// registers state://delivery on document.modelContext itself; this script
// only runs it, and says so in the card if it cannot.
(function () {
  'use strict';

  const box = document.querySelector('#delivery');
  function unavailable(why) {
    if (!box) return;
    box.dataset.state = 'error';
    box.querySelector('.delivery-text').textContent = `The Go app did not start: ${why}`;
  }
  if (typeof Go !== 'function') {
    unavailable('/static/wasm_exec.js did not load (run make build).');
    return;
  }
  const go = new Go();
  WebAssembly.instantiateStreaming(fetch('/static/delivery.wasm'), go.importObject)
    .then(({ instance }) => go.run(instance))
    .catch((err) => unavailable(err && err.message ? err.message : String(err)));
})();
