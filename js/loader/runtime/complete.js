// @ts-check
// complete.js: completion of a template's variables for the MCP server
// (completion/complete). Go checks the request and the answer and cuts it
// (wasm/mcp/complete.go); this calls the page's completer and hands Go what
// it gave, or why it gave nothing.
import { encodeField } from "./encode.js";
import { regs } from "./lookup.js";
import { flushOutgoing, inMessage } from "./server.js";
import { ex } from "./start.js";
import { isReady } from "../api.js";
import { describe, isThenable, kindOf } from "../values.js";

// completeTimeout is how long, in ms, a completer's Promise may take before
// its completion answers an error instead (the test build's hooks shorten
// it): a completer that never settles holds nothing else back.
let completeTimeout = 5000;

/**
 * setCompleteTimeout sets completeTimeout (the test build's hooks).
 * @param {number} ms
 */
export function setCompleteTimeout(ms) {
  completeTimeout = ms;
}

/**
 * mcpComplete calls the completer of variable name of registration id,
 * `complete[name](value, {arguments})`; a template or variable without one
 * completes to no values.
 * @param {number} server
 * @param {number} req
 * @param {number} id
 * @param {string} name
 * @param {string} value
 * @param {string} args the arguments already chosen, a JSON object
 */
export function mcpComplete(server, req, id, name, value, args) {
  const r = regs.get(id);
  const pair = r && r.completers ? r.completers.find((p) => p[0] === name) : undefined;
  if (!r || !pair) {
    completeDone(server, req, false, []);
    return;
  }
  let v, later;
  try {
    v = pair[1].call(r.complete, value, { arguments: JSON.parse(args) });
    later = isThenable(v); // which reads v.then: it may throw too
  } catch (e) {
    completeDone(server, req, true, describe(e));
    return;
  }
  if (!later) {
    completeDone(server, req, false, v);
    return;
  }
  let settled = false;
  const timer = setTimeout(() => {
    settled = true;
    completeDone(server, req, true, `the completer did not answer within ${completeTimeout} ms`);
  }, completeTimeout);
  Promise.resolve(v).then(
    (x) => {
      if (settled) return;
      clearTimeout(timer);
      completeDone(server, req, false, x);
    },
    (e) => {
      if (settled) return;
      clearTimeout(timer);
      completeDone(server, req, true, describe(e));
    },
  );
}

/**
 * completeDone hands Go a completer's values (its array copied, since its
 * items are read to encode them), or the message of its failure.
 * @param {number} server
 * @param {number} req
 * @param {boolean} failed
 * @param {any} v
 */
function completeDone(server, req, failed, v) {
  if (!isReady()) return;
  if (!failed && kindOf(v) === K_ARRAY) {
    try {
      v = Array.prototype.slice.call(v);
    } catch (e) {
      (failed = true), (v = describe(e));
    }
  }
  ex.mc_mcp_complete_done(server, req, failed ? 1 : 0, encodeField(v));
  if (!inMessage) flushOutgoing(); // an asynchronous completion: nothing of Go's is on the stack
}
