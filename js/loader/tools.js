// @ts-check
// tools.js: the tool fallback, the resources as read-only tools.

/**
 * registerResourceTools registers list_resources and read_resource with the
 * page's registerTool (native WebMCP or a polyfill), for agents that only
 * speak tools. It returns a function that unregisters them.
 */
function registerResourceTools() {
  if (typeof mc.registerTool !== "function") {
    throw new Error("modelcontext: registerResourceTools needs document.modelContext.registerTool (WebMCP or a polyfill such as @mcp-b/global)");
  }
  /** @param {string} t */
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  const tools = [
    {
      name: "list_resources",
      description: "Lists the live resources of this page: uri, name, description and MIME type of each.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      execute: async () => text(JSON.stringify(getResources().map(mcpInfo))),
    },
    {
      name: "read_resource",
      description: "Reads the current value of one resource of this page by its uri (see list_resources).",
      inputSchema: { type: "object", properties: { uri: { type: "string", description: "The resource's uri" } }, required: ["uri"] },
      annotations: { readOnlyHint: true },
      execute: async (/** @type {any} */ args) => {
        try {
          const v = await readResource(args && args.uri);
          if (v instanceof ArrayBuffer || ArrayBuffer.isView(v) || (typeof Blob !== "undefined" && v instanceof Blob)) {
            const ab = v instanceof Blob ? await v.arrayBuffer() : v instanceof ArrayBuffer ? v : v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
            return text("base64:" + base64(new Uint8Array(ab)));
          }
          return text(typeof v === "string" ? v : JSON.stringify(v));
        } catch (e) {
          return { ...text(describe(e)), isError: true };
        }
      },
    },
  ];
  const undo = tools.map((t) => {
    const r = mc.registerTool(t);
    return () => {
      if (r && typeof r.unregister === "function") r.unregister();
      else if (typeof mc.unregisterTool === "function") mc.unregisterTool(t.name);
    };
  });
  return () => undo.splice(0).forEach((f) => f());
}
