// @ts-check
// lifecycle.js: a registration's life once the module runs (api.js queues
// the calls made before): Go told of it, subscribe and the teardowns,
// resourcelistchanged; reads and consumer subscriptions; and the replay of
// the queue.
import { dispatch, mayHear, unheard } from "./events.js";
import { changesNow, noteRegistered, noteRemoved, patchStateOf, stepList } from "./changes.js";
import { frameConnect } from "./frameclient.js";
import { handlers, internal, push, settled } from "./host.js";
import { encodeRegistration, match, regs } from "./lookup.js";
import { noteBooted, noteRegister, noteUnregister } from "./observe.js";
import { deliverToServers, mcpServers, serveNow } from "./server.js";
import { ex } from "./start.js";
import { debugLine, queue, setReady } from "../api.js";
import { deliverEarlyMessages, serveMCP, tagParent } from "../mcp.js";
import { debugOn, script } from "../page.js";
import { list, notFound, resources, tableOf, templates } from "../table.js";
import { quietError, typeName } from "../values.js";
/** @typedef {import("../table.js").Registration} Registration */

// Go holds the registry: which registration is the current one of a key,
// the list and its order, templates, consumer subscriptions. mc_register
// hands Go a registration and answers which one it replaced; mc_unregister
// answers whether it ended a current one. The loader applies those answers
// to its cache (table.js's resources and templates, each registration's
// current, and regs) and never decides them itself once the module runs: a
// replacement takes its predecessor's place in the cache as in Go's list, a
// new key goes last, an unregistration leaves, so that the cache lists in
// Go's order (the test build's cacheDrift checks it). Around those calls it
// runs what only JavaScript can: the teardown of a replaced registration
// before the new subscribe, subscribe while the registration is still the
// current one, and resourcelistchanged once per call, as the contract says.

/**
 * registerNow registers r with Go, which answers the registration r
 * replaces; then the old teardown runs, r is subscribed and
 * resourcelistchanged fires. When Go refuses r, nothing changed and the
 * Error it described is thrown.
 * @param {Registration} r
 */
export function registerNow(r) {
  const replaced = internal(ex.mc_register(r.id, encodeRegistration(r)));
  const old = replaced ? regs.get(replaced) : undefined;
  if (old) old.current = false;
  regs.set(r.id, r);
  // In old's place, as in Go's list; last when one of the page's and a
  // frame's replaces the other (registry.Register).
  if (old && (old.id >= FRAME_ID_BASE) !== (r.id >= FRAME_ID_BASE)) tableOf(r).delete(r.key);
  tableOf(r).set(r.key, r);
  r.current = true;
  noteRegistered(r, old);
  if (old) retire(old);
  // A teardown may have replaced or unregistered r: then it is not subscribed.
  if (r.subscribe !== undefined && r.current) startSubscription(r);
  if (debugOn()) debugLine((old ? 'replaced "' : 'registered "') + r.key + '"');
  noteRegister(r, old);
  listChanged();
}

/**
 * unregisterNow ends r when Go says it was a current registration: the
 * cache forgets it, its teardown runs and resourcelistchanged fires.
 * @param {Registration} r
 */
export function unregisterNow(r) {
  if (internal(ex.mc_unregister(r.id)) === 0) return;
  r.current = false;
  tableOf(r).delete(r.key);
  noteRemoved(r);
  retire(r);
  if (debugOn()) debugLine('unregistered "' + r.key + '"');
  noteUnregister(r);
  listChanged();
}

/**
 * startSubscription calls r's subscribe with its onChange and keeps the
 * teardown it returns.
 * @param {Registration} r
 */
function startSubscription(r) {
  const onChange = r.settle > 0 ? () => settled(r) : () => push(r);
  let t;
  try {
    t = /** @type {Function} */ (r.subscribe).call(r.desc, onChange);
  } catch (e) {
    r.pullOnly = true;
    r.subscribable = false;
    console.error(`modelcontext: subscribe() of "${r.key}" threw; the resource stays registered as pull-only:`, e);
    return;
  }
  if (typeof t !== "function") {
    console.warn(`modelcontext: subscribe() of "${r.key}" returned ${typeName(t)}, not a teardown function; this subscription can never be torn down and leaks`);
    return;
  }
  if (r.current) r.teardown = t;
  else runTeardown(r, t); // replaced or unregistered from inside its own subscribe
}

/**
 * retire forgets r, which Go no longer holds, and runs its teardown.
 * @param {Registration} r
 */
function retire(r) {
  if (r.timer !== 0) {
    clearTimeout(r.timer);
    r.timer = 0;
  }
  regs.delete(r.id);
  const t = r.teardown;
  if (t === null) return;
  r.teardown = null;
  runTeardown(r, t);
}

