// Under a DOM in Node.js (jsdom, happy-dom), the module runs Go, as in a
// browser: it reads its .wasm from beside the module file. A page author's
// test registers, reads, subscribes and sees events.
import { expect, test } from "vitest";
import { getResources, readResource, ready, registerResource, subscribeResource } from "modelcontext";
import { addToCart, cart } from "../src/cart.js";

test("ready resolves: Go runs", async () => {
  await ready;
});

test("the app's resource is listed and read", async () => {
  expect(getResources().map((r) => r.uri)).toContain("state://cart");
  expect(await readResource("state://cart")).toBe(cart);
});

test("a change is pushed to subscribers and listeners, once", async () => {
  const values = [];
  const events = [];
  const unsubscribe = subscribeResource("state://cart", (value) => values.push(structuredClone(value)));
  const onUpdate = (e) => events.push(e.detail.uri);
  document.modelContext.addEventListener("resourceupdated", onUpdate);
  addToCart("sku-1");
  addToCart("sku-2");
  await expect.poll(() => values.length).toBe(2);
  expect(values[1].items.map((i) => i.sku)).toEqual(["sku-1", "sku-2"]);
  expect(events).toEqual(["state://cart", "state://cart"]);
  unsubscribe();
  document.modelContext.removeEventListener("resourceupdated", onUpdate);
});

test("resourcelistchanged fires on register and unregister", async () => {
  const lists = [];
  const onList = (e) => lists.push(e.detail.resources.map((r) => r.uri));
  document.modelContext.addEventListener("resourcelistchanged", onList);
  const unregister = registerResource({ uri: "state://draft", name: "draft", get: () => "hello" });
  expect(await readResource("state://draft")).toBe("hello");
  unregister();
  document.modelContext.removeEventListener("resourcelistchanged", onList);
  expect(lists).toEqual([
    ["state://cart", "state://draft"],
    ["state://cart"],
  ]);
  await expect(readResource("state://draft")).rejects.toThrow(/state:\/\/draft/);
});
