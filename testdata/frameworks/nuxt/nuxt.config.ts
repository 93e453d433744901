// nuxt.config.ts
export default defineNuxtConfig({
  modules: ["@pinia/nuxt", "modelcontext/nuxt"],
  compatibilityDate: "2026-11-01",
  devtools: { enabled: false }, // nuxt dev without Nuxt DevTools, whose own dependencies reload the page
});
