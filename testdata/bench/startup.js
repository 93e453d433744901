// The start-up phases of wasm/cmd/bench (-only startup), on
// startup.html?wasm=URL: what the page's main thread spends to compile,
// instantiate and start one .wasm, each phase measured on its own, so that a
// difference in `ready` can be told apart: a bigger module to compile, more
// to instantiate, or more for Go's runtime to do before main blocks.
//
// Every copy is compiled from bytes of its own (the .wasm with a custom
// section that numbers it appended), so that V8 cannot hand back a module it
// already compiled, and every phase but the one timed is done beforehand,
// in Bench.prepare, so that the bench's CPU time of a batch is that phase's.
// V8 compiles a module's functions lazily, on their first call: the run
// phase includes compiling what start-up calls, as a first visit does.
//
// The bench calls, as on bench.html:
//   Bench.ready                 a Promise that resolves once the bytes are here
//   Bench.setup('startup')      {bytes, imports}
//   Bench.prepare(phase, ops)   makes ops copies ready for the phase
//   Bench.run(phase, ops)       the phase, once per prepared copy:
//     'startup-compile'         new WebAssembly.Module(bytes), on the main
//                               thread (a page's load compiles while
//                               streaming, off it)
//     'startup-instantiate'     new WebAssembly.Instance(module, imports)
//     'startup-run'             go.run(instance) until main blocks (the bare
//                               program calls bareReady, the module the
//                               loader's ready; both then block)
// The module's other host functions are stubs here: starting it calls none.
(() => {
  'use strict';
  const url = new URLSearchParams(location.search).get('wasm');
  const B = (window.Bench = { impl: url, readyAt: null, error: null });
  let bytes = null;
  let imports = null; // WebAssembly.Module.imports of the .wasm
  let copies = 0;
  B.ready = (async () => {
    if (!url || !url.startsWith('/')) throw new Error('startup.html: ?wasm= must be a path on this server');
    const r = await fetch(url);
    if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
    bytes = new Uint8Array(await r.arrayBuffer());
    imports = WebAssembly.Module.imports(new WebAssembly.Module(bytes));
    return (B.readyAt = performance.now());
  })();

  // copy returns the .wasm with a custom section "copy" holding a number
  // appended: the same module, different bytes.
  function copy() {
    const payload = new TextEncoder().encode('copy' + ++copies);
    const name = new TextEncoder().encode('copy');
    const body = [name.length, ...name, ...payload];
    const out = new Uint8Array(bytes.length + 2 + body.length);
    out.set(bytes);
    out[bytes.length] = 0; // custom section
    out[bytes.length + 1] = body.length; // < 128: one LEB128 byte
    out.set(body, bytes.length + 2);
    return out;
  }

  // runtime returns a Go runtime and its import object, with every import
  // of the module that wasm_exec.js does not provide as a stub, except the
  // two ready signals, which set started.
  let started = false;
  function runtime() {
    const go = new Go();
    const obj = go.importObject;
    for (const imp of imports) {
      if (obj[imp.module] === undefined) obj[imp.module] = {};
      if (obj[imp.module][imp.name] === undefined && imp.kind === 'function') obj[imp.module][imp.name] = () => 0;
    }
    if (obj.modelcontext) obj.modelcontext.ready = () => { started = true; };
    globalThis.bareReady = () => { started = true; };
    return { go, obj };
  }

  function check(ok, what) {
    if (!ok) throw new Error('Bench (startup.html?wasm=' + url + '): ' + what);
  }

  let prepared = null; // {phase, copies}
  B.prepare = (phase, ops) => {
    const list = [];
    for (let i = 0; i < ops; i++) {
      const c = { bytes: copy() };
      if (phase !== 'startup-compile') {
        c.module = new WebAssembly.Module(c.bytes);
        Object.assign(c, runtime());
      }
      if (phase === 'startup-run') c.instance = new WebAssembly.Instance(c.module, c.obj);
      list.push(c);
    }
    prepared = { phase, list };
    return list.length;
  };

  const workloads = {
    noop: () => 0,
    'startup-compile': (list) => {
      const t0 = performance.now();
      for (const c of list) c.module = new WebAssembly.Module(c.bytes);
      const ms = performance.now() - t0;
      check(list.every((c) => WebAssembly.Module.exports(c.module).length > 0), 'a compiled module has no exports');
      return ms;
    },
    'startup-instantiate': (list) => {
      const t0 = performance.now();
      for (const c of list) c.instance = new WebAssembly.Instance(c.module, c.obj);
      const ms = performance.now() - t0;
      check(list.every((c) => c.instance.exports.mem !== undefined), 'an instance has no memory');
      return ms;
    },
    'startup-run': (list) => {
      let n = 0;
      const t0 = performance.now();
      for (const c of list) {
        started = false;
        c.go.run(c.instance); // runs main until it blocks
        if (started) n++;
      }
      const ms = performance.now() - t0;
      check(n === list.length, `${list.length - n} of ${list.length} runs did not signal ready`);
      return ms;
    },
  };

  B.setup = () => ({ bytes: bytes.length, imports: imports.length });
  B.run = async (name, ops) => {
    const w = workloads[name];
    if (!w) throw new Error('Bench.run: unknown workload ' + name);
    if (name === 'noop') return { ms: 0, ops };
    check(prepared && prepared.phase === name && prepared.list.length === ops, 'Bench.prepare(' + name + ', ' + ops + ') was not called');
    const list = prepared.list;
    prepared = null; // the copies go with this batch
    return { ms: w(list), ops };
  };
})();
