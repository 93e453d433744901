// readme.mjs writes every ```ts block of the repository's Markdown files
// into a folder, one file per block, so that tsc compiles the documentation's
// TypeScript as written: `make types` against js/modelcontext.d.ts, `make
// test-package` against the installed tarball.
//
//	node readme.mjs OUT
//
// A block that opens on line N of README.md becomes OUT/README-N.ts (of
// js/GUIDE.md, OUT/js-GUIDE-N.ts), with nothing added, so tsc's line L in
// it is line N+L-1 of the document. OUT is emptied first. Finding no ```ts
// block is an error: the check must not pass by finding nothing.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blocks } from "../docs.mjs";

const [out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node readme.mjs OUT");
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const found = blocks("ts");
const perFile = new Map();
for (const b of found) {
  const slug = b.file.replace(/\.md$/, "").replaceAll("/", "-");
  writeFileSync(join(out, `${slug}-${b.line + 1}.ts`), b.text);
  perFile.set(b.file, (perFile.get(b.file) ?? 0) + 1);
}
for (const [file, n] of perFile) console.log(`${file}: ${n} TypeScript example${n === 1 ? "" : "s"}`);
if (found.length === 0) {
  console.error("no ```ts blocks in any Markdown file");
  process.exit(1);
}
