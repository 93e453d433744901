// readme.mjs writes examples of the repository's README.md into an app, as
// written: each is the code block after its `<!-- example: NAME -->` marker.
//
//	node ../readme.mjs NAME=FILE...
//
// A marker that is missing, or not followed by a code block, is an error:
// the test must not pass by finding nothing.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const readme = readFileSync(resolve(import.meta.dirname, "..", "..", "README.md"), "utf8");
const pairs = process.argv.slice(2);
if (pairs.length === 0) {
  console.error("usage: node readme.mjs NAME=FILE...");
  process.exit(2);
}
for (const pair of pairs) {
  const [name, file] = pair.split("=");
  const marker = `<!-- example: ${name} -->\n`;
  const at = readme.indexOf(marker);
  const block = at < 0 ? null : /^```[a-z]*\n([\s\S]*?)^```$/m.exec(readme.slice(at + marker.length));
  if (!block || block.index !== 0) {
    console.error(`README.md: no code block right after ${marker.trim()}`);
    process.exit(1);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, block[1]);
}
