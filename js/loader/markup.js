// @ts-check
// markup.js: resources with no code. Declarative resources (elements with
// data-resource, on a page whose script tag has data-declarative) and the
// page itself (data-page-resource, registerPageResource; its subscribe,
// which follows the address, is the runtime's: runtime/page.js). Both are
// producers: they register through registerResource and never start the
// module. Watching the DOM is the loader's, not Go's.

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

/**
 * @typedef {object} Marked an element that is a declarative resource
 * @property {string} uri
 * @property {string} key its data-* attributes, to tell a change of them
 * @property {() => void} unregister
 * @property {(() => void) | null} onChange set while its subscription runs
 */

/** @type {Map<Element, Marked>} */
const marked = new Map();

// refused holds the elements ignored for their uri, with their attributes'
// key then: one warning each, though a parsed element is seen more than once.
/** @type {WeakMap<Element, string>} */
const refused = new WeakMap();

/** @type {string} only elements strictly inside a match count; "" is the whole document */
let markupScope = "";

// markupNonce is the script tag's nonce: when it has one, only elements whose
// data-nonce equals it count, so that a visitor's markup (a review, a
// comment), which cannot know the per-response nonce, never becomes a
// resource. It is read from the nonce property: browsers hide the attribute
// once the tag is parsed. The ES module has no declarative markup (it has no
// tag to carry data-declarative), so nothing plays the nonce there.
let markupNonce = "";

const MARKUP_ATTRIBUTES = ["data-resource", "data-name", "data-title", "data-description", "data-mime-type", "data-nonce", "type"];

/**
 * watchMarkup registers the declarative resources in the document and
 * those added later, strictly inside scope (a CSS selector, or "" for all).
 * @param {string} scope
 */
function watchMarkup(scope) {
  if (scope !== "") {
    try {
      document.querySelector(scope);
    } catch (e) {
      console.error(`modelcontext: data-declarative="${scope}" is not a CSS selector (${describe(e)}); no declarative resources are registered`);
      return;
    }
  }
  markupScope = scope;
  markupNonce = (script && script.nonce) || "";
  markAll(document);
  new MutationObserver(markupChanged).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: MARKUP_ATTRIBUTES,
  });
}

/**
 * markAll marks the elements with data-resource inside root, in document
 * order.
 * @param {ParentNode} root
 */
function markAll(root) {
  const found = root.querySelectorAll("[data-resource]");
  for (let i = 0; i < found.length; i++) markElement(found[i]);
}

/**
 * markupChanged handles one batch of DOM mutations: elements that left the
 * document or the scope are unregistered, new ones registered, those whose
 * attributes changed registered again, and each one whose content changed
 * pushes once.
 * @param {MutationRecord[]} records
 */
function markupChanged(records) {
  /** @type {Set<Element>} */
  const pushes = new Set();
  let removed = false;
  for (const rec of records) {
    if (rec.type === "childList") {
      if (rec.removedNodes.length > 0) removed = true;
      const added = rec.addedNodes;
      for (let i = 0; i < added.length; i++) {
        if (added[i].nodeType !== 1) continue;
        const el = /** @type {Element} */ (added[i]);
        if (el.hasAttribute("data-resource")) markElement(el);
        markAll(el);
      }
    } else if (rec.type === "attributes" && rec.target.nodeType === 1) {
      markElement(/** @type {Element} */ (rec.target));
    }
    if (marked.size > 0) {
      const owner = markedOwner(rec.target, rec.type === "attributes");
      if (owner) pushes.add(owner);
    }
  }
  if (removed && marked.size > 0) unmarkGone();
  for (const el of pushes) {
    const m = marked.get(el);
    if (m && m.onChange) m.onChange();
  }
}

/**
 * markedOwner is the declarative resource whose content node is part of,
 * or undefined. An attribute change is the element's own, not content.
 * @param {Node} node
 * @param {boolean} attribute
 */
