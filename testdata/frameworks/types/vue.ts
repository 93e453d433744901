// modelcontext/vue's types as an app uses them; each @ts-expect-error is a
// mistake the types must catch.
import { reactive, ref, type Ref } from "vue";
import { useResource, useResources, useResourceValue } from "modelcontext/vue";

const items = ref([{ sku: "tea" }]);
useResource({ uri: "state://cart", name: "cart" }, items);
useResource({ uri: "state://form", name: "form" }, reactive({ email: "" }));
useResource(() => ({ uri: "state://cart", name: "cart", title: String(items.value.length) }), () => items.value.length);
// @ts-expect-error the composable supplies get
useResource({ uri: "state://cart", name: "cart", get: () => 1 }, items);
const seen = useResourceValue<{ sku: string }[]>("state://cart");
const n: number | undefined = seen.value?.length;
// @ts-expect-error the ref is read-only
seen.value = [];
const uris: string[] = useResources().value.map((r) => r.uri);
export const listedUris = uris;
export const out: [number | undefined, Ref<{ sku: string }[]>] = [n, items];
