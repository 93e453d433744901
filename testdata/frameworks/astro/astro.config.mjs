import { defineConfig } from "astro/config";
import node from "@astrojs/node";
import preact from "@astrojs/preact";

// Rendered on demand by the Node adapter's standalone server
// (node dist/server/entry.mjs), with Preact for the island.
export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  integrations: [preact()],
});
