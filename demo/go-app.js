// go-app.js — starts the page's Go app, the delivery estimate in the checkout
// (wasm/cmd/delivery, built by make demo-app into dist/delivery.wasm), with
// Go's own wasm_exec.js, which index.html loads just before this script. The
// app registers state://delivery on document.modelContext itself; this
// script only runs it, and says so in the card if it cannot.
//
// /static/go-apps.json lists the Go apps the build has: the Cloudflare
// Worker build (make edge) leaves this one out, to stay under the free
// plan's 3 MB.
(function () {
  'use strict';

  const box = document.querySelector('#delivery');
  function say(state, text) {
    if (!box) return;
    box.dataset.state = state;
    box.querySelector('.delivery-text').textContent = text;
  }
  if (typeof Go !== 'function') {
    say('error', 'The Go app did not start: /static/wasm_exec.js did not load (run make demo-app).');
    return;
  }
  fetch('/static/go-apps.json')
    .then((r) => (r.ok ? r.json() : []))
    .then((apps) => {
      if (!Array.isArray(apps) || !apps.includes('delivery')) {
        say('absent', 'This build of the demo leaves the Go app out (make demo runs it).');
        return;
      }
      const go = new Go();
      return WebAssembly.instantiateStreaming(fetch('/static/delivery.wasm'), go.importObject).then(({ instance }) => go.run(instance));
    })
    .catch((err) => say('error', `The Go app did not start: ${err && err.message ? err.message : String(err)}`));
})();
