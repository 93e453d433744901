// Runs synchronously right after the implementation's script tag (load.js's
// early=1), before the Go runtime can be ready, and records what the calls
// made then return. The test inspects window.__early after `ready`.
(function () {
  'use strict';
  const mc = document.modelContext;
  const r = { calls: [], events: [], handler: [], listChanges: [], subscribeCalls: 0 };
  window.__early = r;
  try {
    early(mc, r);
  } catch (e) {
    // Loading can fail before this script runs (the .wasm request may finish
    // first); then the first call throws the error `ready` rejected with.
    r.threw = e;
  }
})();

function early(mc, r) {
  'use strict';
  r.members = ['registerResource', 'getResources', 'readResource', 'subscribeResource']
    .map((m) => m + ':' + typeof mc[m]);
  r.readyIsPromise = mc.ready instanceof Promise;
  mc.addEventListener('resourcelistchanged', (ev) => {
    r.listChanges.push(ev.detail.resources.map((d) => d.uri));
  });
  mc.addEventListener('resourceupdated', (ev) => r.events.push([ev.detail.uri, ev.detail.value]));
  let onChange = null;
  let value = 'v1';
  r.unregisterB = null;
  const unregA = mc.registerResource({
    uri: 'early://a', name: 'a',
    get: () => value,
    subscribe: (cb) => { r.subscribeCalls++; onChange = cb; return () => { r.tornDown = true; }; },
  });
  r.unregisterAType = typeof unregA;
  const unregB = mc.registerResource({ uri: 'early://b', name: 'b', get: () => ({ b: true }) });
  r.listedBeforeReady = mc.getResources().map((d) => d.uri);
  r.subscribeCallsBeforeReady = r.subscribeCalls;
  r.listChangesBeforeReady = r.listChanges.length;
  r.unsubscribeType = typeof mc.subscribeResource('early://a', (v, u) => r.handler.push([u, v]));
  r.read = mc.readResource('early://b');
  r.read.catch(() => {}); // awaited by the test later; handled now, like a careful page
  r.readMissing = mc.readResource('early://missing');
  r.readMissing.catch(() => {});
  // The unregister of B works before ready: after replay only A remains.
  unregB();
  r.listedAfterUnregister = mc.getResources().map((d) => d.uri);
  r.push = (v) => { value = v; onChange(); };
  r.unregA = unregA;
}
