// readme.mjs writes every ```ts block of the given Markdown files into a
// folder, one file per block, so that tsc compiles the documentation's
// TypeScript as written: `make types` against js/modelcontext.d.ts, `make
// test-package` against the installed tarball.
//
//	node readme.mjs OUT DOC.md...
//
// A block that opens on line N of README.md becomes OUT/README-N.ts (of
// js/README.md, OUT/js-README-N.ts), with nothing added, so tsc's line L in
// it is line N+L-1 of the document. OUT is emptied first. A document with no
// ```ts block is an error: the check must not pass by finding nothing.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const [out, ...docs] = process.argv.slice(2);
if (!out || docs.length === 0) {
  console.error("usage: node readme.mjs OUT DOC.md...");
  process.exit(2);
}
const root = resolve(import.meta.dirname, "..", "..");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

let failed = false;
for (const doc of docs) {
  const lines = readFileSync(doc, "utf8").split("\n");
  const slug = relative(root, resolve(doc)).replace(/\.md$/, "").replaceAll("/", "-");
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    if (end === lines.length) {
      console.error(`${doc}:${i + 1}: a \`\`\`ts block that never closes`);
      failed = true;
      break;
    }
    writeFileSync(join(out, `${slug}-${start + 1}.ts`), lines.slice(start, end).join("\n") + "\n");
    n++;
    i = end;
  }
  if (n === 0) {
    console.error(`${doc}: no \`\`\`ts blocks`);
    failed = true;
  }
  console.log(`${doc}: ${n} TypeScript example${n === 1 ? "" : "s"}`);
}
process.exit(failed ? 1 : 0);
