// @ts-check
// integrity.js: what an integrity attribute on the script tag vouches for.
// The browser checks the classic script itself against it; the script then
// checks the two files it loads, the runtime (modelcontext-runtime.js) and
// the .wasm, against the SHA-384 hashes it carries, which jsbuild writes into
// it at build time (wasm/cmd/jsbuild/integrity.go). A changed byte in either
// makes ready reject, naming the file. Without the attribute nothing is
// checked. The ES module carries no hashes: a bundler's build is checked as
// the bundle it is part of.
import { script } from "./page.js";

/**
 * carriedHash is the SHA-384 hash this script carries for file ("runtime"
 * or "wasm"), as an integrity value, or "" when it was built without one
 * (jsbuild without -wasm).
 * @param {"runtime" | "wasm"} file
 */
function carriedHash(file) {
  return file === "wasm" ? "__MODELCONTEXT_WASM_SHA384__" : "__MODELCONTEXT_RUNTIME_SHA384__";
}

// checksIntegrity says whether the script's tag has an integrity attribute:
// then what it loads is checked too.
function checksIntegrity() {
  return !!script && typeof script.integrity === "string" && script.integrity !== "";
}

/**
 * integrityOf is the integrity value the file must match: its carried hash,
 * or, when the script carries none, one no file matches (a check that
 * cannot be made fails).
 * @param {"runtime" | "wasm"} file
 */
function integrityOf(file) {
  return carriedHash(file) || "sha384-none";
}

/**
 * fetchVerified fetches the .wasm, checked against its carried hash when the
 * tag has an integrity attribute (fetch's integrity: the response comes only
 * once every byte matched).
 * @param {string} url
 * @returns {Promise<Response>}
 */
export function fetchVerified(url) {
  if (!checksIntegrity()) return fetch(url, { credentials: "same-origin" });
  return fetch(url, { credentials: "same-origin", integrity: integrityOf("wasm") }).catch((e) => mismatch("modelcontext.wasm", url, "wasm", e));
}

/**
 * verifyRuntime resolves once the runtime at url is known to match its
 * carried hash (the classic script then imports it), at once when the tag
 * has no integrity attribute. The check is a <link rel="modulepreload">
 * with the hash as its integrity: the browser fetches and checks the module
 * and keeps it in the document's module map, where the import() that follows
 * finds it; one that failed the check is never run.
 * @param {string} url
 * @returns {Promise<void>}
 */
export function verifyRuntime(url) {
  if (!checksIntegrity() || url === "") return Promise.resolve();
  return /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.integrity = integrityOf("runtime");
    if (script && script.nonce) link.nonce = script.nonce;
    link.onload = () => resolve();
    link.onerror = () => reject(new Error("the browser could not load it"));
    link.href = url;
    (document.head || document.documentElement).append(link);
  })).catch((e) => mismatch(RUNTIME_FILE, url, "runtime", e));
}

/**
 * mismatch explains a load that failed under integrity: when the file can
 * be fetched without the check, its bytes are not the ones the script
 * carries a hash of; else the load failed for another reason, given as e.
 * @param {string} name the file's name
 * @param {string} url
 * @param {"runtime" | "wasm"} file
 * @param {any} e
 * @returns {Promise<never>}
 */
async function mismatch(name, url, file, e) {
  let fetched = false;
  try {
    fetched = (await fetch(url, { credentials: "same-origin", cache: "no-store" })).ok;
  } catch {}
  if (!fetched) throw e;
  if (!carriedHash(file)) {
    throw new Error(`modelcontext: the script tag has an integrity attribute, but this modelcontext.js carries no hash of ${name} to check "${url}" against (it was built without jsbuild -wasm); build it with make build`);
  }
  throw new Error(`modelcontext: ${name} ("${url}") does not match the SHA-384 hash that modelcontext.js carries for it (the script tag has an integrity attribute): a changed byte, or a file from another build; serve the ${name} of the same build as modelcontext.js`);
}
