// A page under test that fetches its .wasm over HTTP, through the DOM's own
// fetch: happy-dom's answers with a Response class of its own, which
// WebAssembly's streaming compilation does not take; the module compiles
// its bytes instead.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { afterAll, expect, test } from "vitest";

const require = createRequire(import.meta.url);
const wasm = await readFile(require.resolve("modelcontext/modelcontext.wasm"));
let served = 0;
const server = createServer((req, res) => {
  if (req.method === "GET") served++;
  res.writeHead(200, { "Content-Type": "application/wasm", "Access-Control-Allow-Origin": "*" });
  res.end(wasm);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise((resolve) => server.close(resolve)));

globalThis.__MODELCONTEXT_WASM_URL__ = `http://127.0.0.1:${server.address().port}/modelcontext.wasm`;
const { ready, readResource, registerResource } = await import("modelcontext");

test("the .wasm fetched over HTTP by the DOM's fetch runs", async () => {
  registerResource({ uri: "state://over-http", name: "over-http", get: () => ({ ok: true }) });
  await ready;
  expect(served).toBe(1);
  expect(await readResource("state://over-http")).toEqual({ ok: true });
});
