// The sample app: what a page author writes after `npm install modelcontext`
// in a Vite + Vue app.
import { createApp } from "vue";
import App from "./App.vue";

// ?debug turns on the module's debug log from the start (the tests read it).
if (new URLSearchParams(location.search).has("debug")) globalThis.__MODELCONTEXT_DEBUG__ = true;

createApp(App).mount("#app");
