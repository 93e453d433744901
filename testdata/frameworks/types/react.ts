// modelcontext/react's types as an app uses them; each @ts-expect-error is a
// mistake the types must catch.
import { useResource, useResourceValue, useResources } from "modelcontext/react";
import type { ResourceInfo } from "modelcontext";

export function useCart(items: { sku: string }[], title: string) {
  useResource({ uri: "state://cart", name: "cart", title, annotations: { priority: 0.5 }, settle: 100 }, items);
  // @ts-expect-error the hook supplies get
  useResource({ uri: "state://cart", name: "cart", get: () => items }, items);
  // @ts-expect-error name is required
  useResource({ uri: "state://cart" }, items);
  const cart = useResourceValue<{ sku: string }[]>("state://cart");
  const n: number | undefined = cart?.length;
  const list: ResourceInfo[] = useResources();
  // @ts-expect-error undefined until known
  const sure: { sku: string }[] = useResourceValue<{ sku: string }[]>("state://cart");
  return { n, list, sure };
}
