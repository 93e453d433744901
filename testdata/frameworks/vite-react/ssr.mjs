// ssr.mjs renders the hooks on the server (Node.js, no document), as
// server-side rendering does: they render the server snapshots and register
// nothing, and an invalid descriptor still throws registerResource's
// TypeError at render. Run by make test-frameworks; exits 1 on a mismatch.
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { useResource, useResourceValue, useResources } from "modelcontext/react";

function Cart() {
  useResource({ uri: "state://cart", name: "cart" }, ["tea"]);
  const cart = useResourceValue("state://cart");
  const resources = useResources();
  return h("p", null, `${resources.length} resources, cart ${cart === undefined ? "unknown" : "known"}`);
}

function Invalid() {
  useResource({ uri: "state://invalid", name: 42 }, 0);
  return null;
}

const checks = [[renderToString(h(Cart)), "<p>0 resources, cart unknown</p>"]];
try {
  renderToString(h(Invalid));
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
