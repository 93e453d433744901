// readme.mjs writes examples of the repository's guides into an app, as
// written: each is the code block after its `<!-- example: NAME -->` marker,
// in whichever Markdown file holds it.
//
//	node ../readme.mjs NAME=FILE...
//
// A marker that is missing, or not followed by a code block, is an error:
// the test must not pass by finding nothing.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { example } from "../docs.mjs";

const pairs = process.argv.slice(2);
if (pairs.length === 0) {
  console.error("usage: node readme.mjs NAME=FILE...");
  process.exit(2);
}
for (const pair of pairs) {
  const [name, file] = pair.split("=");
  let block;
  try {
    block = example(name);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, block.text);
}
