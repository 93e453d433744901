// The stock MCP client the browser tests (wasm/e2e/mcp_test.go) drive: the
// TypeScript SDK's Client over @mcp-b/transports' TabClientTransport, both at
// the exact versions of ../package-lock.json, bundled by `npm run build` into
// testdata/out/mcpclient.js. Nothing here speaks MCP itself: the SDK builds
// and validates every message. What it adds is bookkeeping for the tests:
// every message the client sees is recorded, errors become plain objects,
// and a wire recorder/poster reaches below the transport for the cases a
// stock client cannot produce (malformed envelopes, foreign origins).
//
//   mcpTest.patience  the default deadline (ms) of every wait below for
//                     something that must happen (an answer, a
//                     notification): generous, as a busy machine is slow;
//                     never a way to see that something does not happen
//
//   const c = await mcpTest.connect({channel, targetOrigin, timeoutMs, record})
//   c.client          the SDK Client, initialized
//   c.transport       its TabClientTransport
//   c.messages        every JSON-RPC message received, in order (with
//                     record: false, only those of the handshake: a bench
//                     that reads thousands of times keeps none of them,
//                     and callRaw then gives the SDK's parsed answer)
//   c.notifications   the notifications among them
//   c.errors          transport/protocol errors (schema failures, unknown ids)
//   await c.call('resources/list', {cursor})  → {result} | {error: {code, message, data}}
//   await c.callRaw(method, params)   the same, the response as it arrived
//   c.meta()          a 2026-07-28 request _meta, for per-request versions
//
//   const s = await mcpTest.session({channel})  raw JSON-RPC on a stock
//   transport, no initialize: s.request(method, params, {id, modern,
//   version}) → {id, result} | {id, error} (modern: add the 2026-07-28
//   _meta); s.notify(method, params); s.send(anyPayload); s.messages.
//
//   const w = mcpTest.wire({channel})  every envelope on the channel, both
//   directions, as window sees it; w.post(payload, {channel, direction,
//   envelope}) posts a raw envelope to this window.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import * as core from '@modelcontextprotocol/core';
import { TabClientTransport, DEFAULT_TAB_CHANNEL_ID, IframeParentTransport, IframeChildTransport } from '@mcp-b/transports';
import sdkPackage from '../node_modules/@modelcontextprotocol/sdk/package.json';
import transportsPackage from '../node_modules/@mcp-b/transports/package.json';
import corePackage from '../node_modules/@modelcontextprotocol/core/package.json';

const MODERN = '2026-07-28';
const PATIENCE = 15000;
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

// describe turns an McpError / Error / JSON-RPC error into {code, message, data}.
function describe(err) {
  if (err && typeof err === 'object') {
    const out = { message: String(err.message ?? err) };
    if (err.code !== undefined) out.code = err.code;
    if (err.data !== undefined) out.data = err.data;
    if (err.name && !('code' in err)) out.name = err.name;
    return out;
  }
  return { message: String(err) };
}

