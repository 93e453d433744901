// Without a document (server rendering, a Node.js script), importing the
// package installs nothing and throws nothing; producers validate and
// register nowhere; consumers fail, naming the missing document.
import { describe, expect, test } from "vitest";
import * as mc from "modelcontext";
import { addToCart, unregisterCart } from "../src/cart.js";

const noDocument = /^modelcontext: there is no document here/;

describe("the package in Node.js, without a document", () => {
  test("an app module that registers a resource imports and runs", () => {
    expect(typeof document).toBe("undefined");
    expect(typeof unregisterCart).toBe("function");
    expect(unregisterCart()).toBeUndefined();
    expect(() => addToCart("sku-1")).not.toThrow();
  });

  test("every named export exists", () => {
    for (const name of ["registerResource", "getResources", "getResourceTemplates", "readResource", "subscribeResource", "serveMCP", "registerResourceTools", "registerPageResource"]) {
      expect(typeof mc[name], name).toBe("function");
    }
    expect(mc.ready).toBeInstanceOf(Promise);
  });

  test("producers validate as in a browser", () => {
    expect(() => mc.registerResource({ uri: "cart", name: "cart", get: () => 1 })).toThrow(TypeError);
    expect(() => mc.registerResource({ uri: "state://cart", name: "cart" })).toThrow(/"get"/);
    expect(typeof mc.registerPageResource()).toBe("function");
  });

  test("consumers fail with an Error that says there is no document", async () => {
    expect(() => mc.getResources()).toThrow(noDocument);
    expect(() => mc.getResourceTemplates()).toThrow(noDocument);
    expect(() => mc.subscribeResource("state://cart", () => {})).toThrow(noDocument);
    expect(() => mc.serveMCP()).toThrow(noDocument);
    await expect(mc.readResource("state://cart")).rejects.toThrow(noDocument);
    await expect(mc.ready).rejects.toThrow(noDocument);
  });

  test("nothing is installed on the global object", () => {
    expect(Object.getOwnPropertyNames(globalThis).filter((n) => /modelcontext/i.test(n))).toEqual([]);
  });
});
