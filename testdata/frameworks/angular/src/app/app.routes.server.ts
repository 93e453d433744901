import { RenderMode, type ServerRoute } from "@angular/ssr";

// / is prerendered at build time, /agent rendered on each request: either
// way the services that import modelcontext run on the server first, where
// there is no document.
export const serverRoutes: ServerRoute[] = [
  { path: "", renderMode: RenderMode.Prerender },
  { path: "**", renderMode: RenderMode.Server },
];
