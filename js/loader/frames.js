// @ts-check
// frames.js: connectFrame, checked at the call. The connection itself is
// the runtime's (runtime/frameclient.js), made once the module runs;
// connecting is a consumer contact, so it starts the module.
import { frameConnect, frameDisconnect } from "./runtime/frameclient.js";
import { FAILED, READY, failure, queue, state } from "./api.js";
import { bootStarted, wake } from "./boot.js";
import { typeName } from "./values.js";

/**
 * @typedef {object} FrameHandle one connectFrame call
 * @property {HTMLIFrameElement} iframe
 * @property {string} origin the exact origin the frame's page must have
 * @property {boolean} disconnected its disconnect was called
 * @property {any} conn the runtime's connection, once made
 */

/**
 * connectFrame lists the resources and templates of the page in iframe
 * (served for this page, from origin) after the page's own, until the
 * returned disconnect is called.
 * @param {any} iframe
 * @param {any} options {origin}
 */
export function connectFrame(iframe, options) {
  if (typeof HTMLIFrameElement === "undefined" || !(iframe instanceof HTMLIFrameElement)) {
    throw new TypeError(`modelcontext: connectFrame: "iframe" must be an HTMLIFrameElement, got ${typeName(iframe)}`);
  }
  if (options === null || typeof options !== "object") {
    throw new TypeError(`modelcontext: connectFrame: the options must be an object {origin}, got ${typeName(options)}`);
  }
  const origin = options.origin;
  if (!isExactOrigin(origin)) {
    const got = typeof origin === "string" ? `"${origin}"` : typeName(origin);
    throw new TypeError(`modelcontext: connectFrame: "origin" must be the exact origin of the frame's page, like "https://widget.example" (scheme, host and port; no path, no "*"), got ${got}`);
  }
  if (!bootStarted) wake("connectFrame was called");
  if (state === FAILED) throw failure;
  /** @type {FrameHandle} */
  const handle = { iframe, origin, disconnected: false, conn: null };
  if (state === READY) frameConnect(handle);
  else queue.push({ op: "frame", handle });
  return function disconnect() {
    if (handle.disconnected) return;
    handle.disconnected = true;
    if (state === READY) frameDisconnect(handle);
  };
}

/**
 * isExactOrigin says whether o is an origin as the URL parser writes it:
 * "https://host[:port]", nothing more.
 * @param {any} o
 */
function isExactOrigin(o) {
  if (typeof o !== "string") return false;
  try {
    const u = new URL(o);
    return u.origin !== "null" && u.origin === o;
  } catch {
    return false;
  }
}
