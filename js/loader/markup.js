// @ts-check
// markup.js: resources with no code. Declarative resources (elements with
// data-resource, on a page whose script tag has data-declarative) and the
// page itself (data-page-resource, registerPageResource; its subscribe,
// which follows the address, is the runtime's: runtime/page.js). Both are
// producers: they register through registerResource and never start the
// module. Watching the DOM is the loader's, not Go's.
import { watchPage } from "./runtime/address.js";
import { registerResource } from "./api.js";
import { debugOn, script } from "./page.js";
import { resources, setMarkupRegistering } from "./table.js";
import { describe, typeName } from "./values.js";

const PAGE_URI = "page://location";

/**
 * registerPageResource registers the page as a resource: {url, title},
 * pushed when either changes (history.pushState and replaceState, back and
 * forward, hash changes, Navigation API navigations, a new title).
 * @param {any} [options] {uri = "page://location", name = "page"}
 */
export function registerPageResource(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new TypeError(`modelcontext: registerPageResource: the options ${MSG_OBJECT}${typeName(options)}`);
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
  setMarkupRegistering(true);
  try {
    return registerResource(desc);
  } finally {
    setMarkupRegistering(false);
  }
}

/**
 * @typedef {object} Marked a declarative resource, and the element that holds its uri
 * @property {Element} el the element now: one rendered in its place takes it over
 * @property {string} uri
 * @property {string} key its fields (fieldsOf), to tell a change of them
 * @property {boolean} json its value is the element's text parsed as JSON
 * @property {() => void} unregister
 * @property {(() => void) | null} onChange set while its subscription runs
 */

/**
 * @typedef {object} Batch what one batch of DOM mutations does
 * @property {Map<string, Marked>} vacated by uri, the resources whose elements left: an element found in the batch takes one over, and handOn ends the rest
 * @property {Map<Element, Marked>} left the elements that left, with their resources: a change of their content in the batch is still theirs
 * @property {Set<Marked>} pushes those whose value may have changed
 */

/** @type {Map<Element, Marked>} */
const marked = new Map();

// refused holds the elements ignored for their uri, with their fields' key
// then: one warning each, though a parsed element is seen more than once.
/** @type {WeakMap<Element, string>} */
export const refused = new WeakMap();

// waiting holds, by uri, the elements refused because earlier markup held
// it: when that element leaves, the first of them still in the document
// takes the resource over. Those that left are dropped as others are added.
/** @type {Map<string, Element[]>} */
const waiting = new Map();

/** @type {string} only elements strictly inside a match count; "" is the whole document */
let markupScope = "";

// markupNonce is the script tag's nonce: when it has one, only elements
// whose own nonce equals it count, so that a visitor's markup (a review, a
// comment), which cannot know the per-response nonce, never becomes a
// resource. Both are read from the nonce property: under a policy sent in a
// header, browsers hide the attribute from getAttribute and from CSS
// selectors, so a visitor's style cannot read it out (data-nonce, which CSS
// can read, is not honoured). The ES module has no declarative markup (it
// has no tag to carry data-declarative), so nothing plays the nonce there.
let markupNonce = "";

// The attributes that make a declarative resource's fields.
const MARKUP_ATTRIBUTES = ["data-resource", "data-name", "data-title", "data-description", "data-mime-type", "type"];

/**
 * watchMarkup registers the declarative resources in the document and
 * those added later, strictly inside scope (a CSS selector, or "" for all).
 * @param {string} scope
 */
export function watchMarkup(scope) {
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
  if (markupNonce === "" && debugOn()) {
    const where = scope === "" ? "anywhere in the document" : `inside any match of "${scope}" (the selector is a convenience, not a boundary: a visitor can write their own)`;
    console.warn(`modelcontext: declarative markup is on without a nonce: an element a visitor writes counts as the page's ${where}; put the response's nonce on the script tag and on each element of your markup`);
  }
  markAll(document, { vacated: new Map(), left: new Map(), pushes: new Set() });
  new MutationObserver(markupChanged).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: MARKUP_ATTRIBUTES.concat("nonce"),
  });
}

/**
 * markAll marks the elements with data-resource inside root, in document
 * order.
 * @param {ParentNode} root
 * @param {Batch} b
 */
