// A page's own code, typed by the installed package: the named imports, and
// document.modelContext through the import, with no triple-slash reference.
import {
  registerResource,
  getResources,
  getResourceTemplates,
  readResource,
  subscribeResource,
  serveMCP,
  registerResourceTools,
  ready,
  type ResourceInfo,
  type ResourceTemplateInfo,
  type MCPServer,
} from "modelcontext";

interface Cart {
  items: { sku: string; qty: number }[];
}
const cart: Cart = { items: [] };
const listeners = new Set<() => void>();

const unregister: () => void = registerResource<Cart>({
  uri: "state://cart",
  name: "cart",
  get: () => cart,
  subscribe: (onChange) => (listeners.add(onChange), () => listeners.delete(onChange)),
});
registerResource({ uriTemplate: "app://orders/{id}", name: "order", get: async ({ id }) => ({ id }) });

async function agent(): Promise<void> {
  await ready;
  const value = await readResource<Cart>("state://cart");
  const n: number = value.items.length;
  const list: ResourceInfo[] = getResources();
  const templates: ResourceTemplateInfo[] = getResourceTemplates();
  const stop = subscribeResource<Cart>("state://cart", (v, uri) => console.log(uri, v.items.length));
  const server: MCPServer = serveMCP({ channel: "shop" });
  server.stop();
  stop();
  console.log(n, list.length, templates.length);
  if (typeof document.modelContext.registerTool === "function") registerResourceTools()();
}

// The same object, typed through the package's global declaration.
document.modelContext.addEventListener("resourceupdated", (e) => console.log(e.detail.uri, e.detail.value));
const sameReady: Promise<void> = document.modelContext.ready;

void agent();
void sameReady;
unregister();

// @ts-expect-error a template takes no subscribe
registerResource({ uriTemplate: "app://orders/{id}", name: "order", get: () => 1, subscribe: () => () => {} });
// @ts-expect-error a descriptor has a uri or a uriTemplate, not both
registerResource({ uri: "app://orders/1", uriTemplate: "app://orders/{id}", name: "order", get: () => 1 });
