// @ts-check
// lifecycle.js: a registration's life once the module runs (api.js queues
// the calls made before): Go told of it when it needs it, subscribe and the
// teardowns, resourcelistchanged; reads and consumer subscriptions; and the
// replay of the queue.

// The lifecycle of a registration is the loader's: Go is told of a
// registration (mc_register) and of its end (mc_unregister) and calls
// nothing of the page's for it. Around those calls the loader runs the
// teardown of a replaced registration before the new subscribe, calls
// subscribe while the registration is still the current one, and fires
// resourcelistchanged once per call, as the contract says.
//
// Go is told of a registration only once it needs it (see tellGo): a
// template at once, since Go matches uris against templates; a concrete
// resource at its first push or consumer subscription, at once when it
// replaces one Go knows (whose consumer subscriptions it inherits), and at
// once while an MCP server runs (which lists and reads from Go). A
// resource registered and unregistered with none of those never enters Go.

/**
 * registerNow runs the registration of r, already in the table, which
 * replaces old: it tells Go when Go needs it, then runs old's teardown,
 * subscribes r and fires resourcelistchanged.
 * @param {Registration} r
 * @param {Registration | undefined} old
 */
function registerNow(r, old) {
  if (r.template || (old !== undefined && old.inGo) || mcpServers.size > 0) {
    const problem = tellGo(r, old);
    if (problem) {
      leave(r);
      if (old) enter(old);
      throw problem;
    }
  }
  if (old) retire(old);
  // A teardown may have replaced or unregistered r: then it is not subscribed.
  if (r.subscribe !== undefined && r.current) startSubscription(r);
  if (debugOn()) debugLine((old ? 'replaced "' : 'registered "') + r.key + '"');
  listChanged();
}

/**
 * tellGo tells Go of r, which replaces old in Go when old is one Go knows:
 * a template with its fields, a concrete resource without them (Go asks for
 * its uri and mimeType when it needs them: host.describe). It returns the
 * Error Go described for a registration it refused, or null.
 * @param {Registration} r
 * @param {Registration | undefined} [old]
 */
function tellGo(r, old) {
  if (ex.mc_register(r.id, old !== undefined && old.inGo ? old.id : 0, r.template ? encodeRegistration(r) : 0) < 0) return new Error(lastError);
  r.inGo = true;
  regs.set(r.id, r);
  return null;
}

/**
 * toGo makes sure that Go knows r, a current resource, before the loader
 * calls into Go about it.
 * @param {Registration} r
 */
function toGo(r) {
  if (r.inGo) return;
  const problem = tellGo(r);
  if (problem) throw problem;
}

/**
 * unregisterNow ends r, already out of the table: it tells Go when Go
 * knows r, then runs its teardown and fires resourcelistchanged.
 * @param {Registration} r
 */
function unregisterNow(r) {
  if (r.inGo) internal(ex.mc_unregister(r.id));
  retire(r);
  if (debugOn()) debugLine('unregistered "' + r.key + '"');
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
 * retire forgets r, which Go no longer knows, and runs its teardown.
 * @param {Registration} r
 */
function retire(r) {
  if (r.timer !== 0) {
    clearTimeout(r.timer);
    r.timer = 0;
  }
  if (r.inGo) {
    r.inGo = false;
    regs.delete(r.id);
  }
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

// listChanged fires resourcelistchanged, then tells the MCP servers.
function listChanged() {
  dispatch("resourcelistchanged", { resources: list(resources) });
  if (mcpServers.size > 0) internal(ex.mc_list_changed());
}

/** @param {string} uri */
function readNow(uri) {
  try {
    const r = resolve(uri);
    if (!r) return Promise.reject(notFound(uri));
    return Promise.resolve(r.template ? r.get.call(r.desc, JSON.parse(/** @type {string} */ (resolvedParams))) : r.get.call(r.desc));
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * @param {Registration} r
 * @param {Function} handler
 */
function subscribeNow(r, handler) {
  toGo(r);
  const sub = internal(ex.mc_subscribe(r.id));
  if (sub === 0) throw notFound(r.key);
  handlers.set(sub, { f: handler, uri: r.key });
  return sub;
}

// replay runs the queued calls against Go, in order.
function replay() {
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
          registerNow(q.r, enter(q.r));
          break;
        case "unregister":
          if (leave(q.r)) unregisterNow(q.r);
          break;
        case "read":
          readNow(q.uri).then(q.resolve, q.reject);
          break;
        case "subscribe": {
          const r = resources.get(q.uri);
          if (!q.handle.cancelled && r) q.handle.sub = subscribeNow(r, q.handler);
          break;
        }
        case "serve":
          if (!q.handle.stopped) serveNow(q.options, q.handle);
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
function unsubscribeNow(sub) {
  internal(ex.mc_unsubscribe(sub));
}