/**
 * @param {Registration} r
 * @param {Function} t
 */
function runTeardown(r, t) {
  if (debugOn()) debugLine('teardown of "' + r.key + '"');
  try {
    t();
  } catch (e) {
    console.error(`modelcontext: the teardown of "${r.key}" threw:`, e);
  }
}

// While a frame's list is applied (oneListChange), listChanged notes the
// change, and the end of it fires one resourcelistchanged.
let oneChange = 0;
let changedInOne = false;

/**
 * oneListChange runs f, whose registrations and unregistrations fire one
 * resourcelistchanged in all, after it, when they changed anything.
 * @param {() => void} f
 */
export function oneListChange(f) {
  oneChange++;
  try {
    f();
  } finally {
    if (--oneChange === 0 && changedInOne) {
      changedInOne = false;
      listChanged();
    }
  }
}

// listChanged fires resourcelistchanged, unless no listener can hear it
// (page.js's heard), then tells the MCP servers.
function listChanged() {
  if (oneChange > 0) {
    changedInOne = true;
    return;
  }
  const revision = stepList();
  if (mayHear("resourcelistchanged")) dispatch("resourcelistchanged", { resources: list(resources), revision });
  else unheard("resourcelistchanged");
  if (mcpServers.size > 0) internal(ex.mc_list_changed());
}

/**
 * readNow reads uri: its current resource, else the first template that
 * serves it.
 * @param {string} uri
 */
export function readNow(uri) {
  try {
    const r = resources.get(uri);
    if (r) return Promise.resolve(r.get.call(r.desc));
    const m = match(uri);
    if (!m) return Promise.reject(notFound(uri));
    return Promise.resolve(m.r.get.call(m.r.desc, JSON.parse(m.params)));
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * subscribeNow subscribes handler to r's pushes; with patch, it is handed
 * the patch from the value it was handed before (changes.js's patchInfo).
 * @param {Registration} r
 * @param {Function} handler
 * @param {boolean} patch
 */
export function subscribeNow(r, handler, patch) {
  const sub = internal(ex.mc_subscribe(r.id));
  if (sub === 0) throw notFound(r.key);
  handlers.set(sub, { f: handler, uri: r.key, patch: patch ? patchStateOf(r) : null });
  return sub;
}

// replay runs the queued calls against Go, in order.
export function replay() {
  for (const r of resources.values()) r.current = false;
  for (const r of templates.values()) r.current = false;
  resources.clear();
  templates.clear();
  for (let i = 0; i < queue.length; i++) {
    const q = queue[i];
    queue[i] = null;
    try {
      switch (q.op) {
        case "register":
          registerNow(q.r);
          break;
        case "unregister":
          unregisterNow(q.r);
          break;
        case "read":
          readNow(q.uri).then(q.resolve, q.reject);
          break;
        case "subscribe": {
          const r = resources.get(q.uri);
          if (!q.handle.cancelled && r) q.handle.sub = subscribeNow(r, q.handler, q.patch);
          break;
        }
        case "changes":
          q.resolve(changesNow(q.revision));
          break;
        case "serve":
          if (!q.handle.stopped) serveNow(q.options, q.handle);
          break;
        case "frame":
          if (!q.handle.disconnected) frameConnect(q.handle);
          break;
      }
    } catch (e) {
      if (q.reject) q.reject(e);
      else quietError(e);
    }
  }
  queue.length = 0;
}

/**
 * unsubscribeNow ends the consumer subscription sub (subscribeResource's
 * unsubscribe, once the module runs).
 * @param {number} sub
 */
export function unsubscribeNow(sub) {
  internal(ex.mc_unsubscribe(sub));
}

/**
 * booted marks the module ready once start.js's boot has run main, replays
 * the calls made before, serves the MCP server the script tag asks for
 * (data-mcp) and hands the servers the messages that came early (boot.js's
 * start).
 */
export function booted() {
  setReady();
  noteBooted();
  replay();
  if (script && (script.hasAttribute("data-mcp") || script.hasAttribute("data-mcp-parent"))) {
    const channel = script.getAttribute("data-mcp");
    /** @type {any} */
    const options = channel ? { channel } : {};
    if (script.hasAttribute("data-mcp-sessions")) options.sessions = true;
    if (script.hasAttribute("data-mcp-parent")) options.parent = tagParent();
    try {
      serveMCP(options);
    } catch (e) {
      quietError(e); // a bad data-mcp-parent: reported; the module works on
    }
  }
  deliverEarlyMessages(deliverToServers);
}
