// Each project runs a page author's tests in one of Vitest's environments:
// node (no document: the module registers nowhere) and the two DOMs in
// Node.js (the module runs Go). test/readme.test.js is js/FRAMEWORKS.md's example
// (readme.mjs writes it), which names its own environment.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "node", environment: "node", include: ["test/node.test.js"] } },
      { test: { name: "jsdom", environment: "jsdom", include: ["test/dom.test.js", "test/http.test.js"] } },
      { test: { name: "happy-dom", environment: "happy-dom", include: ["test/dom.test.js", "test/http.test.js"] } },
      { test: { name: "readme", include: ["test/readme.test.js"] } },
    ],
  },
});
