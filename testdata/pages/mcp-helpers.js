// Page helpers of the MCP browser tests (wasm/e2e/mcp_test.go), available to
// scenarios as M. The same scenario code runs against the module's MCP server
// and, to check the tests themselves, against servers we did not write; each
// page names its server with <html data-mcp-target="...">:
//
//   wasm   the module (/static/modelcontext.js), resources registered with
//          document.modelContext.registerResource
//   sdk    the TypeScript SDK's McpServer on @mcp-b/transports'
//          TabServerTransport (/out/mcpserver.js)
//   mcpb   MCP-B's own in-page server, @mcp-b/global (/out/mcpb-global.js)
//
// M.fixture() returns F, one way to register resources on any of them:
//   F.resource({uri, name, mimeType?, title?, description?, annotations?,
//               value?, get?}) → {set(v), push(v?), unregister()}
//   F.template({uriTemplate, name, mimeType?, description?, get(params)}) → {unregister()}
//   F.supports: what the target can do at all (subscribe, ...)
(function () {
  'use strict';
  const target = document.documentElement.getAttribute('data-mcp-target') || 'wasm';

  function bytesOf(v) {
    if (v instanceof ArrayBuffer) return new Uint8Array(v);
    if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return null;
  }

  // contentOf is what a page author writes for servers that want MCP contents
  // from the page (MCP-B's registerResource): text or a base64 blob.
  async function contentOf(uri, mimeType, value) {
    if (value instanceof Blob) value = await value.arrayBuffer();
    const bytes = bytesOf(value);
    if (bytes) {
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return { uri, mimeType, blob: btoa(s) };
    }
    if (typeof value === 'string' && mimeType !== 'application/json') return { uri, mimeType, text: value };
    return { uri, mimeType, text: JSON.stringify(value) };
  }

  function pick(o, keys) {
    const out = {};
    for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
    return out;
  }

  function wasmFixture(mc) {
    return {
      target,
      supports: { subscribe: true, dedup: true, pagination: true, percentDecode: true },
      resource(d) {
        const st = { value: d.value, onChange: null };
        const desc = pick(d, ['uri', 'name', 'title', 'description', 'mimeType', 'annotations']);
        desc.get = d.get || (() => st.value);
        desc.subscribe = (onChange) => {
          st.onChange = onChange;
          return () => { st.onChange = null; };
        };
        const unregister = mc.registerResource(desc);
        return {
          set(v) { st.value = v; },
          push(...v) {
            if (v.length) st.value = v[0];
            if (st.onChange) st.onChange();
          },
          unregister,
        };
      },
      template(d) {
        const desc = pick(d, ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations']);
        desc.get = d.get;
        return { unregister: mc.registerResource(desc) };
      },
    };
  }

  function sdkFixture(server) {
    return {
      target,
      server,
      supports: { subscribe: true, dedup: false, pagination: false, percentDecode: false },
      resource(d) {
        const st = { value: d.value };
        const get = d.get || (() => st.value);
        server.resource(pick(d, ['uri', 'name', 'title', 'description', 'mimeType', 'annotations']), get);
        return {
          set(v) { st.value = v; },
          push(...v) {
            if (v.length) st.value = v[0];
            server.push(d.uri);
          },
          unregister() { server.remove(d.uri); },
        };
      },
      template(d) {
        server.template(pick(d, ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations']), d.get);
        return { unregister() { server.remove(d.uriTemplate); } };
      },
    };
  }

  function mcpbFixture(mc) {
    const read = (mimeType, get) => async (url, params) => ({ contents: [await contentOf(url.href, mimeType, await get(params))] });
    return {
      target,
      supports: { subscribe: false, dedup: false, pagination: false, percentDecode: false },
      resource(d) {
        const st = { value: d.value };
        const mimeType = d.mimeType || 'application/json';
        const handle = mc.registerResource({
          ...pick(d, ['uri', 'name', 'description']),
          mimeType,
          read: read(mimeType, d.get || (() => st.value)),
        });
        return {
          set(v) { st.value = v; },
          push(...v) { if (v.length) st.value = v[0]; },
          unregister() { handle.unregister(); },
        };
      },
      template(d) {
        const mimeType = d.mimeType || 'application/json';
        const handle = mc.registerResource({
          uri: d.uriTemplate,
          ...pick(d, ['name', 'description']),
          mimeType,
          read: read(mimeType, d.get),
        });
        return { unregister() { handle.unregister(); } };
      },
    };
  }

  let fixture = null;
  const M = {
    target,
    contentOf,
    pick,
    // fixture returns F for this page's target (started once per page).
    async fixture() {
      if (fixture) return fixture;
      if (!window.mcpTest) throw new Error('testdata/out/mcpclient.js did not load: run `make mcpclient` (npm ci + esbuild in testdata/mcpclient)');
      switch (target) {
        case 'wasm':
          await document.modelContext.ready;
          if (typeof document.modelContext.serveMCP !== 'function') {
            console.warn('document.modelContext.serveMCP is not implemented (yet)');
          }
          fixture = wasmFixture(document.modelContext);
          break;
        case 'sdk':
          fixture = sdkFixture(await window.mcpRefServer.start({ allowedOrigins: [location.origin] }));
          break;
        case 'mcpb':
          fixture = mcpbFixture(document.modelContext);
          break;
        default:
          throw new Error('unknown data-mcp-target ' + target);
      }
      return fixture;
    },
    // listAll walks method (resources/list or resources/templates/list)
    // through nextCursor: {items, pages: [sizes], cursors, error?}.
    async listAll(c, method = 'resources/list', extra = {}) {
      const key = method === 'resources/list' ? 'resources' : 'resourceTemplates';
      const out = { items: [], pages: [], cursors: [] };
      let cursor;
      for (let i = 0; i < 1000; i++) {
        const params = cursor === undefined ? { ...extra } : { ...extra, cursor };
        const r = await c.call(method, Object.keys(params).length ? params : undefined);
        if (r.error) {
          out.error = r.error;
          return out;
        }
        out.items.push(...r.result[key]);
        out.pages.push(r.result[key].length);
        if (r.result.nextCursor === undefined) return out;
        if (typeof r.result.nextCursor !== 'string') {
          out.error = { message: 'nextCursor is not a string: ' + JSON.stringify(r.result.nextCursor) };
          return out;
        }
        out.cursors.push(r.result.nextCursor);
        cursor = r.result.nextCursor;
      }
      out.error = { message: 'more than 1000 pages' };
      return out;
    },
    // read returns {contents: [{uri, mimeType, text} | {uri, mimeType, bytes: [..]}]}
    // or {error: {code, message, data}}.
    async read(c, uri) {
      const r = await c.call('resources/read', { uri });
      if (r.error) return { error: r.error };
      return { contents: r.result.contents.map(M.content) };
    },
    content(x) {
      const out = { uri: x.uri };
      if (x.mimeType !== undefined) out.mimeType = x.mimeType;
      if ('text' in x) out.text = x.text;
      if ('blob' in x) out.bytes = Array.from(atob(x.blob), (ch) => ch.charCodeAt(0));
      return out;
    },
    // patience bounds every wait for something that must happen (an answer,
    // a notification): mcpTest.patience, generous, since a slow machine only
    // makes it slower. Nothing waits a fixed time to see that something does
    // not happen: a sentinel that would come after it does.
    get patience() { return window.mcpTest ? window.mcpTest.patience : 15000; },
    // sentinel sends a ping through the client c and reports whether it was
    // answered with a result. A server answers messages in order and sends
    // the notifications of a change when it makes it, so once the answer is
    // in, every notification sent before it is in too.
    async sentinel(c) {
      const r = await c.call('ping', undefined, { timeoutMs: M.patience });
      return !!r.result;
    },
    // ping posts a raw ping with id on the wire w (on channel, or on the
    // wire's own) and reports whether an answer came: the sentinel of tests
    // that have no client.
    async ping(w, id, channel) {
      w.post({ jsonrpc: '2.0', id, method: 'ping' }, channel ? { channel } : {});
      return (await w.waitResponse(id, M.patience)) !== null;
    },
    // during runs fn, waits until at least `expect` notifications of method
    // have arrived, then for a sentinel (above), and returns the params of
    // the notifications that arrived in between: more than `expect` when
    // the server sent more.
    async during(c, method, fn, expect = 1) {
      const before = c.notificationsOf(method).length;
      await fn();
      if (expect > 0) await window.mcpTest.waitUntil(() => c.notificationsOf(method).length - before >= expect, M.patience);
      if (!(await M.sentinel(c))) throw new Error('M.during: the sentinel ping was not answered');
      return c.notificationsOf(method).slice(before);
    },
    // goExited reports whether the console said the Go runtime stopped.
    goExited() {
      return (window.H ? window.H.log : []).some((l) => /Go program has already exited|runtime exited/.test(l.args.join(' ')));
    },
  };
  window.MCP = M;
})();
