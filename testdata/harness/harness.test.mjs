// Agent harnesses against a lazily booting page: Playwright and Puppeteer
// (and the DevTools protocol through each) open a page that registered a
// resource and consumed nothing, then do what an agent harness does first:
//
//	await page.evaluate(() => document.modelContext.ready)
//
// Puppeteer's page.evaluate and Runtime.evaluate with awaitPromise await
// the Promise through the DevTools protocol, which never calls its then:
// reading ready must start the module by itself. (With the loader of
// a6310e4^, where it did not, those three tests time out; Playwright's
// page.evaluate calls then in the page, and passed already.) Then the
// harness lists and reads the resource and follows one change.
//
// The page is served from the packed tarball installed in node_modules
// (make test-harness installs it), on 127.0.0.1; the browser is the tests'
// Chromium ($CHROMIUM, .cache/bin/chromium: a wrapper that keeps it off the
// network), never a browser the drivers would download.
//
//	CHROMIUM=$PWD/../../.cache/bin/chromium node --test harness.test.mjs
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";

const here = dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env.CHROMIUM || join(here, "..", "..", ".cache", "bin", "chromium");
const pkg = join(here, "node_modules", "modelcontext");

// The page: the script tag (lazy boot, the default), one resource and a
// button that changes it. Nothing in it consumes.
const page = `<!doctype html>
<meta charset="utf-8">
<title>A page an agent harness opens</title>
<script src="/static/modelcontext.js"></script>
<button id="add">Add tea</button>
<script>
  const cart = { items: [] };
  const listeners = new Set();
  document.modelContext.registerResource({
    uri: "state://cart", name: "cart", description: "What the visitor is about to buy",
    get: () => cart,
    subscribe: (onChange) => (listeners.add(onChange), () => listeners.delete(onChange)),
  });
  document.getElementById("add").addEventListener("click", () => {
    cart.items.push({ sku: "tea", qty: 1 });
    listeners.forEach((f) => f());
  });
</script>
`;

const types = { ".js": "text/javascript", ".wasm": "application/wasm" };
let server;
let origin;
// requests: the paths the server was asked for, in order.
const requests = [];

before(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    requests.push(path);
    res.setHeader("Cache-Control", "no-store");
    if (path === "/" || path === "/index.html") {
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(page);
      return;
    }
    const file = /^\/static\/(modelcontext(-runtime)?\.js|modelcontext\.wasm)$/.exec(path);
    if (file) {
      res.setHeader("Content-Type", types[file[1].slice(file[1].lastIndexOf("."))]);
      res.end(await readFile(join(pkg, file[1])));
      return;
    }
    res.statusCode = 404; // the sentinel, /sentinel-N, among them
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(() => server?.close());

// within fails with what if p has not settled in ms.
function within(p, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

let sentinels = 0;

// checkAgent drives a freshly loaded page through the harness's evaluate:
// nothing fetched the .wasm before the agent came (a request for a sentinel
// path after the load event marks the moment), ready resolves, exactly one
// .wasm was fetched after it, the resource is listed and read, and a click
// reaches the agent as one resourceupdated event.
async function checkAgent({ goto, evaluate, click, cdpEvaluate }) {
  const start = requests.length;
  await goto(origin + "/");
  const sentinel = `/sentinel-${++sentinels}`;
  await evaluate(`fetch(${JSON.stringify(sentinel)}).then(() => true)`);
  const at = requests.lastIndexOf(sentinel);
  assert.ok(at >= start, `the server never saw ${sentinel}`);
  const wasm = (list) => list.filter((p) => p.endsWith(".wasm"));
  assert.deepEqual(wasm(requests.slice(start, at)), [], `a .wasm was fetched before the agent came (requests: ${requests.slice(start, at)})`);

  // What the harness does first: await ready through the protocol.
  if (cdpEvaluate) await within(cdpEvaluate("document.modelContext.ready"), 30_000, "Runtime.evaluate(document.modelContext.ready, awaitPromise)");
  else await within(evaluate(() => document.modelContext.ready), 30_000, "page.evaluate(() => document.modelContext.ready)");
  assert.deepEqual(wasm(requests.slice(at)), ["/static/modelcontext.wasm"], "reading ready fetched the .wasm once");

  const read = cdpEvaluate ?? evaluate;
  assert.deepEqual(await read(`document.modelContext.getResources().map((r) => r.uri)`), ["state://cart"]);
  assert.deepEqual(await read(`document.modelContext.readResource("state://cart")`), { items: [] });

  // One change, one event.
  await evaluate(`(globalThis.nextUpdate = new Promise((resolve) =>
    document.modelContext.addEventListener("resourceupdated", (e) => resolve({ uri: e.detail.uri, value: e.detail.value }), { once: true })), true)`);
  await click("#add");
  assert.deepEqual(await within(evaluate(`globalThis.nextUpdate`), 15_000, "resourceupdated"), {
    uri: "state://cart",
    value: { items: [{ sku: "tea", qty: 1 }] },
  });
}

describe("Playwright", () => {
  let browser;
  before(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
  });
  after(() => browser?.close());

  test("page.evaluate(() => document.modelContext.ready) starts the module", async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    await checkAgent({ goto: (u) => p.goto(u), evaluate: (f) => p.evaluate(f), click: (s) => p.click(s) });
    await context.close();
  });

  test("Runtime.evaluate with awaitPromise, through a CDP session", async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    const cdp = await context.newCDPSession(p);
    await checkAgent({
      goto: (u) => p.goto(u),
      evaluate: (f) => p.evaluate(f),
      click: (s) => p.click(s),
      cdpEvaluate: (expression) => protocolEvaluate(cdp, expression),
    });
    await context.close();
  });
});

describe("Puppeteer", () => {
  let browser;
  before(async () => {
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true });
  });
  after(() => browser?.close());

  test("page.evaluate(() => document.modelContext.ready) starts the module", async () => {
    const p = await browser.newPage();
    await checkAgent({ goto: (u) => p.goto(u), evaluate: (f) => p.evaluate(f), click: (s) => p.click(s) });
    await p.close();
  });

  test("Runtime.evaluate with awaitPromise, through a CDP session", async () => {
    const p = await browser.newPage();
    const cdp = await p.createCDPSession();
    await checkAgent({
      goto: (u) => p.goto(u),
      evaluate: (f) => p.evaluate(f),
      click: (s) => p.click(s),
      cdpEvaluate: (expression) => protocolEvaluate(cdp, expression),
    });
    await p.close();
  });
});

// protocolEvaluate is Runtime.evaluate as a harness on the bare protocol
// sends it: the result by value, a Promise awaited.
async function protocolEvaluate(cdp, expression) {
  const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value;
}
