// @ts-check
// tools.js: the tool fallback, the resources as read-only tools for agents
// that only speak tools: registerResourceTools registers them at once;
// calling one is a consumer contact, answered by the runtime
// (runtime/resourcetools.js).
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
import { changesTool, listTool, readTool } from "./runtime/resourcetools.js";
import { failure } from "./api.js";
import { doc, mc } from "./page.js";
import { describe, isThenable, quietError } from "./values.js";

/**
 * @typedef {object} ResourceTool what registerTool is given
 * @property {string} name
 * @property {string} description
 * @property {object} inputSchema
 * @property {{readOnlyHint: boolean, untrustedContentHint: boolean}} annotations
 * @property {(input: any) => Promise<any>} execute
 */

/** @type {(() => void) | null} the remover of the tools while they are registered */
export let removeResourceTools = null;

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
export function registerResourceTools() {
  if (!doc && failure) throw failure;
  if (typeof mc.registerTool !== "function") {
    throw new Error("modelcontext: registerResourceTools needs document.modelContext.registerTool (WebMCP or a polyfill such as @mcp-b/global)");
  }
  if (removeResourceTools) return removeResourceTools;
  const controller = new AbortController();
  /** @type {(() => void)[]} */
  const unregisters = [];
  for (const tool of resourceTools(isBuiltIn(mc.registerTool))) {
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

// The tools' descriptions do not name the page's resources: the list is live
// and a tool's description is fixed when it is registered. Keeping it current
// would mean registering the tools again on every change of the list (the
// tools missing in between, and a toolchange each time), and following the
// list would start the module on every visit, agent or not. The agent pays
// one list_resources call instead.
//
// The tools are read-only, and what they answer may hold what the page's
// visitors wrote (a review, a comment): untrustedContentHint tells the agent
// to treat it as data, not as instructions.

/**
 * resourceTools returns the three tools; native says how they answer (the
 * runtime's answers). A runtime that cannot be loaded is a failure answer.
 * @param {boolean} native
 * @returns {ResourceTool[]}
 */
function resourceTools(native) {
  /** @param {any} e */
  const failed = (e) => (native ? { error: describe(e) } : { content: [{ type: "text", text: describe(e) }], isError: true });
  return [
    {
      name: "list_resources",
      description: "Lists the live resources of this page (named slices of its current state, such as a cart or the route): uri, name, description and MIME type of each, then its resource templates (uriTemplate instead of uri, e.g. app://orders/{id}: read one by filling in its {variables}). Read one with read_resource.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true, untrustedContentHint: true },
      execute: () => loadRuntime().then(() => listTool(native), failed),
    },
    {
      name: "read_resource",
      description: "Reads the current value of one live resource of this page by its uri (see list_resources; for a template, its uriTemplate with the {variables} filled in). The value is read when asked, never cached.",
      inputSchema: { type: "object", properties: { uri: { type: "string", description: "The resource's uri, as list_resources gives it" } }, required: ["uri"] },
      annotations: { readOnlyHint: true, untrustedContentHint: true },
      execute: (/** @type {any} */ input) => loadRuntime().then(() => readTool(native, input), failed),
    },
    {
      name: "read_changes",
      description: "Tells what changed on this page since you last looked, so you need not read everything again. The first time, call it without arguments: it answers every resource's value, and a revision. Keep that revision and pass it back as since next time: it answers only the resources added or changed since (a value, or an RFC 6902 patch against the value it gave you before) and those removed, with a new revision to keep. reset: true means it gave every value again.",
      inputSchema: { type: "object", properties: { since: { type: "integer", minimum: 0, description: "The revision of this tool's previous answer" } } },
      annotations: { readOnlyHint: true, untrustedContentHint: true },
      execute: (/** @type {any} */ input) => loadRuntime().then(() => changesTool(native, input), failed),
    },
  ];
}
