// The workloads of wasm/cmd/bench, run the same way on every implementation
// of document.modelContext that bench.html loads (?impl=ours|ref), plus the
// Go floor (?impl=bare) and the module's crossings between Go and JavaScript (?impl=floor).
//
// The bench calls, through the DevTools protocol:
//   Bench.ready                 a Promise of performance.now() when the
//                               implementation's `ready` resolved
//   Bench.timing()              that time and the resource timings behind it
//   Bench.setup(set)            registers the resources of a workload set:
//                               "main" (a few resources) or "list" (1,000)
//   Bench.run(workload, ops)    runs one timed batch of ops operations and
//                               returns {ms, ops}; it throws if the
//                               implementation did not do what was asked
//                               (a push not delivered, a wrong list length).
//                               The workload "noop" does nothing: the bench
//                               measures what a batch costs beyond its work.
//
// Values are built once, outside the timed loops. A push alternates between
// two pre-built values that differ in one field, so that no push is
// suppressed; the toggle lives across batches.
(() => {
  'use strict';

  const impl = new URLSearchParams(location.search).get('impl');
  const B = (window.Bench = { impl, readyAt: null, error: null });

  const started = impl === 'bare' ? window.bare.ready : impl === 'floor' ? window.floor.ready : document.modelContext.ready;
  B.ready = Promise.resolve(started).then(
    () => (B.readyAt = performance.now()),
    (e) => {
      B.error = String(e && e.message ? e.message : e);
      throw e;
    });

  // timing says where the time until `ready` went: navigation, the script
  // tag(s) (scriptsRan: how long they ran once downloaded), the .wasm
  // download (streaming compilation overlaps it).
  B.timing = () => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    const pick = (suffix) => {
      const e = res.find((r) => r.name.endsWith(suffix));
      return e ? { start: e.startTime, responseEnd: e.responseEnd, bytes: e.encodedBodySize } : null;
    };
    // The implementation's scripts ran from when the last of them arrived
    // (or the parser reached them) until benchScriptsEnd.
    let arrived = window.benchScriptsStart;
    for (const src of window.benchScripts) {
      const e = res.find((r) => new URL(r.name).pathname === src);
      if (e) arrived = Math.max(arrived, e.responseEnd);
    }
    return {
      ready: B.readyAt,
      scriptsRan: window.benchScriptsEnd - arrived,
      scriptsEnd: window.benchScriptsEnd,
      responseEnd: nav ? nav.responseEnd : null,
      domInteractive: nav ? nav.domInteractive : null,
      script: pick(impl === 'bare' ? '/bench/wasm_exec.js' : '/modelcontext.js'),
      wasm: impl === 'ref' ? null : pick(impl === 'ours' ? '/modelcontext.wasm' : '/bench/bare.wasm'),
      visibility: document.visibilityState,
    };
  };

  // ---- Values ---------------------------------------------------------------

  // payload returns a cart-like object whose JSON is about `bytes` long.
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

  // pair returns two values of about `bytes` that differ in one field.
  function pair(bytes) {
    const a = bytes <= 100 ? { rev: 0, route: '/cart', count: 3 } : payload(bytes, 0);
    const b = { ...a, rev: 1 };
    return [a, b];
  }

  // ---- Set-up ---------------------------------------------------------------

  const mc = impl === 'bare' || impl === 'floor' ? null : document.modelContext;
  const sources = {}; // workload → {a, b, cur, flip, onChange}
  let updated = 0; // resourceupdated events seen by the listener
  let handled = 0; // subscribeResource handler calls
  const onUpdated = (ev) => {
    if (ev.detail.value !== undefined) updated++;
  };
  let resourceCount = 0;
  // The resourcelistchanged listener of a "-heard" set: the events it
  // heard, and the length of the last list.
  let listening = false, heard = 0, heardLength = 0;
  const readValue = { rev: 0, route: '/cart', count: 3 };
  const sameValue = { rev: 0, route: '/cart', count: 3 };
  const cycleValue = { rev: 0 };
  const noTeardown = () => {};
  // The descriptor of the register + unregister cycle, built once.
  const cycleDesc = {
    uri: 'bench://cycle',
    name: 'cycle',
    title: 'Cycle',
    description: 'registered and unregistered by the bench',
    get: () => cycleValue,
    subscribe: () => noTeardown,
  };

  // The descriptor of the register, push once, unregister cycle: its
  // subscribe keeps onChange for the workload to call.
  let cyclePush = null;
  const pushedDesc = {
    uri: 'bench://cycle/pushed',
    name: 'cycle',
    title: 'Cycle',
    description: 'registered, pushed once and unregistered by the bench',
    get: () => cycleValue,
    subscribe: (onChange) => {
      cyclePush = onChange;
      return noTeardown;
    },
  };

  // source registers a resource whose value alternates between two values of
  // about `bytes` on each push.
  function source(key, uri, bytes) {
    const [a, b] = pair(bytes);
    const s = { a, b, cur: a, flip: 0, onChange: null, bytes: JSON.stringify(a).length };
    mc.registerResource({
      uri,
      name: key,
      description: 'bench value of about ' + bytes + ' bytes',
      get: () => s.cur,
      subscribe(onChange) {
        s.onChange = onChange;
        return noTeardown;
      },
    });
    sources[key] = s;
    return s;
  }

  B.setup = (set) => {
    if (impl === 'bare') return { crossing: typeof globalThis.bareNoop };
    if (impl === 'floor') return { exports: Object.keys(window.floor.exports).filter((k) => k.startsWith('floor_')) };
    // A set named "...-heard" is that set with a resourcelistchanged
    // listener, which reads the list each event carries.
    const base = set.endsWith('-heard') ? set.slice(0, -'-heard'.length) : set;
    if (base !== set) {
      listening = true;
      mc.addEventListener('resourcelistchanged', (ev) => {
        heard++;
        heardLength = ev.detail.resources.length;
      });
    }
    if (base === 'main') {
      source('small', 'bench://push/small', 40);
      source('10k', 'bench://push/10k', 10_000);
      source('100k', 'bench://push/100k', 100_000);
      source('handler', 'bench://push/handler', 40);
      mc.registerResource({
        uri: 'bench://push/same',
        name: 'same',
        get: () => sameValue,
        subscribe(onChange) {
          sources.same = { onChange };
          return noTeardown;
        },
      });
      mc.registerResource({ uri: 'bench://read/small', name: 'read', get: () => readValue });
      mc.subscribeResource('bench://push/handler', (v) => {
        if (v !== undefined) handled++;
      });
      // The first push of a resource always dispatches: set the baselines.
      for (const k of ['small', '10k', '100k', 'handler', 'same']) sources[k].onChange();
    } else if (base === 'list') {
      for (let i = 0; i < 1000; i++) {
        const d = {
          uri: 'bench://list/' + i,
          name: 'item' + i,
          description: 'resource ' + i + ' of the getResources workload',
          get: () => readValue,
        };
        if (i % 4 === 0) d.annotations = { audience: ['user', 'assistant'], priority: 0.5 };
        if (i % 2 === 0) d.title = 'Item ' + i;
        mc.registerResource(d);
      }
    } else if (base === 'frame') {
      // The same small value, as the page's own (impl "ours") or as the
      // resource of a frame that connectFrame lists (impl "framed").
      if (impl !== 'framed') {
        mc.registerResource({ uri: 'bench://frame/small', name: 'frame', get: () => readValue });
      } else {
        const iframe = document.createElement('iframe');
        iframe.src = '/bench/frame-child.html';
        document.body.appendChild(iframe);
        mc.connectFrame(iframe, { origin: location.origin });
        const listed = () => mc.getResources().some((r) => r.uri === 'bench://frame/small');
        return new Promise((resolve) => {
          const done = () => {
            if (!listed()) return;
            mc.removeEventListener('resourcelistchanged', done);
            resolve({ resources: mc.getResources().length });
          };
          mc.addEventListener('resourcelistchanged', done);
          done();
        });
      }
    } else {
      throw new Error('Bench.setup: unknown set ' + set);
    }
    resourceCount = mc.getResources().length;
    const sizes = {};
    for (const k of Object.keys(sources)) if (sources[k].bytes) sizes[k] = sources[k].bytes;
    return { resources: resourceCount, valueBytes: sizes };
  };

  // ---- Workloads ------------------------------------------------------------

  function check(ok, what) {
    if (!ok) throw new Error('Bench: ' + impl + ': ' + what);
  }

  // flips times ops pushes of source s, each switching it to its other value
  // first (so that none is suppressed).
  function flips(s, ops) {
    const t0 = performance.now();
    for (let i = 0; i < ops; i++) {
      s.flip ^= 1;
      s.cur = s.flip ? s.b : s.a;
      s.onChange();
    }
    return performance.now() - t0;
  }

  // push times ops pushes of source s that each dispatch one resourceupdated
  // to one listener.
  function push(s, ops) {
    mc.addEventListener('resourceupdated', onUpdated);
    const before = updated;
    const ms = flips(s, ops);
    mc.removeEventListener('resourceupdated', onUpdated);
    check(updated - before === ops, `${ops} pushes dispatched ${updated - before} events`);
    return ms;
  }

  const workloads = {
    'push-small': (ops) => push(sources.small, ops),
    'push-10k': (ops) => push(sources['10k'], ops),
    'push-100k': (ops) => push(sources['100k'], ops),
    // A push whose value did not change: nothing is dispatched.
    'push-suppressed': (ops) => {
      mc.addEventListener('resourceupdated', onUpdated);
      const before = updated;
      const onChange = sources.same.onChange;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) onChange();
      const ms = performance.now() - t0;
      mc.removeEventListener('resourceupdated', onUpdated);
      check(updated === before, `${updated - before} suppressed pushes were dispatched`);
      return ms;
    },
    // One push reaching one subscribeResource handler, no event listener
    // (the push workloads' listener was taken off: the module makes no
    // event then, the reference makes one that nobody hears).
    handler: (ops) => {
      const before = handled;
      const ms = flips(sources.handler, ops);
      check(handled - before === ops, `${ops} pushes reached the handler ${handled - before} times`);
      return ms;
    },
    // readResource of a small value, awaiting each read.
    'read-small': async (ops) => {
      let v;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) v = await mc.readResource('bench://read/small');
      const ms = performance.now() - t0;
      check(v === readValue, 'readResource did not give the value get returned');
      return ms;
    },
    // readResource of a small value that a frame serves (connectFrame: a
    // round trip through the frame), or the page's own (see setup "frame").
    'read-frame': async (ops) => {
      let v;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) v = await mc.readResource('bench://frame/small');
      const ms = performance.now() - t0;
      check(v !== undefined && v.count === readValue.count, 'readResource of bench://frame/small did not give its value');
      return ms;
    },
    'get-resources': (ops) => {
      let list;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) list = mc.getResources();
      const ms = performance.now() - t0;
      check(list.length === resourceCount, `getResources gave ${list.length} resources, want ${resourceCount}`);
      return ms;
    },
    // registerResource and its unregister (each fires resourcelistchanged).
    'register-cycle': (ops) => {
      const before = heard;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) mc.registerResource(cycleDesc)();
      const ms = performance.now() - t0;
      check(mc.getResources().length === resourceCount, 'the register cycle left resources behind');
      if (listening) {
        check(heard - before === 2 * ops, `${ops} cycles fired ${heard - before} resourcelistchanged events, want ${2 * ops}`);
        check(heardLength === resourceCount, `the last resourcelistchanged listed ${heardLength} resources, want ${resourceCount}`);
      }
      return ms;
    },
    // The same with one push in between, dispatched to one listener (a new
    // registration has no baseline).
    'register-push-cycle': (ops) => {
      mc.addEventListener('resourceupdated', onUpdated);
      const before = updated;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) {
        const unregister = mc.registerResource(pushedDesc);
        cyclePush();
        unregister();
      }
      const ms = performance.now() - t0;
      mc.removeEventListener('resourceupdated', onUpdated);
      check(updated - before === ops, `${ops} registrations pushed once dispatched ${updated - before} events`);
      check(mc.getResources().length === resourceCount, 'the register cycle left resources behind');
      return ms;
    },
    // Nothing: the bench subtracts what evaluating a batch costs the tab.
    noop: () => 0,
    // The crossings between Go and JavaScript (?impl=floor): entering Go through an empty
    // //go:wasmexport function; Go calling a JavaScript function that
    // returns its argument through a //go:wasmimport function, directly or
    // wrapped the way js/loader.js wraps its host functions (ops calls made
    // from one entry); and what both implementations pay for an event, a
    // CustomEvent dispatched to one listener.
    'floor-enter': (ops) => {
      const f = window.floor.exports.floor_enter;
      let s = 0;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) s += f(i);
      const ms = performance.now() - t0;
      check(s === (ops * (ops - 1)) / 2, 'floor_enter returned a wrong sum');
      return ms;
    },
    'floor-host-call': (ops) => hostCalls(ops, 0),
    'floor-host-call-wrapped': (ops) => hostCalls(ops, 1),
    'floor-event': (ops) => floorEvents(ops, (target) => {
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) target.dispatchEvent(new CustomEvent('resourceupdated', { detail: { uri: 'bench://floor', value: readValue } }));
      return performance.now() - t0;
    }),
    // The same events, each made in a call out of Go (floor.js's event).
    'floor-event-from-go': (ops) => floorEvents(ops, (target) => {
      window.floor.target = target;
      window.floor.value = readValue;
      return hostCalls(ops, 2);
    }),
    // One JavaScript-to-Go call of a js.FuncOf that does nothing.
    crossing: (ops) => {
      const f = globalThis.bareNoop;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) f();
      return performance.now() - t0;
    },
  };

  // floorEvents runs f(target) with a fresh target and one listener, and
  // checks that ops events reached it.
  function floorEvents(ops, f) {
    const target = new EventTarget();
    let seen = 0;
    target.addEventListener('resourceupdated', (ev) => {
      if (ev.detail.value !== undefined) seen++;
    });
    const ms = f(target);
    check(seen === ops, `${ops} events reached the listener ${seen} times`);
    return ms;
  }

  // hostCalls times ops calls out of Go (floor_calls: which 0 echo,
  // 1 echoWrapped, 2 event).
  function hostCalls(ops, which) {
    const t0 = performance.now();
    const s = window.floor.exports.floor_calls(ops, which);
    const ms = performance.now() - t0;
    check(s === (((ops * (ops - 1)) / 2) | 0), 'floor_calls returned ' + s + ' for ' + ops + ' calls');
    return ms;
  }

  B.run = async (name, ops) => {
    const w = workloads[name];
    if (!w) throw new Error('Bench.run: unknown workload ' + name);
    const ms = await w(ops);
    return { ms, ops };
  };
})();
