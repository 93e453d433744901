// @ts-check
// resourcetools.js: what the resource tools (tools.js) answer, on the
// browser's own WebMCP (the values themselves) or a polyfill (MCP
// CallToolResults).
import { changesNow, parsedSnap, patchBetween, snapOf } from "./changes.js";
import { match } from "./lookup.js";
import { noteTool, noteToolGave, readFor } from "./observe.js";
import { base64 } from "./server.js";
import { getResourceTemplates, getResources, pageRevision } from "../api.js";
import { ready } from "../boot.js";
import { resources } from "../table.js";
import { describe, typeName } from "../values.js";
/** @typedef {import("./changes.js").Snap} Snap */

/**
 * @typedef {object} Answers how the tools answer on one kind of host
 * @property {(list: any[]) => any} list
 * @property {(uri: string, value: any) => any} value a value that is not binary
 * @property {(uri: string, mimeType: string, base64: string) => any} binary
 * @property {(message: string) => any} failure
 */

// The tools and their descriptions (which do not name the resources, and
// why) are tools.js's.

/**
 * listTool answers list_resources: the resources, then the templates (whose
 * uris read_resource reads like any other), as getResources lists them (a
 * connected frame's with its origin) but for subscribable.
 * @param {boolean} native
 */
export async function listTool(native) {
  const answers = native ? valueAnswers : callToolResults;
  noteTool("list_resources", native);
  try {
    const list = getResources().concat(getResourceTemplates());
    for (const info of list) delete info.subscribable;
    return answers.list(list);
  } catch (e) {
    return answers.failure(describe(e)); // the module failed to load: ready's message
  }
}

/**
 * readTool answers read_resource.
 * @param {boolean} native
 * @param {any} input
 */
export async function readTool(native, input) {
  const answers = native ? valueAnswers : callToolResults;
  let uri;
  try {
    uri = input !== null && typeof input === "object" ? input.uri : undefined;
  } catch {}
  if (typeof uri !== "string") {
    return answers.failure(`modelcontext: read_resource needs {"uri": "<a uri from list_resources>"}; "uri" was ${typeName(uri)}`);
  }
  const got = await readForTool(native, uri);
  if (got.error !== undefined) return answers.failure(got.error);
  if (got.blob !== undefined) return answers.binary(uri, /** @type {string} */ (got.mimeType), got.blob);
  try {
    return answers.value(uri, got.value);
  } catch (e) {
    return answers.failure(`modelcontext: the value of "${uri}" cannot be sent as JSON: ${describe(e)}`);
  }
}

/**
 * readForTool reads uri for a tool: its value, binary content in base64
 * with its MIME type, or the failure's message.
 * @param {boolean} native
 * @param {string} uri
 * @returns {Promise<{value?: any, mimeType?: string, blob?: string, error?: string}>}
 */
async function readForTool(native, uri) {
  let v;
  try {
    v = await readFor(native, uri);
    if (typeof Blob !== "undefined" && v instanceof Blob) {
      const type = v.type;
      return { mimeType: mimeTypeOf(uri, type), blob: base64(new Uint8Array(await v.arrayBuffer())) };
    }
  } catch (e) {
    return { error: readFailure(uri, e) };
  }
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) {
    const bytes = v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return { mimeType: mimeTypeOf(uri, ""), blob: base64(bytes) };
  }
  return { value: v };
}

// What read_changes last gave the agent: the revision of its answer, and
// each uri's value as JSON text (its patches are made against these).
const toolGave = { revision: -1, uris: /** @type {Map<string, Snap>} */ (new Map()) };

/**
 * changesTool answers read_changes({since?}): the values (or patches against
 * what it gave before) of the resources added or updated since since, and
 * the uris removed; every value, and reset, without since or when since is
 * too old.
 * @param {boolean} native
 * @param {any} input
 */