// withTimeout rejects with a clear message when p does not settle in ms.
function withTimeout(p, ms, what) {
  let timer;
  return Promise.race([
    p,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(what + ': no answer within ' + ms + ' ms')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// waitUntil polls pred (every 10 ms) until it returns a truthy value or ms pass.
async function waitUntil(pred, ms = PATIENCE) {
  const end = Date.now() + ms;
  for (;;) {
    const v = pred();
    if (v) return v;
    if (Date.now() >= end) return v;
    await sleep(10);
  }
}

// modernMeta is the _meta of a 2026-07-28 request.
function modernMeta(version = MODERN) {
  return {
    [VERSION_KEY]: version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modelcontext-e2e', version: '1.0.0' },
  };
}

// The result schema for requests the SDK has no method for.
const AnyResult = sdk.ResultSchema; // a loose object: unknown keys pass

// connect opens a stock client on channel and runs the initialize handshake.
async function connect(opts = {}) {
  const channel = opts.channel ?? DEFAULT_TAB_CHANNEL_ID;
  const targetOrigin = opts.targetOrigin ?? location.origin;
  const timeoutMs = opts.timeoutMs ?? PATIENCE;
  const messages = [];
  const notifications = [];
  const errors = [];
  const transport = new TabClientTransport({ targetOrigin, channelId: channel });
  // Protocol.connect chains an onmessage that is already set: this sees
  // every message the transport accepted, before the SDK handles it.
  let recording = true;
  transport.onmessage = (m) => { if (recording) messages.push(m); };
  const client = new Client(
    { name: opts.name ?? 'modelcontext-e2e', version: '1.0.0' },
    { capabilities: opts.capabilities ?? {} },
  );
  client.onerror = (e) => errors.push(String(e && e.message ? e.message : e));
  const record = (n) => { notifications.push(n); };
  client.setNotificationHandler(sdk.ResourceUpdatedNotificationSchema, record);
  client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, record);
  client.fallbackNotificationHandler = async (n) => record(n);
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (err) {
    transport.close().catch(() => {});
    const d = describe(err);
    throw new Error('mcpTest.connect: no MCP server answered initialize on channel "' + channel +
      '" (targetOrigin ' + targetOrigin + ') within ' + timeoutMs + ' ms: ' + d.message +
      (d.code !== undefined ? ' (code ' + d.code + ')' : ''));
  }
  recording = opts.record !== false;
  const c = {
    client,
    transport,
    channel,
    messages,
    notifications,
    errors,
    // call sends method through the SDK (validated with the SDK's schema for
    // the method where it has one) and returns {result} or {error}.
    async call(method, params, options = {}) {
      const schema = resultSchemas[method] ?? AnyResult;
      const req = params === undefined ? { method } : { method, params };
      try {
        return { result: await client.request(req, schema, { timeout: options.timeoutMs ?? timeoutMs }) };
      } catch (err) {
        return { error: describe(err) };
      }
    },
    // callRaw sends method through the SDK and returns the response message
    // as it arrived ({result} or {error}), before any SDK parsing.
    async callRaw(method, params, options = {}) {
      const from = messages.length;
      const r = await c.call(method, params, options);
      const resp = messages.slice(from).find((m) => 'result' in m || 'error' in m);
      if (!resp) return r;
      return 'error' in resp ? { error: resp.error } : { result: resp.result };
    },
    // meta builds a 2026-07-28 request _meta.
    meta(version = MODERN) {
      return modernMeta(version);
    },
    // notificationsOf returns the params of the recorded notifications of method.
    notificationsOf(method) {
      return notifications.filter((n) => n.method === method).map((n) => n.params ?? null);
    },
    async waitNotifications(method, count, ms = PATIENCE) {
      await waitUntil(() => c.notificationsOf(method).length >= count, ms);
      return c.notificationsOf(method);
    },
    async close() {
      await client.close();
    },
  };
  return c;
}

const resultSchemas = {
  initialize: sdk.InitializeResultSchema,
  ping: sdk.EmptyResultSchema,
  'resources/list': sdk.ListResourcesResultSchema,
  'resources/templates/list': sdk.ListResourceTemplatesResultSchema,
  'resources/read': sdk.ReadResourceResultSchema,
  'resources/subscribe': sdk.EmptyResultSchema,
  'resources/unsubscribe': sdk.EmptyResultSchema,
};

// session opens a stock TabClientTransport without a Client: raw JSON-RPC,
// no initialize (the 2026-07-28 revision has none), ids chosen by the test.
async function session(opts = {}) {
  const channel = opts.channel ?? DEFAULT_TAB_CHANNEL_ID;
  const targetOrigin = opts.targetOrigin ?? location.origin;
  const timeoutMs = opts.timeoutMs ?? PATIENCE;
  const transport = new TabClientTransport({ targetOrigin, channelId: channel });
  const messages = [];
  const errors = [];
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(String(e && e.message ? e.message : e));
  let closed = false;
  transport.onclose = () => { closed = true; };
  await transport.start();
  try {
    await withTimeout(transport.serverReadyPromise, timeoutMs,
      'mcpTest.session: the server on channel "' + channel + '" did not answer mcp-check-ready');
  } catch (err) {
    await transport.close();
    throw err;
  }
  let nextId = 1;
  const s = {
    transport,
    channel,
    messages,
    errors,
    get closed() { return closed; },
    // meta builds the 2026-07-28 request _meta.
    meta(version = MODERN, extra = {}) {
      return { ...modernMeta(version), ...extra };
    },
    // send posts payload as it is (any value) through the transport.
    async send(payload) {
      await transport.send(payload);
    },
    async notify(method, params) {
      const msg = { jsonrpc: '2.0', method };
      if (params !== undefined) msg.params = params;
      await transport.send(msg);
    },
    // request sends a request and waits for the response with its id.
    // options.modern adds the 2026-07-28 _meta to params.
    async request(method, params, options = {}) {
      const id = options.id ?? 'r' + nextId++;
      let p = params;
      if (options.modern) p = { ...(params ?? {}), _meta: { ...s.meta(options.version ?? MODERN), ...(params?._meta ?? {}) } };
      const msg = { jsonrpc: '2.0', id, method };
      if (p !== undefined) msg.params = p;
      const from = messages.length;
      await transport.send(msg);
      const resp = await waitUntil(() => messages.slice(from).find((m) => m.id === id && ('result' in m || 'error' in m)),
        options.timeoutMs ?? timeoutMs);
      if (!resp) return { timeout: true, error: { message: method + ': no response within ' + (options.timeoutMs ?? timeoutMs) + ' ms' } };
      return 'error' in resp ? { id: resp.id, error: resp.error, response: resp } : { id: resp.id, result: resp.result, response: resp };
    },
    // responsesTo returns every response carrying id (to detect duplicates).
    responsesTo(id) {
      return messages.filter((m) => m.id === id && ('result' in m || 'error' in m));
    },
    notificationsOf(method) {
      return messages.filter((m) => m.method === method && !('id' in m)).map((m) => m.params ?? null);
    },
    async waitNotifications(method, count, ms = PATIENCE) {
      await waitUntil(() => s.notificationsOf(method).length >= count, ms);
      return s.notificationsOf(method);
    },
    async close() {
      await transport.close();
    },
  };
  return s;
}

// wire records every tab-transport envelope this window receives on channel
// (or on every channel when channel is '*'), whatever its source and origin.
function wire(opts = {}) {
  const channel = opts.channel ?? DEFAULT_TAB_CHANNEL_ID;
  const seen = [];
  const handler = (ev) => {
    const d = ev.data;
    try {
      if (!d || typeof d !== 'object' || d.type !== 'mcp') return;
      if (channel !== '*' && d.channel !== channel) return;
      seen.push({ channel: d.channel, direction: d.direction, payload: d.payload, origin: ev.origin, sameWindow: ev.source === window });
    } catch {
      // A forged event whose data throws when read (the tests make some).
    }
  };
  window.addEventListener('message', handler);
  const w = {
    seen,
    // fromServer returns the server-to-client payloads seen so far.
    fromServer() {
      return seen.filter((e) => e.direction === 'server-to-client').map((e) => e.payload);
    },
    // responsesTo returns the server's responses carrying id.
    responsesTo(id) {
      return w.fromServer().filter((p) => p && typeof p === 'object' && p.id === id);
    },
    // post sends payload in a client-to-server envelope to this window;
    // options.envelope replaces the whole envelope.
    post(payload, options = {}) {
      const env = options.envelope ?? {
        channel: options.channel ?? channel,
        type: 'mcp',
        direction: options.direction ?? 'client-to-server',
        payload,
      };
      window.postMessage(env, options.targetOrigin ?? '*');
    },
    async waitResponse(id, ms = PATIENCE) {
      return (await waitUntil(() => w.responsesTo(id)[0], ms)) ?? null;
    },
    stop() {
      window.removeEventListener('message', handler);
    },
  };
  return w;
}

// base64 encodes bytes (ArrayBuffer, a typed array or DataView) the way MCP
// blob content must carry them.
function base64(value) {
  let bytes;
  if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
  else if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  else bytes = new TextEncoder().encode(String(value));
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
}

// validate parses value with a schema exported by the SDK (sdk.X) or by
// @modelcontextprotocol/core 2 (core.X, which knows the 2026-07-28 shapes):
// returns null when it fits, else the issues.
function validate(name, value) {
  const [lib, schemaName] = name.split('.');
  const schema = (lib === 'core' ? core : sdk)[schemaName];
  if (!schema) return ['no schema ' + name];
  const r = schema.safeParse(value);
  return r.success ? null : r.error.issues.map((i) => i.path.join('.') + ': ' + i.message);
}

window.mcpTest = {
  patience: PATIENCE,
  Client,
  TabClientTransport,
  IframeParentTransport, // a parent page's client of a frame's server (new IframeParentTransport({iframe, targetOrigin}))
  IframeChildTransport, // a frame's server of its parent (new IframeChildTransport({allowedOrigins}))
  sdk,
  core,
  versions: {
    '@modelcontextprotocol/sdk': sdkPackage.version,
    '@mcp-b/transports': transportsPackage.version,
    '@modelcontextprotocol/core': corePackage.version,
    latestProtocolVersion: sdk.LATEST_PROTOCOL_VERSION,
    supportedProtocolVersions: sdk.SUPPORTED_PROTOCOL_VERSIONS,
  },
  MODERN,
  VERSION_KEY,
  connect,
  session,
  wire,
  base64,
  validate,
  describe,
  sleep,
  waitUntil,
  withTimeout,
};
