import type { Routes } from "@angular/router";
import { Home } from "./home";

// / is a visit without an agent; /agent adds the agent panel.
export const routes: Routes = [
  { path: "", component: Home },
  { path: "agent", component: Home, data: { agent: true } },
];
