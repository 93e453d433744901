// bench.js: the timed rows of make bench-agent (wasm/cmd/agentsession), on
// bench.html. The driver calls, through the DevTools protocol:
//
//   Micro.setup()            registers the resources below; resolves with
//                            their sizes
//   Micro.push(arm, n)       n pushes of a ~10 KB value, each changing one
//                            field, of the arm's resource; returns ms
//   Micro.changes(kind, n)   n awaited changesSince calls; returns ms
//
// The push arms, three resources of the same page with the same two values
// (which differ in one field, so that no push is suppressed), all heard by
// one resourceupdated listener:
//
//   plain    no other consumer: the push rows of make bench
//   handler  one subscribeResource handler
//   patch    one subscribeResource handler with {patch: true}, which is
//            handed an RFC 6902 patch (checked: one replace)
//
// changesSince, with 1,000 more resources registered (1,003 in all):
//
//   recent   since the revision of 10 pushes ago (10 updated)
//   all      since 0 (every resource added)
(() => {
  'use strict';
  const mc = document.modelContext;
  const noTeardown = () => {};

  // payload is a cart-like value whose JSON is about `bytes` long (as
  // testdata/bench/bench.js builds its pushes).
  function payload(bytes, rev) {
    const items = [];
    const v = { rev, route: '/cart', user: { id: 42, name: 'Ada' }, items };
    const item = (i) => ({
      id: i,
      sku: 'SKU-' + (100000 + i),
      name: 'Item number ' + i,
      price: Math.round(((i * 7.31) % 100) * 100) / 100,
      qty: (i % 5) + 1,
      tags: ['tag' + (i % 7), 'tag' + (i % 11)],
    });
    const per = JSON.stringify(item(1000)).length + 1;
    const n = Math.max(0, Math.round((bytes - JSON.stringify(v).length) / per));
    for (let i = 0; i < n; i++) items.push(item(i));
    return v;
  }

  let updated = 0, handled = 0, patched = 0, badPatches = 0;
  const arms = {};
  function arm(name) {
    const a = payload(10_000, 0);
    const s = { a, b: { ...a, rev: 1 }, cur: a, flip: 0, onChange: null };
    mc.registerResource({
      uri: 'bench://agent/' + name,
      name,
      get: () => s.cur,
      subscribe(onChange) {
        s.onChange = onChange;
        return noTeardown;
      },
    });
    arms[name] = s;
    return s;
  }
  const list = [];
  let next = 0; // the next of them that changesSince's "recent" pushes

  window.Micro = {
    ready: mc.ready,
    setup() {
      mc.addEventListener('resourceupdated', () => updated++);
      for (const name of ['plain', 'handler', 'patch']) arm(name);
      for (let i = 0; i < 1000; i++) {
        const value = { i, on: false };
        const s = { value, onChange: null };
        mc.registerResource({
          uri: 'bench://agent/list/' + i,
          name: 'item' + i,
          description: 'resource ' + i + ' of the changesSince workload',
          get: () => s.value,
          subscribe(onChange) {
            s.onChange = onChange;
            return noTeardown;
          },
        });
        list.push(s);
      }
      // The first push of a resource always dispatches: set the baselines.
      for (const s of Object.values(arms)) s.onChange();
      // The subscribers come after it: the patch subscriber's first patch is
      // from that baseline.
      mc.subscribeResource('bench://agent/handler', () => handled++);
      mc.subscribeResource('bench://agent/patch', (v, uri, info) => {
        patched++;
        const p = info && info.patch;
        if (!p || p.length !== 1 || p[0].op !== 'replace' || p[0].path !== '/rev' || p[0].value !== v.rev) badPatches++;
      }, { patch: true });
      return { resources: mc.getResources().length, valueBytes: JSON.stringify(arms.plain.a).length };
    },
    push(name, n) {
      const s = arms[name];
      const before = [updated, handled, patched];
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        s.flip ^= 1;
        s.cur = s.flip ? s.b : s.a;
        s.onChange();
      }
      const ms = performance.now() - t0;
      const want = [n, name === 'handler' ? n : 0, name === 'patch' ? n : 0];
      const saw = [updated - before[0], handled - before[1], patched - before[2]];
      if (saw.join() !== want.join()) throw new Error(`Micro.push(${name}): events, handler calls, patch calls ${saw}, want ${want}`);
      if (badPatches) throw new Error(`Micro.push(${name}): ${badPatches} patches were not one replace of /rev`);
      return ms;
    },
    async changes(kind, n) {
      let since = 0;
      if (kind === 'recent') {
        for (let i = 0; i < 10; i++) {
          const s = list[next++ % list.length];
          s.value = { ...s.value, on: !s.value.on };
          s.onChange();
        }
        since = mc.revision - 10;
      }
      let c;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) c = await mc.changesSince(since);
      const ms = performance.now() - t0;
      const got = kind === 'recent' ? c.updated.length : c.added.length;
      const want = kind === 'recent' ? 10 : mc.getResources().length;
      if (got !== want) throw new Error(`Micro.changes(${kind}): ${got} uris, want ${want}`);
      return ms;
    },
  };
})();
