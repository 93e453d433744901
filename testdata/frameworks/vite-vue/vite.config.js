import { defineConfig } from "vite";
import vue from "@vitejs/plugin-vue";

// Two pages: the sample app (index.html) and js/FRAMEWORKS.md's example (readme.html).
export default defineConfig({
  plugins: [vue()],
  build: { rollupOptions: { input: ["index.html", "readme.html"] } },
});