function markedOwner(node, attribute) {
  let n = attribute ? node.parentNode : node;
  while (n !== null) {
    if (n.nodeType === 1 && marked.has(/** @type {Element} */ (n))) return /** @type {Element} */ (n);
    n = n.parentNode;
  }
  return undefined;
}

// unmarkGone unregisters the elements no longer in the document.
function unmarkGone() {
  for (const [el, m] of marked) {
    if (!el.isConnected) {
      marked.delete(el);
      m.unregister();
    }
  }
}

/**
 * markElement registers el, or registers it again when its attributes
 * changed, or unregisters it when it is no longer a resource.
 * @param {Element} el
 */
function markElement(el) {
  const old = marked.get(el);
  const uri = el.getAttribute("data-resource");
  const inScope = uri !== null && el.isConnected && authors(el);
  const key = inScope ? MARKUP_ATTRIBUTES.map((a) => el.getAttribute(a)).join("\u0000") : "";
  if ((old && old.key === key) || refused.get(el) === key) return;
  refused.delete(el);
  // A new uri, or none: the old registration ends. The same uri is
  // registered again below, which replaces it in its place.
  if (old) {
    marked.delete(el);
    if (old.uri !== uri || !inScope) old.unregister();
  }
  if (!inScope || uri === null) return;
  const name = el.getAttribute("data-name");
  if (name === null) {
    if (old) old.unregister();
    console.error(`modelcontext: the element with data-resource="${uri}" has no data-name; it is not registered`);
    return;
  }
  // Markup never replaces a registered uri: only its own registration, when
  // this element's attributes changed and its uri did not.
  const current = resources.get(uri);
  if (current && !current.markup) {
    refused.set(el, key);
    console.warn(`modelcontext: the element with data-resource="${uri}" is ignored: page code registered "${uri}", and code wins over markup`);
    return;
  }
  if (current && !(old && old.uri === uri)) {
    refused.set(el, key);
    console.warn(`modelcontext: the element with data-resource="${uri}" is ignored: earlier markup registered "${uri}", and markup never replaces a registered resource`);
    return;
  }
  const type = el.tagName === "SCRIPT" ? (el.getAttribute("type") || "").trim().toLowerCase() : "";
  const json = type === "application/json" || type === "application/ld+json";
  /** @type {Marked} */
  const m = { uri, key, unregister: () => {}, onChange: null };
  /** @type {any} */
  const desc = {
    uri,
    name,
    title: el.getAttribute("data-title") ?? undefined,
    description: el.getAttribute("data-description") ?? undefined,
    mimeType: el.getAttribute("data-mime-type") ?? (json ? type : "text/plain"),
    get: json ? () => parseMarkup(uri, el) : () => (el.textContent || "").trim(),
    subscribe: (/** @type {() => void} */ onChange) => {
      m.onChange = onChange;
      return () => {
        if (m.onChange === onChange) m.onChange = null;
      };
    },
  };
  try {
    m.unregister = registerMarked(desc);
  } catch (e) {
    console.error(`modelcontext: the element with data-resource="${uri}" is not registered:`, e);
    return;
  }
  marked.set(el, m);
}

/**
 * authors says whether el is the page author's markup: strictly inside a
 * match of the scope (never the matching element itself, which a visitor's
 * <main data-resource> would be), and carrying the tag's nonce when it has
 * one.
 * @param {Element} el
 */
function authors(el) {
  if (markupNonce !== "" && el.getAttribute("data-nonce") !== markupNonce) return false;
  if (markupScope === "") return true;
  const parent = el.parentElement;
  return parent !== null && parent.closest(markupScope) !== null;
}

/**
 * parseMarkup reads a JSON script's value. Invalid JSON is a SyntaxError
 * naming the uri.
 * @param {string} uri
 * @param {Element} el
 */
function parseMarkup(uri, el) {
  try {
    return JSON.parse(el.textContent || "");
  } catch (e) {
    throw new SyntaxError(`modelcontext: the JSON of "${uri}" is invalid: ${describe(e)}`);
  }
}
