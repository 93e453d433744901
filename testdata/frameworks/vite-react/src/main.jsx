// The sample app: what a page author writes after `npm install modelcontext`
// in a Vite + React app, rendered in StrictMode (effects run twice at mount).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.jsx";

// ?debug turns on the module's debug log from the start (the tests read it).
if (new URLSearchParams(location.search).has("debug")) globalThis.__MODELCONTEXT_DEBUG__ = true;

createRoot(document.getElementById("root"), {
  // The error boundary shows what it caught; React need not log it too.
  onCaughtError() {},
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
