// Compiled in one program with @mcp-b/webmcp-types 5.1.0, whose
// document.modelContext is optional (no browser ships WebMCP unflagged): the
// two declarations merge, registerTool and registerResource are both typed on
// it, and the named imports are typed as they are without it. Compiled twice:
// by `make types` against the repository's js/modelcontext.d.ts
// (../tsconfig.webmcp.json maps "modelcontext" to it), and by `make
// test-package` against the installed package.
import type {} from "@mcp-b/webmcp-types";
import { registerResource, ready } from "modelcontext";

const mc = document.modelContext;
if (mc) {
  const unregister: () => void = mc.registerResource({ uri: "state://cart", name: "cart", get: () => ({ items: 0 }) });
  unregister();
  const done: Promise<void> = mc.registerTool({
    name: "add_to_cart",
    description: "Adds an item to the cart",
    execute: async () => ({ content: [{ type: "text", text: "added" }] }),
  });
  void done;
  void mc.getTools();
  mc.addEventListener("resourceupdated", (e) => console.log(e.detail.uri));
  // @ts-expect-error registerTool keeps its own types: a tool needs a name
  void mc.registerTool({ description: "no name", execute: async () => ({ content: [] }) });
  // @ts-expect-error registerResource keeps its own types: a descriptor needs get
  mc.registerResource({ uri: "state://x", name: "x" });
}

registerResource({ uri: "state://route", name: "route", get: () => location.pathname });
void ready;
