// Model-based test of wasm/CONTRACT.md §3–§4 (wasm/e2e/model_test.go).
//
// Three parts, all in this file:
//
//   Model      a small executable model of the contract: registrations in
//              list order, baselines as keys, consumer subscriptions, queued
//              asynchronous results. It predicts, for every operation, the
//              exact trace the page observes.
//   Driver     performs the same operation on the real document.modelContext
//              and records that trace: every get call, subscribe call,
//              teardown, resourceupdated event, subscribeResource handler call,
//              resourcelistchanged event, read outcome and console error or
//              warning, in the order they happen.
//   generator  a seeded random sequence of operations, chosen from the
//              model's state so that every operation is meaningful.
//
// Every value a getter returns (and every error it throws or rejects with)
// is a fresh object tagged with the number of the get call that made it, so
// "g12" in a trace names the very object the 12th get call returned: the
// model checks identity ("the very object get returned"), order and
// de-duplication at once.
//
// Trace entries:
//   get r<h> g<n>            the n-th get call, of registration h
//   subscribe r<h>           subscribe of registration h was called
//   teardown r<h>            its teardown ran
//   event <uri> g<n>         resourceupdated with the value of get call n
//   handler s<k> g<n>        subscribeResource handler k with that value
//   list <uri> <uri> …       resourcelistchanged, the list in its detail
//   read q<i> ok g<n> | rejected g<n> | notfound
//   subscribe s<k> notfound  subscribeResource threw NotFoundError
//   typeerror <field>        registerResource threw a TypeError naming field and uri
//   error <uri> / warn <uri> console.error / console.warn naming the uri
// Anything else the driver sees is recorded as a descriptive line that the
// model never predicts, so it shows up as a mismatch.
(function () {
  'use strict';

  // ---- Values -------------------------------------------------------------

  // Value specs: what a registration's state holds. Equal specs have equal
  // comparison keys; cycle and bigint have none (wasm/CONTRACT.md §3.1.4: fail
  // open).
  const VALUES = ['A', 'B', 'C', 'mapA', 'mapB', 'u8A', 'u8B', 'cycle', 'bigint'];
  const COMMON = ['A', 'B', 'A', 'B', 'C'];

  function keyOf(spec) {
    return spec === 'cycle' || spec === 'bigint' ? null : spec;
  }

  function makeValue(spec) {
    switch (spec) {
      case 'mapA': return new Map([['v', 'A']]);
      case 'mapB': return new Map([['v', 'B']]);
      case 'u8A': return Uint8Array.of(65);
      case 'u8B': return Uint8Array.of(66);
      case 'cycle': { const o = { v: 'cycle' }; o.self = o; return o; }
      case 'bigint': return { v: 1n };
      default: return { v: spec };
    }
  }

  // ---- The model ----------------------------------------------------------

  class Model {
    constructor() {
      this.regs = []; // every registration made, by handle h
      this.list = []; // the registered ones, in list order
      this.subs = []; // every subscribeResource made, by k (null: it threw)
      this.pending = []; // unsettled asynchronous get results
      this.gets = 0; // get calls so far
      this.out = []; // the trace the current operation must produce
      this.queue = []; // dispatches waiting for the one in progress
      this.dispatching = false;
    }

    current(uri) {
      return this.list.find((r) => r.uri === uri);
    }

    listText() {
      return 'list ' + this.list.map((r) => r.uri).join(' ');
    }

    snapshot() {
      return this.list.map((r) => [r.uri, r.name, r.title === undefined ? '-' : r.title, r.mimeType, r.subscribable].join('|'));
    }

    apply(o) {
      this[o.op](o);
    }

    register(o) {
      const r = {
        h: o.h, uri: o.uri, name: o.name, title: o.title, mimeType: o.mimeType || 'application/json',
        sub: o.sub, mode: o.mode, value: o.value,
        alive: true, subscribable: o.sub !== 'none', hasOnChange: o.sub !== 'none' && o.sub !== 'throws',
        seq: 0, handled: 0, hasKey: false, key: null,
      };
      this.regs[o.h] = r;
      const old = this.current(o.uri);
      if (old) {
        this.list[this.list.indexOf(old)] = r; // keeps its place
        this.retire(old);
      } else {
        this.list.push(r);
      }
      if (o.sub !== 'none') {
        this.out.push('subscribe r' + o.h);
        if (o.sub === 'throws') {
          r.subscribable = false;
          this.out.push('error ' + o.uri);
        }
        if (o.sub === 'noTeardown') this.out.push('warn ' + o.uri);
      }
      this.out.push(this.listText());
    }

    retire(r) {
      r.alive = false;
      if (r.sub === 'ok' || r.sub === 'teardownThrows') {
        this.out.push('teardown r' + r.h);
        if (r.sub === 'teardownThrows') this.out.push('error ' + r.uri);
      }
    }

    badRegister(o) {
      const c = validation.cases[o.c];
      this.out.push('typeerror ' + validation.prefix + c.want.replace('@', ` (uri "${o.uri}")`));
    }

    unregister(o) {
      const r = this.regs[o.h];
      if (!r.alive) return; // replaced or unregistered already: does nothing
      this.list.splice(this.list.indexOf(r), 1);
      for (const s of this.subs) if (s && s.uri === r.uri) s.active = false;
      this.retire(r);
      this.out.push(this.listText());
    }

    setMode(o) {
      this.regs[o.h].mode = o.mode;
    }

    onChange(o) {
      const r = this.regs[o.h];
      r.value = o.value;
      if (r.alive && r.hasOnChange) this.push(r);
    }

    push(r) {
      const seq = ++r.seq;
      const tok = ++this.gets;
      this.out.push(`get r${r.h} g${tok}`);
      if (r.mode === 'throw') this.out.push('error ' + r.uri);
      else if (r.mode === 'async') this.pending.push({ tok, r, seq, value: r.value });
      else this.settle(r, seq, r.value, tok);
    }

    settle(r, seq, value, tok) {
      if (!r.alive || seq < r.handled) return; // gone, or a newer push was handled
      r.handled = seq;
      const key = keyOf(value);
      if (key === null) {
        r.hasKey = false; // fail open, and drop the baseline
      } else if (r.hasKey && r.key === key) {
        return; // suppressed
      } else {
        r.hasKey = true;
        r.key = key;
      }
      this.dispatch(r.uri, tok);
    }

    dispatch(uri, tok) {
      if (this.dispatching) {
        this.queue.push([uri, tok]);
        return;
      }
      this.dispatching = true;
      this.deliver(uri, tok);
      while (this.queue.length) this.deliver(...this.queue.shift());
      this.dispatching = false;
    }

    deliver(uri, tok) {
      this.out.push(`event ${uri} g${tok}`);
      for (const s of this.subs) {
        if (!s || !s.active || s.uri !== uri) continue;
        this.out.push(`handler s${s.k} g${tok}`);
        if (s.kind === 'throw') this.out.push('error ' + uri);
        if (s.kind === 'reenter' && s.values.length) this.onChange({ h: s.target, value: s.values.shift() });
      }
    }

    resolve(o) {
      const i = this.pending.findIndex((p) => p.tok === o.tok);
      const p = this.pending.splice(i, 1)[0];
      if (p.read !== undefined) this.out.push(`read q${p.read} ok g${p.tok}`);
      else this.settle(p.r, p.seq, p.value, p.tok);
    }

    reject(o) {
      const i = this.pending.findIndex((p) => p.tok === o.tok);
      const p = this.pending.splice(i, 1)[0];
      if (p.read !== undefined) this.out.push(`read q${p.read} rejected g${p.tok}`);
      else if (p.r.alive) this.out.push('error ' + p.r.uri);
    }

    read(o) {
      const r = this.current(o.uri);
      if (!r) {
        this.out.push(`read q${o.q} notfound`);
        return;
      }
      const tok = ++this.gets;
      this.out.push(`get r${r.h} g${tok}`);
      if (r.mode === 'throw') this.out.push(`read q${o.q} rejected g${tok}`);
      else if (r.mode === 'async') this.pending.push({ tok, read: o.q });
      else this.out.push(`read q${o.q} ok g${tok}`);
    }

    subscribe(o) {
      if (!this.current(o.uri)) {
        this.subs[o.k] = null;
        this.out.push(`subscribe s${o.k} notfound`);
        return;
      }
      this.subs[o.k] = { k: o.k, uri: o.uri, kind: o.kind, target: o.target, values: (o.values || []).slice(), active: true };
    }

    unsubscribe(o) {
      const s = this.subs[o.k];
      if (s) s.active = false;
    }
  }

  // ---- The driver ---------------------------------------------------------

  let active = null; // the Driver of the sequence running now
  const URI_IN_TEXT = /"(m\d+:\/\/[^"]*)"/;

  function text(a) {
    try {
      return a instanceof Error || a instanceof DOMException ? a.name + ': ' + a.message : String(a);
    } catch (_) {
      return '<unprintable>';
    }
  }

  function consoleEntry(level, args) {
    const t = args.length ? text(args[0]) : '';
    const m = URI_IN_TEXT.exec(t);
    return m ? `${level} ${m[1]}` : `${level} (naming no uri of the sequence) ${t}`;
  }

  // While a sequence runs, console errors and warnings go to its trace only:
  // passing thousands of them on to DevTools (which records a stack trace
  // for each) would take most of the test's time.
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = function (...args) {
      if (!active) return original.apply(this, args);
      active.out.push(consoleEntry(level, args));
    };
  }

  function listened() {
    const mc = document.modelContext;
    mc.addEventListener('resourceupdated', (ev) => {
      if (!active || typeof ev.detail.uri !== 'string' || !ev.detail.uri.startsWith(active.prefix)) return;
      active.out.push(`event ${ev.detail.uri} ${active.tok(ev.detail.value)}`);
    });
    mc.addEventListener('resourcelistchanged', (ev) => {
      if (!active) return;
      active.out.push('list ' + ev.detail.resources.map((d) => d.uri).filter((u) => u.startsWith(active.prefix)).join(' '));
    });
    window.addEventListener('error', (ev) => {
      if (active) active.out.push('uncaught ' + text(ev.error !== undefined ? ev.error : ev.message));
    });
    window.addEventListener('unhandledrejection', (ev) => {
      if (active) active.out.push('unhandled rejection ' + text(ev.reason));
    });
  }

  class Driver {
    constructor(mc, prefix) {
      this.mc = mc;
      this.prefix = prefix;
      this.out = [];
      this.gets = 0;
      this.tokens = new Map(); // value or error → number of the get call that made it
      this.regs = []; // h → {mode, value, onChange, unregister}
      this.subs = []; // k → unsubscribe
      this.deferreds = new Map(); // get call number → {resolve, reject, value}
    }

    tok(v) {
      if ((typeof v === 'object' && v !== null) && this.tokens.has(v)) return 'g' + this.tokens.get(v);
      return 'unknown-value(' + text(v) + ')';
    }

    apply(o) {
      try {
        this[o.op](o);
      } catch (e) {
        this.out.push(`${o.op} threw ${text(e)}`);
      }
    }

    get(h) {
      const st = this.regs[h];
      const tok = ++this.gets;
      this.out.push(`get r${h} g${tok}`);
      if (st.mode === 'throw') {
        const e = new Error('get failed (g' + tok + ')');
        this.tokens.set(e, tok);
        throw e;
      }
      const v = makeValue(st.value);
      this.tokens.set(v, tok);
      if (st.mode !== 'async') return v;
      return new Promise((resolve, reject) => this.deferreds.set(tok, { resolve, reject, value: v }));
    }

    register(o) {
      const st = { mode: o.mode, value: o.value, onChange: null, unregister: null };
      this.regs[o.h] = st;
      const d = { uri: o.uri, name: o.name, get: () => this.get(o.h) };
      if (o.title !== undefined) d.title = o.title;
      if (o.mimeType !== undefined) d.mimeType = o.mimeType;
      if (o.sub !== 'none') {
        d.subscribe = (onChange) => {
          this.out.push('subscribe r' + o.h);
          if (o.sub === 'throws') throw new Error('subscribe failed');
          st.onChange = onChange;
          if (o.sub === 'noTeardown') return undefined;
          return () => {
            this.out.push('teardown r' + o.h);
            if (o.sub === 'teardownThrows') throw new Error('teardown failed');
          };
        };
      }
      st.unregister = this.mc.registerResource(d);
    }

    badRegister(o) {
      const c = validation.cases[o.c];
      const d = new Function('U', 'G', 'return (' + c.desc + ');')(o.uri, () => 1);
      try {
        this.mc.registerResource(d);
        this.out.push('badRegister accepted an invalid descriptor: ' + c.desc);
      } catch (e) {
        this.out.push(e instanceof TypeError ? 'typeerror ' + e.message : 'badRegister threw ' + text(e));
      }
    }

    unregister(o) {
      this.regs[o.h].unregister();
    }

    setMode(o) {
      this.regs[o.h].mode = o.mode;
    }

    onChange(o) {
      const st = this.regs[o.h];
      st.value = o.value;
      st.onChange();
    }

    resolve(o) {
      const d = this.deferreds.get(o.tok);
      this.deferreds.delete(o.tok);
      d.resolve(d.value);
    }

    reject(o) {
      const d = this.deferreds.get(o.tok);
      this.deferreds.delete(o.tok);
      const e = new Error('rejected (g' + o.tok + ')');
      this.tokens.set(e, o.tok);
      d.reject(e);
    }

    read(o) {
      this.mc.readResource(o.uri).then(
        (v) => this.out.push(`read q${o.q} ok ${this.tok(v)}`),
        (e) => {
          if (e instanceof DOMException && e.name === 'NotFoundError' && e.message.includes(o.uri)) this.out.push(`read q${o.q} notfound`);
          else this.out.push(`read q${o.q} rejected ${this.tokens.has(e) ? 'g' + this.tokens.get(e) : text(e)}`);
        });
    }

    subscribe(o) {
      const values = (o.values || []).slice();
      const handler = (v, uri) => {
        this.out.push(`handler s${o.k} ${this.tok(v)}`);
        if (uri !== o.uri) this.out.push(`handler s${o.k} was given the uri ${uri}`);
        if (o.kind === 'throw') throw new Error('handler failed');
        if (o.kind === 'reenter' && values.length) {
          const st = this.regs[o.target];
          st.value = values.shift();
          st.onChange();
        }
      };
      try {
        this.subs[o.k] = this.mc.subscribeResource(o.uri, handler);
      } catch (e) {
        if (e instanceof DOMException && e.name === 'NotFoundError' && e.message.includes(o.uri)) this.out.push(`subscribe s${o.k} notfound`);
        else throw e;
      }
    }

    unsubscribe(o) {
      this.subs[o.k]();
    }

    snapshot() {
      const all = this.mc.getResources();
      const mine = all.filter((d) => typeof d.uri === 'string' && d.uri.startsWith(this.prefix))
        .map((d) => [d.uri, d.name, d.title === undefined ? '-' : d.title, d.mimeType, d.subscribable].join('|'));
      // The array and its descriptors are the caller's: scribbling on them
      // must change nothing (the next snapshot checks).
      all.reverse();
      all.push({ uri: this.prefix + 'scribbled', name: 'x' });
      for (const d of all) d.name = 'scribbled';
      return mine;
    }
  }

  // ---- The generator ------------------------------------------------------

  // mulberry32: a small seeded PRNG, the same in every browser.
  function rng(seed) {
    let a = seed >>> 0;
    const next = () => {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return {
      next,
      int: (n) => Math.floor(next() * n),
      pick: (a) => a[Math.floor(next() * a.length)],
      chance: (p) => next() < p,
      weighted(pairs) { // [[weight, value], …]
        let total = 0;
        for (const [w] of pairs) total += w;
        let x = next() * total;
        for (const [w, v] of pairs) if ((x -= w) < 0) return v;
        return pairs[pairs.length - 1][1];
      },
    };
  }

  // The uris of a sequence, after its prefix: few, so that replacements
  // happen; ASCII, non-ASCII (the loader encodes short ASCII strings itself
  // and others with TextEncoder) and one longer than the ASCII fast path.
  const NAMES = ['r0', 'r1', 'caf\u00e9/2', '\u{1F600}/3', 'r4/' + 'x'.repeat(130), 'r5?q=a%20b#\u0000'];
  const URIS = NAMES.length;

  // Generator chooses the next operation from the model's state.
  class Generator {
    constructor(seed, m) {
      this.R = rng(seed);
      this.m = m;
      this.prefix = `m${seed}://`;
      this.h = 0;
      this.k = 0;
      this.q = 0;
    }

    value(r) {
      const R = this.R;
      if (r && R.chance(0.35)) return r.value; // equal to the current one
      return R.chance(0.7) ? R.pick(COMMON) : R.pick(VALUES);
    }

    registerOp(uri) {
      const R = this.R;
      const h = this.h++;
      const o = {
        op: 'register', h, uri, name: 'n' + h,
        sub: R.weighted([[55, 'ok'], [15, 'none'], [10, 'noTeardown'], [10, 'throws'], [10, 'teardownThrows']]),
        mode: R.weighted([[60, 'sync'], [30, 'async'], [10, 'throw']]),
        value: this.value(null),
      };
      if (R.chance(0.5)) o.title = 't' + h;
      if (R.chance(0.2)) o.mimeType = 'text/plain';
      return o;
    }

    next() {
      const R = this.R, m = this.m;
      const live = m.list;
      const free = [];
      for (const n of NAMES) if (!m.current(this.prefix + n)) free.push(this.prefix + n);
      const gone = m.regs.filter((r) => !r.alive);
      const pushable = live.filter((r) => r.hasOnChange);
      const gonePushable = gone.filter((r) => r.hasOnChange);
      const anyPushable = m.regs.filter((r) => r.hasOnChange);
      const subs = m.subs.filter((s) => s);
      const activeSubs = subs.filter((s) => s.active);
      const unknown = this.prefix + 'unknown' + R.int(3);
      const choices = [
        [free.length ? 12 : 0, () => this.registerOp(R.pick(free))],
        [live.length ? 6 : 0, () => this.registerOp(R.pick(live).uri)],
        [validation.cases.length ? 1 : 0, () => ({ op: 'badRegister', uri: this.prefix + NAMES[R.int(URIS)], c: R.int(validation.cases.length) })],
        [live.length ? 5 : 0, () => ({ op: 'unregister', h: R.pick(live).h })],
        [gone.length ? 3 : 0, () => ({ op: 'unregister', h: R.pick(gone).h })],
        [pushable.length ? 30 : 0, () => { const r = R.pick(pushable); return { op: 'onChange', h: r.h, value: this.value(r) }; }],
        [gonePushable.length ? 2 : 0, () => { const r = R.pick(gonePushable); return { op: 'onChange', h: r.h, value: this.value(r) }; }],
        [live.length ? 4 : 0, () => ({ op: 'setMode', h: R.pick(live).h, mode: R.weighted([[50, 'sync'], [35, 'async'], [15, 'throw']]) })],
        [m.pending.length ? 14 : 0, () => ({ op: R.chance(0.8) ? 'resolve' : 'reject', tok: R.pick(m.pending).tok })],
        [live.length ? 7 : 0, () => ({ op: 'read', uri: R.pick(live).uri, q: this.q++ })],
        [2, () => ({ op: 'read', uri: unknown, q: this.q++ })],
        [live.length ? 7 : 0, () => {
          const o = { op: 'subscribe', k: this.k++, uri: R.pick(live).uri, kind: R.weighted([[70, 'record'], [15, 'throw'], [15, 'reenter']]) };
          if (o.kind === 'reenter') {
            if (!anyPushable.length) o.kind = 'record';
            else {
              o.target = R.pick(anyPushable).h;
              o.values = [];
              for (let n = 1 + R.int(2); n > 0; n--) o.values.push(this.value(m.regs[o.target]));
            }
          }
          return o;
        }],
        [1, () => ({ op: 'subscribe', k: this.k++, uri: unknown, kind: 'record' })],
        [activeSubs.length ? 3 : 0, () => ({ op: 'unsubscribe', k: R.pick(activeSubs).k })],
        [subs.length ? 1 : 0, () => ({ op: 'unsubscribe', k: R.pick(subs).k })],
      ];
      return R.weighted(choices)();
    }

    // cleanup lists the operations that end a sequence: unregister what is
    // registered, then settle what is pending.
    cleanup() {
      const m = this.m;
      if (m.list.length) return { op: 'unregister', h: m.list[0].h };
      if (m.pending.length) return { op: 'resolve', tok: m.pending[0].tok };
      return null;
    }
  }

  // ---- Running ------------------------------------------------------------

  // tick waits for one macrotask, so every microtask queued by an operation
  // (promise reactions, read results) has run.
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  function tick() {
    return new Promise((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // runSequence runs one seeded sequence of `length` operations plus its
  // cleanup, and stops at the first mismatch: {ok, seed, count, ops, index,
  // want, got} (ops as JSON, up to the failing one at index), with every
  // operation's trace in log when keep is set.
  async function runSequence(seed, length, keep, tally) {
    const mc = document.modelContext;
    const m = new Model();
    const g = new Generator(seed, m);
    const d = new Driver(mc, g.prefix);
    const ops = [];
    const log = [];
    const result = (r) => Object.assign(r, { seed, count: ops.length, ops: ops.map((x) => JSON.stringify(x)), log });
    active = d;
    try {
      for (let i = 0; ; i++) {
        const o = i < length ? g.next() : g.cleanup();
        if (o === null) break;
        ops.push(o);
        if (tally) tallyUp(tally, kindOf(m, o));
        m.out = [];
        d.out = [];
        m.apply(o);
        d.apply(o);
        await tick();
        // The module's test build also says whether the loader's cache of
        // Go's answers still holds what Go lists (wasm/README.md, "Who
        // decides what"); the reference has no such cache.
        const internals = mc[Symbol.for('modelcontext.internals')];
        const want = { trace: m.out, resources: m.snapshot(), cacheDrift: '' };
        const got = { trace: d.out, resources: d.snapshot(), cacheDrift: internals ? internals.cacheDrift() : '' };
        if (keep) log.push({ op: o, trace: got.trace });
        if (tally) for (const line of m.out) tallyUp(tally, 'trace: ' + line.split(' ')[0]);
        if (!same(want, got)) return result({ ok: false, index: i, want, got });
      }
      if (d.deferreds.size !== 0) {
        return result({ ok: false, index: ops.length - 1, want: { deferredsLeft: 0 }, got: { deferredsLeft: d.deferreds.size } });
      }
    } finally {
      active = null;
    }
    return result({ ok: true });
  }

  // kindOf names an operation for the tally of what the sequences covered.
  function kindOf(m, o) {
    switch (o.op) {
      case 'register': return m.current(o.uri) ? 'register (replace)' : 'register (new uri)';
      case 'unregister': return m.regs[o.h].alive ? 'unregister' : 'unregister (stale)';
      case 'onChange': {
        const r = m.regs[o.h];
        if (!r.alive) return 'onChange (stale)';
        return 'onChange (' + (keyOf(o.value) === null ? 'no key' : o.value === r.value ? 'equal' : 'new') + ', ' + r.mode + ' get)';
      }
      case 'read': return m.current(o.uri) ? 'read (' + m.current(o.uri).mode + ' get)' : 'read (unknown uri)';
      case 'subscribe': return m.current(o.uri) ? 'subscribeResource (' + o.kind + ' handler)' : 'subscribeResource (unknown uri)';
      case 'resolve': case 'reject': {
        const p = m.pending.find((x) => x.tok === o.tok);
        const newest = p.read === undefined && p.r.alive && m.pending.every((x) => x.read !== undefined || x.r !== p.r || x.seq <= p.seq);
        return o.op + (p.read !== undefined ? ' (read)' : !p.r.alive ? ' (gone)' : newest ? ' (push, newest)' : ' (push, out of order)');
      }
      case 'unsubscribe': return m.subs[o.k].active ? 'unsubscribe' : 'unsubscribe (again)';
      default: return o.op;
    }
  }

  function tallyUp(tally, k) {
    tally[k] = (tally[k] || 0) + 1;
  }

  let listening = false;

  // validation is the validation table of wasm/e2e/validation_test.go (its
  // invalid descriptors, as JavaScript with U the uri and G a valid get, and
  // the message after the prefix, "@" standing for the uri's part), which
  // the test hands over with useValidationTable: a badRegister is one of
  // them, and the model predicts the table's message.
  let validation = { prefix: '', cases: [] };

  window.ModelTest = {
    useValidationTable(prefix, cases) {
      validation = { prefix, cases };
      return cases.length;
    },
    // run runs the sequences seeded from, from+1, … (count of them) and
    // stops at the first mismatch.
    async run(from, count, length) {
      await document.modelContext.ready;
      if (!listening) {
        listened();
        listening = true;
      }
      const started = performance.now();
      const tally = {};
      let ran = 0, ops = 0;
      for (let s = from; s < from + count; s++) {
        const r = await runSequence(s, length, false, tally);
        ops += r.count;
        if (!r.ok) return { ran, ops, tally, ms: performance.now() - started, failure: r };
        ran++;
        window.H.clearLog();
      }
      return { ran, ops, tally, ms: performance.now() - started, failure: null };
    },
    // replay runs one sequence and returns every operation with its trace.
    async replay(seed, length) {
      await document.modelContext.ready;
      if (!listening) {
        listened();
        listening = true;
      }
      return runSequence(seed, length, true);
    },
    Model, Driver, Generator,
  };
})();
