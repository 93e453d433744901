// agent.js: the agents of make bench-agent (wasm/cmd/agentsession), who
// follow the demo shop while visitor.js shops. The driver evaluates this
// file in the demo page once the page is ready, then calls
// AgentSession.setup(), and, after each of the visitor's actions,
// AgentSession.turn(): every agent takes its turn then, one after another.
// What each agent receives is recorded as the texts it was handed, for the
// driver to count (bytes, and tokens with testdata/agentsession/count.mjs).
//
// The agents, all at the same time, on the same page:
//
//   all      (a) re-reads every resource each turn: read_resource of each
//            listed uri. The list itself it is told for free (uncounted),
//            so that it never pays for list_resources after the first turn.
//   changed  (b) asks document.modelContext.changesSince(its revision) and
//            reads the added and updated ones whole (read_resource).
//   tool     (c) read_changes({since}) (values, or RFC 6902 patches against
//            what the tool gave before), through the resource tools on a
//            registerTool polyfill, as MCP CallToolResults (text counted).
//   mcp      (c') an MCP client (the stock SDK Client, on the demo's server,
//            a session of its own) that declares
//            capabilities.experimental["modelcontext/changes"]: subscribed
//            to every resource, it follows by the updates' _meta (a patch or
//            the contents); on list_changed it lists and reads the new ones.
//            Every JSON-RPC message it receives is counted, as sent.
//   mcpread  the same client without the capability (a stock one): on each
//            turn it reads every resource it was told was updated.
//   patches  (c'') an agent in the page on the public API alone: it reads
//            every value (readResource) and subscribes to each resource
//            with subscribeResource(uri, handler, {patch: true}); each push
//            queues {uri, patch} (or {uri, value} when the handler is
//            handed no patch); on resourcelistchanged it subscribes to and
//            reads the new ones ({uri, name, value}) and unsubscribes from
//            the removed ones ({uri, removed: true}). Each turn it hands
//            its model the JSON text of the entries queued since its last
//            turn (nothing when none were), and rebuilds its mirror from
//            that text alone.
//
// All six begin alike: the list (list_resources for the three tool
// agents, resources/list for the MCP ones, getResources() and
// getResourceTemplates() as list_resources gives them for (c'')) and every
// value. Each keeps a mirror of every value from what it received alone;
// after each turn the mirrors are checked against the page's values
// (document.modelContext's readResource, not counted).
(() => {
  'use strict';
  const mc = document.modelContext;

  // The registerTool polyfill: the page has no WebMCP. The resource tools
  // answer it MCP CallToolResults ({content: [{type: 'text', text}]}).
  const tools = {};
  if (typeof mc.registerTool !== 'function') {
    mc.registerTool = (tool) => {
      tools[tool.name] = tool;
      return { unregister() { delete tools[tool.name]; } };
    };
  }

  // applyPatch applies an RFC 6902 patch to a copy of doc (written apart
  // from the module's differ, as wasm/e2e's applyJS).
  const applyPatch = (doc, ops) => {
    const unescape = (s) => s.replace(/~1/g, '/').replace(/~0/g, '~');
    const parts = (p) => (p === '' ? [] : p.slice(1).split('/').map(unescape));
    const clone = (v) => JSON.parse(JSON.stringify(v));
    let root = clone(doc);
    const get = (p) => parts(p).reduce((o, k) => o[Array.isArray(o) && k === '-' ? o.length : k], root);
    const put = (p, v, insert) => {
      const ps = parts(p);
      if (ps.length === 0) { root = v; return; }
      const last = ps.pop(), o = ps.reduce((o, k) => o[k], root);
      if (Array.isArray(o)) {
        const i = last === '-' ? o.length : Number(last);
        if (insert) o.splice(i, 0, v); else o[i] = v;
      } else o[last] = v;
    };
    const del = (p) => {
      const ps = parts(p), last = ps.pop(), o = ps.reduce((o, k) => o[k], root);
      if (Array.isArray(o)) o.splice(Number(last), 1); else delete o[last];
    };
    for (const op of ops) {
      switch (op.op) {
        case 'add': put(op.path, clone(op.value), true); break;
        case 'remove': del(op.path); break;
        case 'replace': put(op.path, clone(op.value), false); break;
        case 'move': { const v = get(op.from); del(op.from); put(op.path, v, true); break; }
        case 'copy': put(op.path, clone(get(op.from)), true); break;
        case 'test': if (JSON.stringify(get(op.path)) !== JSON.stringify(op.value)) throw new Error('test failed at ' + op.path); break;
        default: throw new Error('unknown op ' + op.op);
      }
    }
    return root;
  };

  const AGENTS = ['all', 'changed', 'tool', 'mcp', 'mcpread', 'patches'];
  const received = Object.fromEntries(AGENTS.map((k) => [k, []])); // agent → texts, in order
  const turnBytes = Object.fromEntries(AGENTS.map((k) => [k, 0])); // this turn's
  const utf8 = new TextEncoder();
  function got(agent, text) {
    received[agent].push(text);
    turnBytes[agent] += utf8.encode(text).length;
  }
  const textOf = (result) => result.content.map((c) => c.text).join('');

  // A tool's answer as the agent reads it; a failure stops the run.
  async function call(agent, name, input) {
    const r = await tools[name].execute(input);
    const text = textOf(r);
    got(agent, text);
    if (r.isError) throw new Error(`${agent}: ${name}(${JSON.stringify(input)}) failed: ${text}`);
    return text;
  }

  // What read_resource answers is text: a string value as it is, any other
  // value as JSON (runtime/resourcetools.js). mirrorText is the same of a
  // value, to compare the mirrors in one form.
  const mirrorText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  const uris = () => mc.getResources().map((r) => r.uri);

  // ---- (a) all ----------------------------------------------------------------
  const all = { mirror: new Map() };
  async function allTurn() {
    all.mirror.clear();
    for (const uri of uris()) all.mirror.set(uri, await call('all', 'read_resource', { uri }));
  }

  // ---- (b) changed ------------------------------------------------------------
  const changed = { revision: 0, mirror: new Map() };
  async function changedTurn() {
    const c = await mc.changesSince(changed.revision);
    got('changed', JSON.stringify(c));
    const read = c.reset ? uris() : c.added.concat(c.updated);
    if (c.reset) changed.mirror.clear();
    for (const uri of c.reset ? [] : c.removed) changed.mirror.delete(uri);
    for (const uri of read) changed.mirror.set(uri, await call('changed', 'read_resource', { uri }));
    changed.revision = c.revision;
  }

  // ---- (c) tool ---------------------------------------------------------------
  const tool = { revision: null, mirror: new Map(), patches: 0, values: 0 };
  async function toolTurn() {
    const text = await call('tool', 'read_changes', tool.revision === null ? {} : { since: tool.revision });
    const answer = JSON.parse(text);
    if (answer.reset) tool.mirror.clear();
    for (const c of answer.changes) {
      if (c.removed) tool.mirror.delete(c.uri);
      else if (c.error !== undefined || c.blob !== undefined) throw new Error('tool: read_changes gave ' + JSON.stringify(c));
      else if (c.patch !== undefined) {
        tool.mirror.set(c.uri, applyPatch(tool.mirror.get(c.uri), c.patch));
        tool.patches++;
      } else {
        tool.mirror.set(c.uri, c.value);
        tool.values++;
      }
    }
    tool.revision = answer.revision;
  }

  // ---- (c'') patches ----------------------------------------------------------
  // An agent in the page itself, on document.modelContext's public API. Its
  // handlers queue what it will hand its model; at its turn it hands the
  // queue as one JSON text and rebuilds its mirror from that text alone.
  // handed is what it has handed per uri (JSON text), for the pull-only
  // resources it polls, and based the uris it has handed a value of, against
  // which a patch applies.
  const patches = {
    mirror: new Map(), queue: [], subs: new Map(), based: new Set(), handed: new Map(),
    pending: [], listed: false, counts: { patches: 0, values: 0, added: 0, removed: 0, polled: 0, emptySkipped: 0 },
  };
  // The list as list_resources gives it: the resources then the templates,
  // without subscribable (what the agent's code, not its model, uses).
  const listing = () => mc.getResources().concat(mc.getResourceTemplates()).map((r) => {
    const { subscribable, ...rest } = r;
    return rest;
  });
  // snap is a value as it is now (the page may change its objects later).
  const snap = (v) => JSON.parse(JSON.stringify(v));
  function onPush(value, uri, info) {
    if (!patches.subs.has(uri)) return; // unsubscribed
    const patch = info && info.patch;
    if (patch && patches.based.has(uri)) {
      if (patch.length === 0) { patches.counts.emptySkipped++; return; } // nothing changed for the model
      patches.queue.push({ uri, patch });
    } else {
      // No patch (the first push, not plain JSON, or a patch longer than
      // the value), or none yet against a value this agent handed: the value.
      patches.queue.push({ uri, value: snap(value) });
      patches.based.add(uri);
    }
  }
  // follow subscribes to uri (a subscribable one) or marks it for polling.
  function follow(info) {
    if (!info.subscribable) { patches.subs.set(info.uri, null); return; }
    patches.subs.set(info.uri, mc.subscribeResource(info.uri, onPush, { patch: true }));
  }
  function drop(uri) {
    const unsubscribe = patches.subs.get(uri);
    if (unsubscribe) unsubscribe();
    patches.subs.delete(uri);
    patches.based.delete(uri);
    patches.handed.delete(uri);
    patches.queue.push({ uri, removed: true });
    patches.counts.removed++;
  }
  // A list change: subscribe to the new ones first (no push is missed), then
  // read them; unsubscribe from the removed ones.
  mc.addEventListener('resourcelistchanged', (ev) => {
    if (!patches.listed) return; // before its start
    const now = new Map(ev.detail.resources.map((r) => [r.uri, r]));
    for (const uri of [...patches.subs.keys()]) if (!now.has(uri)) drop(uri);
    for (const [uri, info] of now) {
      if (patches.subs.has(uri)) continue;
      follow(info);
      patches.counts.added++;
      patches.pending.push(mc.readResource(uri).then((value) => {
        // A push since it subscribed has handed the value already.
        if (!patches.subs.has(uri) || patches.based.has(uri)) return;
        patches.queue.push({ uri, name: info.name, value: snap(value) });
        patches.based.add(uri);
        if (!info.subscribable) patches.handed.set(uri, JSON.stringify(value));
      }, (e) => {
        if (patches.subs.has(uri)) throw e; // else removed before it was read
      }));
    }
  });
  async function patchesStart() {
    const text = JSON.stringify(listing());
    got('patches', text);
    patches.listed = true;
    for (const info of mc.getResources()) {
      if (patches.subs.has(info.uri)) continue; // a list change came first
      const value = await mc.readResource(info.uri);
      const t = JSON.stringify(value);
      got('patches', t);
      patches.mirror.set(info.uri, JSON.parse(t));
      patches.based.add(info.uri);
      follow(info);
      if (!info.subscribable) patches.handed.set(info.uri, t);
    }
  }
  async function patchesTurn() {
    while (patches.pending.length > 0) await Promise.all(patches.pending.splice(0));
    // A pull-only resource pushes nothing: it is read each turn, and handed
    // when it differs from what the model has.
    for (const [uri, unsubscribe] of patches.subs) {
      if (unsubscribe !== null || !patches.based.has(uri)) continue;
      const value = await mc.readResource(uri);
      const t = JSON.stringify(value);
      if (t === patches.handed.get(uri)) continue;
      patches.handed.set(uri, t);
      patches.queue.push({ uri, value });
      patches.counts.polled++;
    }
    if (patches.queue.length === 0) return;
    const text = JSON.stringify(patches.queue.splice(0));
    got('patches', text);
    for (const e of JSON.parse(text)) {
      if (e.removed) patches.mirror.delete(e.uri);
      else if (e.patch !== undefined) {
        if (!patches.mirror.has(e.uri)) throw new Error('patches: a patch of ' + e.uri + ', which it was given no value of');
        patches.mirror.set(e.uri, applyPatch(patches.mirror.get(e.uri), e.patch));
        patches.counts.patches++;
      } else {
        patches.mirror.set(e.uri, e.value);
        patches.counts.values++;
      }
    }
  }

  // ---- (c') mcp and mcpread ---------------------------------------------------
  // One stock client each (the SDK's Client on @mcp-b/transports' tab
  // transport, /vendor/mcpclient.js, which the demo's MCP tab loads), on a
  // session channel of the demo's server (data-mcp-sessions).
  const SIZE = { patch: 0, contents: 0, read: 0 };
  function mcpAgent(name, follows) {
    return { name, follows, client: null, seen: 0, mirror: new Map(), mime: new Map(), subscribed: new Set(), counts: { ...SIZE } };
  }
  const mcp = mcpAgent('mcp', true);
  const mcpread = mcpAgent('mcpread', false);

  const valueOfContents = (a, uri, content) => {
    a.mime.set(uri, content.mimeType);
    return typeof content.text === 'string' ? content.text : 'base64:' + content.blob;
  };
  async function request(a, method, params) {
    const r = await a.client.call(method, params);
    if (r.error) throw new Error(`${a.name}: ${method} ${JSON.stringify(params)}: ${JSON.stringify(r.error)}`);
    return r.result;
  }
  async function mcpRead(a, uri) {
    const r = await request(a, 'resources/read', { uri });
    a.mirror.set(uri, valueOfContents(a, uri, r.contents[0]));
    a.counts.read++;
  }
  // mcpList lists the resources, subscribes to the new ones and reads them.
  async function mcpList(a) {
    const listed = [];
    let cursor;
    do {
      const r = await request(a, 'resources/list', cursor ? { cursor } : {});
      listed.push(...r.resources.map((x) => x.uri));
      cursor = r.nextCursor;
    } while (cursor);
    for (const uri of [...a.mirror.keys()]) if (!listed.includes(uri)) { a.mirror.delete(uri); a.subscribed.delete(uri); }
    for (const uri of listed) {
      if (a.subscribed.has(uri)) continue;
      await request(a, 'resources/subscribe', { uri });
      a.subscribed.add(uri);
      await mcpRead(a, uri);
    }
  }
  async function mcpConnect(a) {
    const capabilities = a.follows ? { experimental: { 'modelcontext/changes': {} } } : {};
    a.client = await window.mcpTest.connect({ channel: 'mcp-default/agentsession-' + a.name, capabilities, name: 'agentsession-' + a.name });
    a.seen = a.client.messages.length; // the handshake is not counted
  }
  // mcpTurn counts what arrived since the last turn and acts on it: each
  // update's patch or contents (mcp), else a read of each uri updated
  // (mcpread, or an update without either); a list change, a new list.
  async function mcpTurn(a) {
    let listChanged = false;
    const stale = new Set();
    for (;;) {
      const fresh = a.client.messages.slice(a.seen);
      a.seen += fresh.length;
      if (fresh.length === 0) break;
      for (const m of fresh) {
        got(a.name, JSON.stringify(m));
        if (m.method === 'notifications/resources/list_changed') listChanged = true;
        if (m.method !== 'notifications/resources/updated') continue;
        const uri = m.params.uri, meta = m.params._meta || {};
        if (a.follows && meta['modelcontext/patch']) {
          a.mirror.set(uri, JSON.stringify(applyPatch(JSON.parse(a.mirror.get(uri)), meta['modelcontext/patch'])));
          a.counts.patch++;
        } else if (a.follows && meta['modelcontext/contents']) {
          a.mirror.set(uri, valueOfContents(a, uri, meta['modelcontext/contents'][0]));
          a.counts.contents++;
        } else stale.add(uri);
      }
      // What the agent asks for now is counted on the next pass.
      if (listChanged) { listChanged = false; await mcpList(a); }
      for (const uri of stale) if (a.subscribed.has(uri)) await mcpRead(a, uri);
      stale.clear();
    }
  }

  // ---- checks -----------------------------------------------------------------
  // The page's values now, uncounted, in the form of each mirror.
  async function truth() {
    const t = new Map();
    for (const r of mc.getResources()) t.set(r.uri, { value: await mc.readResource(r.uri), mimeType: r.mimeType });
    return t;
  }
  // mismatches lists the uris whose mirror differs from the page's value.
  function mismatches(t) {
    const out = {};
    const note = (agent, uri, want, have) => { (out[agent] = out[agent] || []).push({ uri, want, have }); };
    for (const [uri, { value, mimeType }] of t) {
      const want = mirrorText(value);
      for (const [agent, m] of [['all', all.mirror], ['changed', changed.mirror]]) {
        if (m.get(uri) !== want) note(agent, uri, want, m.get(uri));
      }
      for (const [agent, m] of [['tool', tool.mirror], ['patches', patches.mirror]]) {
        if (JSON.stringify(m.get(uri)) !== JSON.stringify(value)) note(agent, uri, JSON.stringify(value), JSON.stringify(m.get(uri)));
      }
      for (const a of [mcp, mcpread]) {
        const json = /json/.test(a.mime.get(uri) || mimeType || 'application/json');
        const w = json ? JSON.stringify(value) : String(value);
        if (a.mirror.get(uri) !== w) note(a.name, uri, w, a.mirror.get(uri));
      }
    }
    for (const [agent, m] of [['all', all.mirror], ['changed', changed.mirror], ['tool', tool.mirror], ['mcp', mcp.mirror], ['mcpread', mcpread.mirror], ['patches', patches.mirror]]) {
      for (const uri of m.keys()) if (!t.has(uri)) note(agent, uri, undefined, 'kept after removal');
    }
    return out;
  }

  // quiet resolves once the page's revision and both MCP clients' messages
  // stood still for 3 polls 25 ms apart (after at least `least` ms): the
  // pushes an action caused, and their MCP updates, have all been made.
  async function quiet(least = 0) {
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    await sleep(least);
    const mark = () => [mc.revision, mcp.client ? mcp.client.messages.length : 0, mcpread.client ? mcpread.client.messages.length : 0].join();
    let last = mark(), still = 0;
    while (still < 3) {
      await sleep(25);
      const now = mark();
      still = now === last ? still + 1 : 0;
      last = now;
    }
  }

  let turns = 0;
  const started = {}; // agent → how many of its texts were its start
  const stale = {}; // agent → turns its mirror disagreed with the page
  window.AgentSession = {
    received,
    // setup registers the resource tools, connects both MCP clients, and
    // gives every agent its start: the list and every value.
    async setup() {
      await mc.ready;
      mc.registerResourceTools();
      for (const name of ['list_resources', 'read_resource', 'read_changes']) {
        if (!tools[name]) throw new Error('registerResourceTools registered no ' + name + ' on the polyfill: ' + Object.keys(tools));
      }
      const t0 = performance.now();
      while (!window.mcpTest) {
        if (performance.now() - t0 > 20000) throw new Error('the demo did not load /vendor/mcpclient.js within 20 s');
        await new Promise((r) => setTimeout(r, 50));
      }
      await mcpConnect(mcp);
      await mcpConnect(mcpread);
      await quiet();
      for (const a of ['all', 'changed', 'tool']) await call(a, 'list_resources', {});
      await allTurn();
      changed.revision = mc.revision;
      for (const uri of uris()) changed.mirror.set(uri, await call('changed', 'read_resource', { uri }));
      await toolTurn();
      for (const a of [mcp, mcpread]) {
        await mcpList(a);
        await mcpTurn(a);
      }
      await patchesStart();
      for (const k of AGENTS) started[k] = received[k].length;
      return AgentSession.check();
    },
    // turn: every agent takes its turn, once the page is quiet (least: ms
    // to wait first, as for a settled resource).
    async turn(least) {
      await quiet(least);
      for (const k of AGENTS) turnBytes[k] = 0;
      await allTurn();
      await changedTurn();
      await toolTurn();
      await mcpTurn(mcp);
      await mcpTurn(mcpread);
      await patchesTurn();
      turns++;
      return { ...(await AgentSession.check()), bytes: { ...turnBytes } };
    },
    async check() {
      const t = await truth();
      const bad = mismatches(t);
      for (const agent of Object.keys(bad)) stale[agent] = (stale[agent] || 0) + 1;
      return { revision: mc.revision, resources: t.size, mismatches: bad };
    },
    summary() {
      return {
        turns,
        started,
        stale,
        tool: { patches: tool.patches, values: tool.values },
        mcp: mcp.counts,
        mcpread: mcpread.counts,
        patches: patches.counts,
        errors: [mcp, mcpread].flatMap((a) => (a.client ? a.client.errors : [])),
        resources: mc.getResources().map((r) => ({ uri: r.uri, mimeType: r.mimeType })),
      };
    },
  };
})();
