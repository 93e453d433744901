// The package in plain Node.js, as a server-rendering framework or a script
// meets it: the ES module, require() of the CommonJS module, and the classic
// script evaluated without a document each install nothing and throw nothing.
// Run with --unhandled-rejections=strict: a rejection of ready that nobody
// handles then fails the run. Prints "N passed, N failed".
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const require = createRequire(import.meta.url);
const names = ["registerResource", "getResources", "getResourceTemplates", "readResource", "subscribeResource", "serveMCP", "registerResourceTools", "registerPageResource", "ready"];
const noDocument = (e) => e instanceof Error && /^modelcontext: there is no document here/.test(e.message);
let passed = 0;
let failed = 0;

async function check(what, f) {
  try {
    await f();
    passed++;
  } catch (e) {
    failed++;
    console.error(`FAIL ${what}: ${e.stack || e}`);
  }
}

async function harmless(m) {
  for (const n of names) assert.ok(n in m, `export ${n}`);
  assert.equal(typeof m.registerResource({ uri: "state://x", name: "x", get: () => 1 }), "function");
  assert.throws(() => m.registerResource({ uri: "x", name: "x", get: () => 1 }), TypeError);
  assert.throws(() => m.getResources(), noDocument);
  await assert.rejects(m.readResource("state://x"), noDocument);
}

await check("import()", async () => harmless(await import("modelcontext")));
await check("require()", async () => harmless(require("modelcontext")));
await check("the classic script in a context without a document", async () => {
  const context = vm.createContext({ console, EventTarget, Event, URL, AbortSignal, Promise, Symbol, setTimeout });
  vm.runInContext(readFileSync(require.resolve("modelcontext/modelcontext.js"), "utf8"), context);
  assert.equal(context.document, undefined);
  assert.deepEqual(Object.keys(context).filter((k) => /modelcontext/i.test(k)), []);
});
// An unhandled rejection would end the process here (strict mode) before
// this line; a later one still would, after the report.
await new Promise((resolve) => setTimeout(resolve, 0));
console.log(`node import: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
