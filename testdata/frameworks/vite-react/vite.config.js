import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The sample app (index.html), js/FRAMEWORKS.md's examples (readme.html) and the
// page of wasm/frameworks' TestPushCost (bench.html).
export default defineConfig({
  plugins: [react()],
  build: { rollupOptions: { input: ["index.html", "readme.html", "bench.html"] } },
});
