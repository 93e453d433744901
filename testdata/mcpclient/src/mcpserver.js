// A reference MCP server for checking the test client and the test logic
// against code we did not write: the TypeScript SDK's McpServer over
// @mcp-b/transports' TabServerTransport (the pair MCP-B's own in-page server
// is built from), bundled into testdata/out/mcpserver.js.
//
//   const s = await mcpRefServer.start({channel, allowedOrigins})
//   s.resource({uri, name, mimeType, title?, description?, annotations?}, get)
//       get() → value; read serves it as text (strings as they are, other
//       values as JSON) or, for bytes and Blobs, as a base64 blob
//   s.template({uriTemplate, name, mimeType, ...}, get)   get(params)
//   s.push(uri)     notifications/resources/updated to subscribers of uri
//   s.remove(uri)   unregisters (the SDK sends list_changed)
//   s.stop()
//
// The SDK's McpServer does not implement resources/subscribe, so the
// subscribe/unsubscribe handlers below are plain SDK request handlers.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { TabServerTransport } from '@mcp-b/transports';

function bytesOf(v) {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return null;
}

function base64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
}

async function contentOf(uri, mimeType, value) {
  if (typeof Blob !== 'undefined' && value instanceof Blob) value = await value.arrayBuffer();
  const bytes = bytesOf(value);
  if (bytes) return { uri, mimeType, blob: base64(bytes) };
  if (typeof value === 'string' && mimeType !== 'application/json') return { uri, mimeType, text: value };
  return { uri, mimeType, text: JSON.stringify(value) };
}

async function start(opts = {}) {
  const server = new McpServer(
    { name: 'mcp-b-reference', version: '1.0.0' },
    { capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  const subscribed = new Set();
  const registered = new Map();
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    subscribed.add(req.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  const s = {
    server,
    subscribed,
    resource(d, get) {
      const { uri, name, ...config } = d;
      config.mimeType ??= 'application/json';
      registered.set(uri, server.registerResource(name, uri, config, async (u) => ({
        contents: [await contentOf(u.href, config.mimeType, await get())],
      })));
    },
    template(d, get) {
      const { uriTemplate, name, ...config } = d;
      config.mimeType ??= 'application/json';
      registered.set(uriTemplate, server.registerResource(name, new ResourceTemplate(uriTemplate, { list: undefined }), config,
        async (u, params) => ({ contents: [await contentOf(u.href, config.mimeType, await get(params))] })));
    },
    remove(uri) {
      registered.get(uri)?.remove();
      registered.delete(uri);
    },
    async push(uri) {
      if (subscribed.has(uri)) await server.server.sendResourceUpdated({ uri });
    },
    async stop() {
      await server.close();
    },
  };
  const transport = new TabServerTransport({
    allowedOrigins: opts.allowedOrigins ?? [location.origin],
    channelId: opts.channel ?? 'mcp-default',
  });
  await server.connect(transport);
  return s;
}

window.mcpRefServer = { start, contentOf, McpError, ErrorCode };
