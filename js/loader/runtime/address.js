// @ts-check
// address.js: the page resource's subscribe (markup.js's registerPageResource):
// it follows the page's address and title once the module runs.

/** @type {Set<() => void>} the onChange of each page resource */
const pageWatchers = new Set();

let pageHooked = false;

/**
 * watchPage is a page resource's subscribe: the changes of one task (a
 * navigation that also sets the title) make one onChange, in a microtask.
 * @param {() => void} onChange
 */
export function watchPage(onChange) {
  let queued = false;
  const notify = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      onChange();
    });
  };
  pageWatchers.add(notify);
  if (!pageHooked) hookPage();
  return () => pageWatchers.delete(notify);
}

// hookPage listens, once, for every way the page's address or title
// changes. history.pushState and replaceState fire no event, so they are
// wrapped (keeping their behaviour and their this).
function hookPage() {
  pageHooked = true;
  const changed = () => pageWatchers.forEach((f) => f());
  for (const name of /** @type {const} */ (["pushState", "replaceState"])) {
    const original = history[name];
    history[name] = function (/** @type {any[]} */ ...args) {
      const out = original.apply(this, /** @type {any} */ (args));
      changed();
      return out;
    };
  }
  window.addEventListener("popstate", changed);
  window.addEventListener("hashchange", changed);
  const nav = /** @type {any} */ (globalThis).navigation;
  if (nav && typeof nav.addEventListener === "function") nav.addEventListener("currententrychange", changed);
  new MutationObserver(changed).observe(document.head || document.documentElement, { subtree: true, childList: true, characterData: true });
}
