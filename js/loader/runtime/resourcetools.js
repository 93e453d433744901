// @ts-check
// resourcetools.js: what the resource tools (tools.js) answer, on the
// browser's own WebMCP (the values themselves) or a polyfill (MCP
// CallToolResults).

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
 * uris read_resource reads like any other).
 * @param {boolean} native
 */
async function listTool(native) {
  const answers = native ? valueAnswers : callToolResults;
  if (devtools.hook !== null) inspectEmit("tool", { name: "list_resources", host: native ? "WebMCP" : "polyfill" });
  try {
    return answers.list(getResources().map(mcpInfo).concat(getResourceTemplates().map(mcpInfo)));
  } catch (e) {
    return answers.failure(describe(e)); // the module failed to load: ready's message
  }
}

/**
 * readTool answers read_resource.
 * @param {boolean} native
 * @param {any} input
 */
async function readTool(native, input) {
  const answers = native ? valueAnswers : callToolResults;
  let uri;
  try {
    uri = input !== null && typeof input === "object" ? input.uri : undefined;
  } catch {}
  if (typeof uri !== "string") {
    return answers.failure(`modelcontext: read_resource needs {"uri": "<a uri from list_resources>"}; "uri" was ${typeName(uri)}`);
  }
  let v;
  try {
    // The read is the tool's, for the DevTools panel's timeline.
    devtools.by = native ? "tool on WebMCP" : "tool on a polyfill";
    let p;
    try {
      p = readResource(uri);
    } finally {
      devtools.by = "";
    }
    v = await p;
    if (typeof Blob !== "undefined" && v instanceof Blob) {
      const type = v.type;
      return answers.binary(uri, mimeTypeOf(uri, type), base64(new Uint8Array(await v.arrayBuffer())));
    }
  } catch (e) {
    return answers.failure(readFailure(uri, e));
  }
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) {
    const bytes = v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    return answers.binary(uri, mimeTypeOf(uri, ""), base64(bytes));
  }
  try {
    return answers.value(uri, v);
  } catch (e) {
    return answers.failure(`modelcontext: the value of "${uri}" cannot be sent as JSON: ${describe(e)}`);
  }
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
