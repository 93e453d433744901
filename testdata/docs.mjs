// docs.mjs finds the code examples in the repository's Markdown files, as
// wasm/internal/docs does for the Go tests: the block after a
// "<!-- example: NAME -->" marker, wherever a guide keeps it.
//
//	import { example, blocks } from "../docs.mjs";
//	example("vitest", "js")  // {file, line, lang, text}, or throws
//	blocks("ts")            // every ```ts block of every guide
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "..");
const skip = new Set([".git", ".cache", "node_modules", "dist", "out"]);

function markdownFiles(dir) {
  const files = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory()) {
      if (!skip.has(e.name)) files.push(...markdownFiles(join(dir, e.name)));
    } else if (e.name.endsWith(".md")) {
      files.push(join(dir, e.name));
    }
  }
  return files;
}

// parse returns a file's blocks, its markers (name -> index of the first
// block after it) and where its sections start (block indexes after a
// heading or a marker).
function parse(path) {
  const file = relative(root, path);
  const lines = readFileSync(path, "utf8").split("\n");
  const doc = { file, blocks: [], markers: new Map(), sections: [] };
  let pending = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = /^\s*<!-- example: (\S+) -->\s*$/.exec(line);
    if (m) {
      if (doc.markers.has(m[1]) || pending.includes(m[1])) throw new Error(`${file}:${i + 1}: a second <!-- example: ${m[1]} -->`);
      pending.push(m[1]);
      doc.sections.push(doc.blocks.length);
      continue;
    }
    if (line.startsWith("#")) {
      doc.sections.push(doc.blocks.length);
      continue;
    }
    const f = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!f) continue;
    const indent = line.length - line.trimStart().length;
    let end = i + 1;
    while (end < lines.length && lines[end].trim() !== f[1]) end++;
    if (end === lines.length) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    const text = lines.slice(i + 1, end).map((l) => (l.slice(0, indent).trim() === "" ? l.slice(indent) : l)).join("\n") + "\n";
    for (const name of pending) doc.markers.set(name, doc.blocks.length);
    pending = [];
    doc.blocks.push({ file, line: i + 1, lang: f[2].trim(), text });
    i = end;
  }
  if (pending.length) throw new Error(`${file}: <!-- example: ${pending[0]} --> has no code block after it`);
  return doc;
}

let cache;
function all() {
  cache ??= markdownFiles(root).map(parse);
  return cache;
}

// example returns the first block in language lang (any if lang is empty)
// after the marker of the example name, up to the next marker or heading.
// The marker must be in exactly one file.
export function example(name, lang = "") {
  const found = [];
  for (const doc of all()) {
    if (!doc.markers.has(name)) continue;
    const first = doc.markers.get(name);
    const end = doc.sections.find((s) => s > first) ?? doc.blocks.length;
    const b = doc.blocks.slice(first, end).find((b) => !lang || b.lang === lang);
    if (!b) throw new Error(`${doc.file}: no \`\`\`${lang} block after <!-- example: ${name} -->`);
    found.push(b);
  }
  if (found.length === 0) throw new Error(`no Markdown file has <!-- example: ${name} -->`);
  if (found.length > 1) throw new Error(`<!-- example: ${name} --> is in both ${found[0].file} and ${found[1].file}`);
  return found[0];
}

// blocks returns every block in language lang of the given files (paths
// from the repository root), or of every Markdown file when none are given.
export function blocks(lang, files = []) {
  const docs = files.length ? files.map((f) => parse(resolve(root, f))) : all();
  return docs.flatMap((d) => d.blocks.filter((b) => b.lang === lang));
}

// Run as a program, it prints each example's name, file and line as JSON,
// for wasm/internal/docs's test that both finders agree.
if (process.argv[1] === import.meta.filename) {
  const out = {};
  for (const doc of all()) for (const name of doc.markers.keys()) out[name] = (({ file, line }) => ({ file, line }))(example(name));
  console.log(JSON.stringify(out));
}
