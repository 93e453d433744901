// MCP-B's own in-page server, @mcp-b/global, bundled into
// testdata/out/mcpb-global.js for comparison with the module. Loading it
// installs a BrowserMcpServer as document.modelContext (and
// navigator.modelContext) and serves it on the tab transport; set
// window.__webModelContextOptions first to configure it, e.g.
// {transport: {tabServer: {allowedOrigins: [location.origin], channelId: 'mcp-b'}}}.
// Its registerResource takes {uri, name, description?, mimeType?,
// read(url, params) → Promise<ReadResourceResult>}.
import { initializeWebModelContext, cleanupWebModelContext } from '@mcp-b/global';

window.mcpbGlobal = { initializeWebModelContext, cleanupWebModelContext };