function markAll(root, b) {
  const found = root.querySelectorAll("[data-resource]");
  for (let i = 0; i < found.length; i++) markElement(found[i], b);
}

/**
 * markupChanged handles one batch of DOM mutations: the resources of
 * elements that left pass to elements rendered in their place, or end; new
 * elements are registered, those whose attributes changed registered again;
 * each one whose content changed pushes once.
 * @param {MutationRecord[]} records
 */
function markupChanged(records) {
  /** @type {Batch} */
  const b = { vacated: new Map(), left: new Map(), pushes: new Set() };
  if (marked.size > 0 && records.some((r) => r.removedNodes.length > 0)) vacate(b);
  for (const rec of records) {
    if (rec.type === "childList") {
      const added = rec.addedNodes;
      for (let i = 0; i < added.length; i++) {
        if (added[i].nodeType !== 1) continue;
        const el = /** @type {Element} */ (added[i]);
        if (el.hasAttribute("data-resource")) markElement(el, b);
        markAll(el, b);
      }
    } else if (rec.type === "attributes" && rec.target.nodeType === 1) {
      markElement(/** @type {Element} */ (rec.target), b);
    }
    if (marked.size > 0 || b.left.size > 0) {
      const owner = markedOwner(rec.target, rec.type === "attributes", b);
      if (owner) b.pushes.add(owner);
    }
  }
  for (const m of b.vacated.values()) handOn(m, b);
  for (const m of b.pushes) {
    if (m.onChange) m.onChange();
  }
}

/**
 * markedOwner is the declarative resource whose content node is part of,
 * or undefined. An attribute change is the element's own, not content.
 * @param {Node} node
 * @param {boolean} attribute
 * @param {Batch} b
 */
function markedOwner(node, attribute, b) {
  let n = attribute ? node.parentNode : node;
  while (n !== null) {
    const m = n.nodeType === 1 ? marked.get(/** @type {Element} */ (n)) || b.left.get(/** @type {Element} */ (n)) : undefined;
    if (m) return m;
    n = n.parentNode;
  }
  return undefined;
}

/**
 * vacate takes the resources whose elements are no longer in the document
 * out of marked, into the batch's vacated.
 * @param {Batch} b
 */
function vacate(b) {
  for (const [el, m] of marked) {
    if (!el.isConnected) {
      marked.delete(el);
      b.vacated.set(m.uri, m);
      b.left.set(el, m);
    }
  }
}

/**
 * handOn passes m, whose element left or is no longer a resource, to the
 * first element waiting for its uri that counts, or ends it. Those waiting
 * after the one that takes it over wait on.
 * @param {Marked} m
 * @param {Batch} b
 */
