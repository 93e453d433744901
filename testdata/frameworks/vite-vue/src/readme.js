// js/FRAMEWORKS.md's Vue example, as written (npm run build writes it into
// src/readme/ from js/FRAMEWORKS.md).
import { createApp } from "vue";
import Cart from "./readme/Cart.vue";

if (new URLSearchParams(location.search).has("debug")) globalThis.__MODELCONTEXT_DEBUG__ = true;

createApp(Cart).mount("#app");