export async function changesTool(native, input) {
  const answers = native ? valueAnswers : callToolResults;
  noteTool("read_changes", native);
  let since;
  try {
    since = input !== null && typeof input === "object" ? input.since : undefined;
    await /** @type {Promise<void>} */ (ready); // its then starts the module
  } catch (e) {
    return answers.failure(describe(e));
  }
  if (since !== undefined && !(Number.isInteger(since) && since >= 0 && since <= pageRevision.value)) {
    return answers.failure(`modelcontext: read_changes: "since" must be the revision of its previous answer, an integer from 0 to ${pageRevision.value}; got ${typeName(since)} ${String(since)}`);
  }
  const c = since === undefined ? null : changesNow(since);
  const revision = pageRevision.value;
  const listed = getResources();
  const reset = c === null || c.reset === true;
  const want = c === null || c.reset === true ? null : new Set(/** @type {string[]} */ (c.added).concat(/** @type {string[]} */ (c.updated)));
  const patchable = !reset && since === toolGave.revision;
  if (reset) toolGave.uris.clear();
  const read = await Promise.all(listed.filter((d) => want === null || want.has(d.uri)).map((d) => changeOf(native, d.uri, d.name, patchable)));
  const changes = read.filter((c) => c !== null);
  if (c !== null && !reset) {
    for (const uri of /** @type {string[]} */ (c.removed)) {
      changes.push({ uri, removed: true });
      toolGave.uris.delete(uri);
    }
  }
  toolGave.revision = revision;
  noteToolGave(native, revision, since, changes, toolGave.uris);
  return answers.value("", reset ? { revision, reset: true, changes } : { revision, changes });
}

/**
 * changeOf is read_changes' entry for uri: its value, or a patch against
 * the value the tool gave before where patchable and shorter; null when
 * that patch is empty.
 * @param {boolean} native
 * @param {string} uri
 * @param {string} name
 * @param {boolean} patchable
 * @returns {Promise<any>}
 */
async function changeOf(native, uri, name, patchable) {
  const got = await readForTool(native, uri);
  const prev = patchable ? toolGave.uris.get(uri) : undefined;
  toolGave.uris.delete(uri);
  if (got.error !== undefined) return { uri, name, error: got.error };
  if (got.blob !== undefined) return { uri, name, mimeType: got.mimeType, blob: got.blob };
  let text;
  try {
    text = JSON.stringify(got.value);
  } catch (e) {
    return { uri, name, error: `modelcontext: the value of "${uri}" cannot be sent as JSON: ${describe(e)}` };
  }
  const cur = snapOf(text === undefined ? "null" : text);
  toolGave.uris.set(uri, cur);
  const p = patchBetween(prev, cur);
  // Pushed since, but back to what the agent was given: nothing to say.
  if (p !== null && p.ops.length === 0) return null;
  if (p !== null && p.text.length < cur.text.length) return { uri, name, patch: p.ops };
  return { uri, name, value: parsedSnap(cur) };
}

/**
 * readFailure is the message of a failed read, naming the uri: an unknown
 * uri's own message names it already.
 * @param {string} uri
 * @param {any} e
 */
function readFailure(uri, e) {
  const m = describe(e);
  return m.includes(`"${uri}"`) ? m : `modelcontext: reading "${uri}" failed: ${m}`;
}

/**
 * mimeTypeOf is the MIME type of uri's resource (or template), else the
 * Blob's own type, else application/octet-stream.
 * @param {string} uri
 * @param {string} blobType
 */
function mimeTypeOf(uri, blobType) {
  try {
    const r = resources.get(uri);
    if (r) return r.mimeType;
    const m = match(uri);
    if (m) return m.r.mimeType;
  } catch {}
  return blobType || "application/octet-stream";
}

/** @type {Answers} the browser's own WebMCP: the values themselves */
const valueAnswers = {
  list: (list) => list,
  value(uri, v) {
    // On a value that JSON.stringify throws for (a cycle, a BigInt) the
    // platform would fail the invocation without a message: this throws
    // first, and read_resource answers why.
    return JSON.stringify(v) === undefined ? null : v;
  },
  binary: (uri, mimeType, blob) => ({ uri, mimeType, blob }),
  failure: (message) => ({ error: message }),
};

/**
 * @param {string} t
 * @returns {{content: {type: "text", text: string}[]}}
 */
function textContent(t) {
  return { content: [{ type: "text", text: t }] };
}

/** @type {Answers} a polyfill: MCP CallToolResults */
const callToolResults = {
  list: (list) => textContent(JSON.stringify(list)),
  value(uri, v) {
    const text = typeof v === "string" ? v : JSON.stringify(v);
    return textContent(text === undefined ? "null" : text);
  },
  binary: (uri, mimeType, blob) => textContent("base64:" + blob),
  failure: (message) => ({ ...textContent(message), isError: true }),
};
