// The MCP workloads of wasm/cmd/bench, run on mcp.html?server=ours|mcpb|floor: the
// same stock client (window.mcpTest, testdata/out/mcpclient.js) talks to the
// page's MCP server over window.postMessage, so that the only difference
// between the two pages is the server.
//
// The bench calls, as on bench.html:
//   Bench.ready                 a Promise that resolves when the server's
//                               implementation has loaded
//   Bench.setup('mcp')          (or 'mcp-floor' or 'mcp-least', the same) registers one
//                               small JSON resource, starts the server (ours:
//                               serveMCP; MCP-B's serves from the start;
//                               floor: see floorServer), connects the client
//                               on the channel (initialize), warms up with a
//                               few reads and returns what it connected to
//   Bench.run(workload, ops)    one timed batch; {ms, ops}
(() => {
  'use strict';

  const server = new URLSearchParams(location.search).get('server');
  const channel = window.benchChannel;
  const B = (window.Bench = { impl: server, readyAt: null, error: null });

  function fail(what) {
    throw new Error('Bench (mcp.html?server=' + server + '): ' + what);
  }

  B.ready = (async () => {
    if (!window.mcpTest) fail('testdata/out/mcpclient.js did not load: run `make mcpclient`');
    if (server === 'floor') return (B.readyAt = performance.now());
    const mc = document.modelContext;
    if (!mc) fail('no document.modelContext' + (server === 'mcpb' ? ': testdata/out/mcpb-global.js did not load (run `make mcpclient`)' : ''));
    if (server === 'ours') await mc.ready;
    else if (typeof mc.registerResource !== 'function') fail("MCP-B's document.modelContext has no registerResource");
    return (B.readyAt = performance.now());
  })().catch((e) => {
    B.error = String(e && e.message ? e.message : e);
    throw e;
  });

  // The resource: a small JSON value, registered the way a page author
  // writes it for each server. Ours takes the value from get() and sends its
  // JSON text; MCP-B's registerResource wants the MCP contents from read().
  const URI = 'bench://mcp/small';
  const MIME = 'application/json';
  const value = { rev: 0, route: '/cart', count: 3 };
  const text = JSON.stringify(value);

  let conn = null; // mcpTest.connect's result

  B.setup = async (set) => {
    if (set !== 'mcp' && set !== 'mcp-floor' && set !== 'mcp-least') fail('unknown set ' + set);
    if (conn) fail('set up twice');
    const mc = document.modelContext;
    if (server === 'floor') {
      floorServer();
    } else if (server === 'ours') {
      mc.registerResource({ uri: URI, name: 'small', mimeType: MIME, get: () => value });
      mc.serveMCP({ channel });
    } else {
      mc.registerResource({
        uri: URI,
        name: 'small',
        mimeType: MIME,
        read: async (url) => ({ contents: [{ uri: url.href, mimeType: MIME, text: JSON.stringify(value) }] }),
      });
    }
    conn = await window.mcpTest.connect({ channel, timeoutMs: 10000, name: 'modelcontext-bench', record: false });
    // Warm up: the first reads compile the client's, the transport's and
    // the server's paths (the bench's calibration warms up further).
    let r;
    for (let i = 0; i < 200; i++) r = await conn.client.readResource({ uri: URI });
    checkRead(r);
    return {
      server,
      channel,
      serverInfo: conn.client.getServerVersion(),
      protocolVersion: (conn.messages.find((m) => m.result && m.result.protocolVersion) || { result: {} }).result.protocolVersion,
      contents: r.contents,
      client: window.mcpTest.versions,
    };
  };

  // floorServer is the least an in-page server on this transport can do: it
  // checks the envelope, answers the handshake, initialize and
  // resources/read of the one resource (calling get and JSON.stringify like
  // a real server), and posts the response. No registry, no validation, no
  // other method: a floor for the comparison, not a server.
  function floorServer() {
    const get = () => value;
    const post = (payload) => window.postMessage({ channel, type: 'mcp', direction: 'server-to-client', payload }, location.origin);
    window.addEventListener('message', (ev) => {
      const d = ev.data;
      if (d === null || typeof d !== 'object' || d.type !== 'mcp' || d.channel !== channel || d.direction !== 'client-to-server') return;
      if (ev.source !== window || ev.origin !== location.origin) return;
      const m = d.payload;
      if (m === 'mcp-check-ready') return post('mcp-server-ready');
      if (m === null || typeof m !== 'object' || m.id === undefined) return; // notifications
      let result;
      if (m.method === 'resources/read' && m.params && m.params.uri === URI) {
        result = { contents: [{ uri: URI, mimeType: MIME, text: JSON.stringify(get()) }] };
      } else if (m.method === 'initialize') {
        result = { protocolVersion: m.params.protocolVersion, capabilities: { resources: {} }, serverInfo: { name: 'floor', version: '0' } };
      } else {
        return post({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'floor: method not found' } });
      }
      post({ jsonrpc: '2.0', id: m.id, result });
    });
    post('mcp-server-ready');
  }

  function checkRead(r) {
    const c = r && r.contents && r.contents[0];
    if (!c || c.uri !== URI || c.text !== text || r.contents.length !== 1) {
      fail('resources/read gave ' + JSON.stringify(r) + ', want one content {uri: ' + URI + ', text: ' + text + '}');
    }
    if (conn.errors.length) fail('client errors: ' + conn.errors.join('; '));
  }

  const workloads = {
    // Nothing: the bench subtracts what evaluating a batch costs the tab.
    noop: () => 0,
    // resources/read of the small JSON resource through the SDK Client,
    // awaiting each round trip (request → server → response, validated by
    // the transport's and the client's schemas).
    'mcp-read': async (ops) => {
      const client = conn.client;
      let r;
      const t0 = performance.now();
      for (let i = 0; i < ops; i++) r = await client.readResource({ uri: URI });
      const ms = performance.now() - t0;
      checkRead(r);
      return ms;
    },
  };

  B.run = async (name, ops) => {
    const w = workloads[name];
    if (!w) fail('unknown workload ' + name);
    if (!conn) fail('Bench.setup("mcp") was not called');
    const ms = await w(ops);
    return { ms, ops };
  };
})();
