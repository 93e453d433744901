// @ts-check
// tools.js: the tool fallback, the resources as read-only tools.
//
// Two kinds of host give document.modelContext a registerTool, and they hand
// what a tool's execute returns to the agent in different ways:
//
//   - The browser's own WebMCP (Chromium's ModelContext, a platform object):
//     executeTool gives the agent the JSON of the value execute returned (a
//     string as it is), and turns a thrown error into "the invocation failed",
//     losing its message. So the tools answer the value itself, binary values
//     as {uri, mimeType, blob} (base64), and a failure as {error: message}.
//   - A polyfill written in JavaScript (MCP-B's @mcp-b/global) serves the
//     tools to MCP clients: the tools answer MCP CallToolResults, text
//     content, with isError: true on a failure.
//
// The host is the browser's own when its registerTool is built into the
// browser (isBuiltIn). Both kinds take registerTool(tool, {signal}) and
// remove a tool when the signal is aborted; an older polyfill returns
// {unregister} instead, which removal calls too.

/**
 * @typedef {object} ResourceTool what registerTool is given
 * @property {string} name
 * @property {string} description
 * @property {object} inputSchema
 * @property {{readOnlyHint: boolean}} annotations
 * @property {(input: any) => Promise<any>} execute
 */

/** @type {(() => void) | null} the remover of the tools while they are registered */
let removeResourceTools = null;

/**
 * registerResourceTools registers list_resources and read_resource with the
 * page's registerTool (native WebMCP or a polyfill), for agents that only
 * speak tools. It returns a function that removes them. While they are
 * registered, calling it again registers nothing and returns the same
 * function; once that has been called, calling it registers them again.
 *
 * A registration that the host refuses (say, a tool of that name exists
 * already) is reported with console.error, never left as an unhandled
 * rejection; one that rejects because removal aborted it is not reported.
 */
function registerResourceTools() {
  if (typeof mc.registerTool !== "function") {
    throw new Error("modelcontext: registerResourceTools needs document.modelContext.registerTool (WebMCP or a polyfill such as @mcp-b/global)");
  }
  if (removeResourceTools) return removeResourceTools;
  const answers = isBuiltIn(mc.registerTool) ? valueAnswers : callToolResults;
  const controller = new AbortController();
  /** @type {(() => void)[]} */
  const unregisters = [];
  for (const tool of resourceTools(answers)) {
    /** @param {any} e */
    const refused = (e) => {
      if (!controller.signal.aborted) console.error(`modelcontext: registerResourceTools: the tool "${tool.name}" could not be registered:`, e);
    };
    let r;
    try {
      r = mc.registerTool(tool, { signal: controller.signal });
    } catch (e) {
      refused(e);
      continue;
    }
    if (isThenable(r)) Promise.resolve(r).catch(refused);
    else if (r !== null && typeof r === "object" && typeof r.unregister === "function") unregisters.push(() => r.unregister());
  }
  const remove = function removeTools() {
    if (removeResourceTools !== remove) return;
    removeResourceTools = null;
    controller.abort();
    for (const u of unregisters) {
      try {
        u();
      } catch (e) {
        quietError("modelcontext: removing the resource tools failed:", e);
      }
    }
  };
  removeResourceTools = remove;
  return remove;
}

/**
 * isBuiltIn tells a function built into the browser (a platform object's
 * method) from one written in JavaScript: only a built-in one's source reads
 * "{ [native code] }" under its own name. A polyfill may copy the platform's
 * names and Symbol.toStringTag, but its functions show their source, and a
 * bound function is named "bound ...".
 * @param {Function} f
 */
function isBuiltIn(f) {
  try {
    return f.name === "registerTool" && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));
  } catch {
    return false;
  }
}

/**
 * @typedef {object} Answers how the tools answer on one kind of host
 * @property {(list: any[]) => any} list
 * @property {(uri: string, value: any) => any} value a value that is not binary
 * @property {(uri: string, mimeType: string, base64: string) => any} binary
 * @property {(message: string) => any} failure
 */

// The tools' descriptions do not name the page's resources: the list is live
// and a tool's description is fixed when it is registered. Keeping it current
// would mean registering the tools again on every change of the list (the
// tools missing in between, and a toolchange each time), and following the
// list would start the module on every visit, agent or not. The agent pays
// one list_resources call instead.

/**
 * resourceTools returns the two tools, answering as answers says.
 * @param {Answers} answers
 * @returns {ResourceTool[]}
 */
function resourceTools(answers) {
  return [
    {
      name: "list_resources",
      description: "Lists the live resources of this page (named slices of its current state, such as a cart or the route): uri, name, description and MIME type of each. Read one with read_resource.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      execute: async () => {
        try {
          return answers.list(getResources().map(mcpInfo));
        } catch (e) {
          return answers.failure(describe(e)); // the module failed to load: ready's message
        }
      },
    },
    {
      name: "read_resource",
      description: "Reads the current value of one live resource of this page by its uri (see list_resources). The value is read when asked, never cached.",
      inputSchema: { type: "object", properties: { uri: { type: "string", description: "The resource's uri, as list_resources gives it" } }, required: ["uri"] },
      annotations: { readOnlyHint: true },
      execute: async (/** @type {any} */ input) => {
        let uri;
        try {
          uri = input !== null && typeof input === "object" ? input.uri : undefined;
        } catch {}
        if (typeof uri !== "string") {
          return answers.failure(`modelcontext: read_resource needs {"uri": "<a uri from list_resources>"}; "uri" was ${typeName(uri)}`);
        }
        let v;
        try {
          v = await readResource(uri);
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
      },
    },
  ];
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
    const r = resolve(uri);
    if (r) return r.mimeType;
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