function handOn(m, b) {
  const queue = (waiting.get(m.uri) || []).filter((el) => el.isConnected && !marked.has(el) && el.getAttribute("data-resource") === m.uri);
  waiting.delete(m.uri);
  queue.sort((x, y) => (x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  b.vacated.set(m.uri, m);
  for (let i = 0; i < queue.length; i++) {
    refused.delete(queue[i]);
    markElement(queue[i], b);
    if (marked.has(queue[i])) {
      if (i + 1 < queue.length) waiting.set(m.uri, queue.slice(i + 1));
      break;
    }
  }
  if (b.vacated.get(m.uri) !== m) return;
  b.vacated.delete(m.uri);
  m.unregister();
}

/**
 * markElement registers el, or registers it again when its fields changed,
 * or hands its resource on when it is no longer one. An element that
 * counts, in a batch where the element holding its uri left, takes that
 * resource over: with the same fields it stays listed as it was, with
 * others it is registered again in its place; it pushes when its value
 * differs from the element it replaces.
 * @param {Element} el
 * @param {Batch} b
 */
function markElement(el, b) {
  const old = marked.get(el);
  const uri = el.getAttribute("data-resource");
  const inScope = uri !== null && el.isConnected && authors(el);
  const key = inScope ? fieldsOf(el) : "";
  if ((old && old.key === key) || refused.get(el) === key) return;
  refused.delete(el);
  // Another uri, or none: the old resource passes on or ends. The same uri
  // is registered again below, which replaces it in its place.
  if (old) {
    marked.delete(el);
    if (old.uri !== uri || !inScope) handOn(old, b);
  }
  if (!inScope || uri === null) return;
  const name = el.getAttribute("data-name");
  if (name === null) {
    if (old && old.uri === uri) handOn(old, b);
    console.error(`modelcontext: the element with data-resource="${uri}" has no data-name; it is not registered`);
    return;
  }
  const heir = b.vacated.get(uri);
  const prev = old && old.uri === uri ? old : heir;
  // Markup never replaces a registered uri but its own. Code wins over
  // markup; a connected frame's proxy does not (IDs from FRAME_ID_BASE): the
  // page's markup outranks it, as page code does.
  const current = resources.get(uri);
  if (current && !current.markup && current.id < FRAME_ID_BASE) {
    refused.set(el, key);
    console.warn(`modelcontext: the element with data-resource="${uri}" is ignored: page code registered "${uri}", and code wins over markup`);
    return;
  }
  if (current && current.markup && !prev) {
    refused.set(el, key);
    waitFor(uri, el);
    console.warn(`modelcontext: the element with data-resource="${uri}" is ignored: earlier markup registered "${uri}", and markup never replaces a registered resource`);
    return;
  }
  if (heir && prev === heir) b.vacated.delete(uri);
  if (prev && prev.key === key) {
    const before = valueKey(prev);
    prev.el = el;
    marked.set(el, prev);
    if (valueKey(prev) !== before) b.pushes.add(prev);
    return;
  }
  registerElement(el, uri, name, key, prev, b);
}

/**
 * registerElement registers el as the resource uri; prev is the one it
 * replaces, if any.
 * @param {Element} el
 * @param {string} uri
 * @param {string} name
 * @param {string} key
 * @param {Marked | undefined} prev
 * @param {Batch} b
 */
function registerElement(el, uri, name, key, prev, b) {
  const type = el.tagName === "SCRIPT" ? (el.getAttribute("type") || "").trim().toLowerCase() : "";
  const json = type === "application/json" || type === "application/ld+json";
  /** @type {Marked} */
  const m = { el, uri, key, json, unregister: () => {}, onChange: null };
  /** @type {any} */
  const desc = {
    uri,
    name,
    title: el.getAttribute("data-title") ?? undefined,
    description: el.getAttribute("data-description") ?? undefined,
    mimeType: el.getAttribute("data-mime-type") ?? (json ? type : "text/plain"),
    get: json ? () => parseMarkup(uri, m.el) : () => (m.el.textContent || "").trim(),
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
    if (prev) handOn(prev, b);
    return;
  }
  marked.set(el, m);
  // Taken over from another element: it pushes a value that differs (the
  // replacement starts its de-duplication afresh, so it is compared here).
  if (prev && prev.el !== el && valueKey(prev) !== valueKey(m)) b.pushes.add(m);
}

/**
 * waitFor keeps el, refused for uri, to be looked at again when the element
 * holding uri leaves.
 * @param {string} uri
 * @param {Element} el
 */
function waitFor(uri, el) {
  const queue = (waiting.get(uri) || []).filter((e) => e.isConnected && e !== el);
  queue.push(el);
  waiting.set(uri, queue);
}

/**
 * fieldsOf is the key of el's fields: its attributes that make them, and
 * its tag (a script's type makes it JSON).
 * @param {Element} el
 */
function fieldsOf(el) {
  return el.tagName + "\u0000" + MARKUP_ATTRIBUTES.map((a) => el.getAttribute(a)).join("\u0000");
}

/**
 * valueKey is the JSON of m's value as its element holds it now, or null
 * when it has none (invalid JSON).
 * @param {Marked} m
 */
function valueKey(m) {
  const text = m.el.textContent || "";
  try {
    return JSON.stringify(m.json ? JSON.parse(text) : text.trim());
  } catch {
    return null;
  }
}

/**
 * authors says whether el is the page author's markup: carrying the tag's
 * nonce when it has one (the element's nonce property: the attribute, which
 * the browser hides once the element is in a document under a policy sent in
 * a header), and strictly inside a match of the scope (never the matching
 * element itself, which a visitor's <main data-resource> would be). The
 * scope is a convenience, not a boundary: a visitor can write an element
 * that matches it.
 * @param {Element} el
 */
function authors(el) {
  if (markupNonce !== "" && /** @type {HTMLElement} */ (el).nonce !== markupNonce) return false;
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
