// Compiled with tsc --noEmit --strict by `make types`: the API as page code
// uses it, typed against js/modelcontext.d.ts. A change to the types that
// breaks a page author's code breaks this file. (The docs' own examples are
// compiled as written from the READMEs: tsconfig.readme.json.)
import type { ResourceInfo, ResourceTemplateInfo, MCPServer } from "../../js/modelcontext";

interface Cart {
  items: { sku: string; qty: number }[];
}
const cart: Cart = { items: [] };
const listeners = new Set<() => void>();

const unregister: () => void = document.modelContext.registerResource<Cart>({
  uri: "state://cart",
  name: "cart",
  description: "What the visitor is about to buy",
  annotations: { audience: ["user", "assistant"], priority: 0.8, lastModified: "2025-01-12T15:00:58Z" },
  get: () => cart,
  subscribe: (onChange) => {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  },
});

document.modelContext.registerResource({
  uriTemplate: "app://orders/{id}",
  name: "order",
  get: async ({ id }) => ({ id, status: "shipped" }),
  icons: [{ src: "/icons/order.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "light" }],
  complete: {
    id: (value, context) => ["41", "42"].filter((id) => id.startsWith(value) && context.arguments.id !== id),
    async other(value) {
      return [value];
    },
  },
});

const list: ResourceInfo[] = document.modelContext.getResources();
const subscribable: boolean = list[0].subscribable;
const templates: ResourceTemplateInfo[] = document.modelContext.getResourceTemplates();

async function agent(): Promise<void> {
  await document.modelContext.ready;
  const value = await document.modelContext.readResource<Cart>("state://cart");
  const n: number = value.items.length;
  const unsubscribe = document.modelContext.subscribeResource<Cart>("state://cart", (v, uri) => {
    console.log(uri.toUpperCase(), v.items.length);
  });
  document.modelContext.addEventListener("resourceupdated", (e) => console.log(e.detail.uri, e.detail.value));
  document.modelContext.addEventListener("resourcelistchanged", (e) => console.log(e.detail.resources.length));
  const server: MCPServer = document.modelContext.serveMCP({ channel: "shop", allowedOrigins: [location.origin] });
  document.modelContext.serveMCP({ channel: "relay", sessions: true, maxSessions: 8 }).stop();
  document.modelContext.serveMCP({ parent: ["https://shop.example"] }).stop();
  server.stop();
  unsubscribe();
  console.log(n, subscribable, templates.length);
}

// A registration tied to an AbortSignal, as registerTool's are.
const controller = new AbortController();
document.modelContext.registerResource({ uri: "state://draft", name: "draft", get: () => "" }, { signal: controller.signal });
controller.abort();

// A settled draft and the page itself.
document.modelContext.registerResource({ uri: "form://draft", name: "draft", settle: 300, get: () => "", subscribe: () => () => {} });
const unregisterPage: () => void = document.modelContext.registerPageResource({ uri: "page://here" });
unregisterPage();

// A frame's resources as the page's own.
const courier = document.querySelector("iframe");
if (courier) {
  const disconnect: () => void = document.modelContext.connectFrame(courier, { origin: "https://courier.example" });
  disconnect();
}

// Event handler attributes, as the platform's ontoolchange.
document.modelContext.onresourceupdated = (e) => console.log(e.detail.uri, e.detail.value);
document.modelContext.onresourcelistchanged = (e) => console.log(e.detail.resources.length);
document.modelContext.onresourceupdated = null;

globalThis.__MODELCONTEXT_DEBUG__ = true;
globalThis.__MODELCONTEXT_BOOT__ = "idle";
void agent();
unregister();

// @ts-expect-error a descriptor needs get
document.modelContext.registerResource({ uri: "state://x", name: "x" });

// registerTool is there only where the browser or a WebMCP polyfill adds it.
if (document.modelContext.registerTool) {
  document.modelContext.registerTool({
    name: "cart_size",
    description: "How many items are in the cart",
    execute: async () => ({ content: [{ type: "text", text: String(cart.items.length) }] }),
  });
}

// Following the page at the least cost: the revision, changesSince and
// patches for a subscription.
import type { Changes, JSONPatchOperation, PatchInfo } from "../../js/modelcontext";
import { changesSince } from "../../js/modelcontext";
const since: number = document.modelContext.revision;
void changesSince(since).then((c: Changes) => {
  if (c.reset) return c.revision;
  const uris: string[] = [...c.updated, ...c.added, ...c.removed];
  return uris.length + c.revision;
});
const unfollow: () => void = document.modelContext.subscribeResource<Cart>(
  "state://cart",
  (value: Cart, uri: string, info: PatchInfo) => {
    const ops: JSONPatchOperation[] | null = info.patch;
    if (ops !== null) for (const op of ops) if (op.op === "replace") console.log(uri, op.path, op.value, info.revision, value.items.length);
  },
  { patch: true },
);
unfollow();
document.modelContext.addEventListener("resourceupdated", (e) => console.log(e.detail.revision));
