// pieces.mjs: the JavaScript of the repository in small pieces (make
// check-loader). Every function in a file given (a declaration, an
// expression, an arrow, a method or an accessor) is at most 100 lines,
// measured by TypeScript's parser from its first line to its last. A file
// over 600 lines is only a warning: files are split by concept, not to fit a
// number.
// Each file must also compile as what it is: the loader's (js/loader,
// js/testhooks, which wasm/cmd/jsbuild bundles), the framework bindings
// (js/react, js/vue) and their helpers (js/bindings) as ES modules, the
// others as classic scripts (a file whose code moved out of a function into
// a block fails here if it still returns at its top level). It prints what is wrong and exits 1.
//
//   node pieces.mjs FILE...
import fs from "node:fs";
import vm from "node:vm";
import ts from "typescript";

const LONG_FILE = 600;
const MAX_FUNCTION = 100;

let over = 0;
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, "utf8");
  const esModule = /(^|\/)js\/(react|vue|bindings|loader|testhooks)\//.test(file);
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  try {
    if (!esModule) new vm.Script(text, { filename: file });
    else if (src.parseDiagnostics.length > 0) throw new Error(ts.flattenDiagnosticMessageText(src.parseDiagnostics[0].messageText, " "));
  } catch (e) {
    console.log(`${file}: not ${esModule ? "an ES module" : "a classic script"}: ${e.message}`);
    over++;
  }
  const lines = src.getLineAndCharacterOfPosition(text.length).line + 1;
  if (lines > LONG_FILE) console.log(`warning: ${file}: ${lines} lines; does it hold one concept?`);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1;
      const last = src.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      if (last - first + 1 > MAX_FUNCTION) {
        const name = node.name ? node.name.getText(src) : "(anonymous)";
        console.log(`${file}:${first}: function ${name} is ${last - first + 1} lines (at most ${MAX_FUNCTION})`);
        over++;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
}
if (over > 0) process.exit(1);
