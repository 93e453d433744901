// The README's React examples, as written (npm run build writes them into
// src/readme/ from README.md), in StrictMode.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Cart } from "./readme/Cart.jsx";
import { AgentPanel } from "./readme/AgentPanel.jsx";

if (new URLSearchParams(location.search).has("debug")) globalThis.__MODELCONTEXT_DEBUG__ = true;

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <Cart />
    <AgentPanel />
  </StrictMode>,
);
