// readme.mjs writes the guide's Vitest example (the block after
// "<!-- example: vitest -->") to test/readme.test.js, as written, for
// make test-node to run.
import { writeFileSync } from "node:fs";
import { example } from "../docs.mjs";

writeFileSync(new URL("test/readme.test.js", import.meta.url), example("vitest", "js").text);
