// The MCP workloads of wasm/cmd/bench, run on mcp.html?server=ours|mcpb: the
// same stock client (window.mcpTest, testdata/out/mcpclient.js) talks to the
// page's MCP server over window.postMessage, so that the only difference
// between the two pages is the server.
//
// The bench calls, as on bench.html:
//   Bench.ready                 a Promise that resolves when the server's
//                               implementation has loaded
//   Bench.setup('mcp')          registers one small JSON resource, starts the
//                               server (ours: serveMCP; MCP-B's serves from
//                               the start), connects the client on the
//                               channel (initialize), warms up with a few
//                               reads and returns what it connected to
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
    if (set !== 'mcp') fail('unknown set ' + set);
    if (conn) fail('set up twice');
    const mc = document.modelContext;
    if (server === 'ours') {
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
    conn = await window.mcpTest.connect({ channel, timeoutMs: 10000, name: 'modelcontext-bench' });
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
