// Runs between the two script tags of load.js's twice=1: the module's first
// copy is loaded; this registers a resource the second copy must not lose.
(function () {
  'use strict';
  const mc = document.modelContext;
  window.__between = { sameObjectBefore: mc };
  mc.registerResource({ uri: 'test://between', name: 'between', get: () => 'kept' });
})();
