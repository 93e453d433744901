// readme.mjs writes the README's Vitest example (the block after
// "<!-- example: vitest -->") to test/readme.test.js, as written, for
// make test-node to run.
import { readFileSync, writeFileSync } from "node:fs";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const m = /<!-- example: vitest -->\n```js\n([\s\S]*?)```/.exec(readme);
if (!m) throw new Error("README.md has no <!-- example: vitest --> ```js block");
writeFileSync(new URL("test/readme.test.js", import.meta.url), m[1]);
