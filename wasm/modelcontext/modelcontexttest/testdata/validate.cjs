// validate.cjs runs the loader's own validation of descriptors, for
// TestLoaderMessages: js/loader/values.js and table.js (the folder is the
// first argument), ES modules, in one function scope (their imports and
// exports dropped: table.js's other imports are undefined there, as
// validation uses none), in a context of their own that holds the
// constants Go writes into the loader (read from stdin with the cases). For each case, the descriptor
// as package modelcontext hands it to registerResource in the browser (its
// JSON parsed, with get, subscribe and complete functions where it has
// them); on stdout, table.js's validate's answer for each, "" for none.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const dir = process.argv[2];
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const source = ["values.js", "table.js"]
  .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
  .join("\n")
  .replace(/^import [^;]*;$/gm, "")
  .replace(/^export /gm, "");
// doc: no document, as in the Go test double (an icon's path stays as given).
const context = vm.createContext({ ...input.constants, doc: null, listedFrame: undefined, console });
const loader = vm.runInContext(`(function () {\n${source}\nreturn { snapshot, validate };\n})()`, context, { filename: "table.js" });
const out = input.cases.map((c) => {
  const d = vm.runInContext("JSON.parse", context)(c.descriptor);
  if (c.get) d.get = vm.runInContext("(function get() { return null; })", context);
  if (c.subscribe) d.subscribe = vm.runInContext("(function subscribe() { return function teardown() {}; })", context);
  if (c.complete !== null) {
    d.complete = vm.runInContext("({})", context);
    for (const name of c.complete) d.complete[name] = vm.runInContext("(function complete() { return []; })", context);
  }
  return loader.validate(loader.snapshot(d));
});
process.stdout.write(JSON.stringify(out));
