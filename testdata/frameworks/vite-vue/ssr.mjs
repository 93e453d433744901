// ssr.mjs renders the composables on the server (Node.js, no document), as
// server-side rendering does: useResourceValue stays undefined, nothing is
// registered, and an invalid descriptor still throws registerResource's
// TypeError from setup. Run by make test-frameworks; exits 1 on a mismatch.
import { createSSRApp, defineComponent, h, ref } from "vue";
import { renderToString } from "vue/server-renderer";
import { useResource, useResourceValue } from "modelcontext/vue";

const Cart = defineComponent({
  setup() {
    const items = ref(["tea"]);
    useResource({ uri: "state://cart", name: "cart" }, items);
    const cart = useResourceValue("state://cart");
    return () => h("p", `cart ${cart.value === undefined ? "unknown" : "known"}`);
  },
});

const Invalid = defineComponent({
  setup() {
    useResource({ uri: "state://invalid", name: 42 }, ref(0));
    return () => null;
  },
});

const checks = [[await renderToString(createSSRApp(Cart)), "<p>cart unknown</p>"]];
try {
  const app = createSSRApp(Invalid);
  app.config.warnHandler = () => {}; // Vue's warning about the error: the check is below
  await renderToString(app);
  checks.push(["rendered", "a TypeError"]);
} catch (e) {
  checks.push([`${e.name}: ${e.message}`, 'TypeError: modelcontext: registerResource: "name" must be a string, got number (uri "state://invalid")']);
}
let failed = false;
for (const [got, want] of checks) {
  if (got !== want) {
    console.error(`ssr.mjs: got ${got}, want ${want}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
