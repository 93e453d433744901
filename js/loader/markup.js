// @ts-check
// markup.js: resources with no code. The page itself (data-page-resource,
// registerPageResource), and registerMarked, through which the declarative
// resources of runtime/declarative.js register. Both are producers: they
// register through registerResource and never start the module. Watching
// the DOM is the loader's, not Go's.

const PAGE_URI = "page://location";

/**
 * registerPageResource registers the page as a resource: {url, title},
 * pushed when either changes (history.pushState and replaceState, back and
 * forward, hash changes, Navigation API navigations, a new title).
 * @param {any} [options] {uri = "page://location", name = "page"}
 */
function registerPageResource(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new TypeError(`modelcontext: registerPageResource: the options must be an object, got ${typeName(options)}`);
  }
  const o = options || {};
  return registerResource({
    uri: o.uri === undefined ? PAGE_URI : o.uri,
    name: o.name === undefined ? "page" : o.name,
    title: "The page the visitor is on",
    description: "The address and title of the page in the visitor's tab, updated on every navigation.",
    get: () => ({ url: location.href, title: document.title }),
    subscribe: (/** @type {() => void} */ onChange) => watchPage(onChange),
  });
}

/**
 * registerMarked registers a declarative resource's descriptor, marked as
 * markup's so that page code replaces it and it never replaces page code's.
 * @param {any} desc
 */
function registerMarked(desc) {
  markupRegistering = true;
  try {
    return registerResource(desc);
  } finally {
    markupRegistering = false;
  }
}
