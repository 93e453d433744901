import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Two pages: the sample app (index.html) and the README's examples (readme.html).
export default defineConfig({
  plugins: [react()],
  build: { rollupOptions: { input: ["index.html", "readme.html"] } },
});
