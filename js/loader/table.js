// @ts-check
// table.js: descriptors read and validated once, the registrations made of
// them, and the table of current registrations by key.
//
// Go holds the registry. Before the module runs there is no Go to ask, so
// until then the table stands in for it: registerResource, getResources and
// subscribeResource answer from it at once (enter, leave, list), and api.js
// queues the calls for Go. Once the module runs, Go decides which
// registration is current and where it is listed, runtime/lifecycle.js
// applies Go's answers here, and the table is a cache of them, in Go's
// order: getResources and the MCP lists read it, and readResource,
// subscribeResource and pushes look a concrete uri up in it, without a call
// into Go.
import { listedFrame } from "./runtime/frameclient.js";
import { doc } from "./page.js";
import { describe, kindOf, typeName } from "./values.js";

/**
 * @typedef {object} Registration one registerResource call: its descriptor
 * as read once, and what the table and the pushes keep. It is also what
 * getResources lists (copied on the way out): uri or uriTemplate, name,
 * title, description, mimeType, annotations (a copy), icons (a copy),
 * subscribable.
 * @property {number} kind the descriptor's kind (K_OBJECT once valid)
 * @property {any} desc the descriptor (`this` of get and subscribe)
 * @property {string | undefined} uri
 * @property {any} name
 * @property {any} title
 * @property {any} description
 * @property {any} mimeType the default once valid
 * @property {any} get
 * @property {any} subscribe
 * @property {any} annotations the page's, then the copy listed
 * @property {any} icons the page's, then each icon's fields as read (readIcons), then the copy listed
 * @property {any} complete the page's
 * @property {[string, any][] | undefined} completers complete's [variable, completer] pairs as read (readComplete)
 * @property {any} uriTemplate
 * @property {any} audience
 * @property {any} priority
 * @property {any} lastModified
 * @property {boolean | undefined} subscribable listed for a concrete uri
 * @property {number} id
 * @property {string} key the uri, or the uriTemplate of a template
 * @property {boolean} template
 * @property {string[] | undefined} parts a template split into literal, name, literal, ...
 * @property {Function | null} teardown
 * @property {string | null} base the comparison key of the last dispatched value (runtime/host.js's result)
 * @property {boolean} pullOnly subscribe threw: onChange does nothing
 * @property {boolean} done its unregister was called
 * @property {boolean} current it is the current registration of its key (in its table)
 * @property {number} pushes onChange calls so far, which number the pushes (host.js)
 * @property {number | undefined} mimeClass how MCP sends its values (mcp.js), once known
 * @property {any} settle the descriptor's settle, in ms (0 once valid and absent)
 * @property {any} timer the settle timer of a burst of onChange calls (runtime/host.js's settled), or 0
 * @property {number} burst when that burst's first onChange came (performance.now())
 * @property {boolean} markup registered from markup (markup.js), which page code replaces
 * @property {number} addedAt the page's revision when it entered the list (runtime/changes.js)
 * @property {number} changedAt the revision of its last dispatched push or replacement
 * @property {number} pushedAt the revision of the last push dispatched of its key (0: none)
 * @property {number} prevPushedAt the revision of the one before it
 */

let lastID = 0;
// markupRegistering: the registerResource call under way is markup.js's.
export let markupRegistering = false;

/**
 * setMarkupRegistering marks the registerResource calls until it is called
 * with false as markup.js's.
 * @param {boolean} on
 */
export function setMarkupRegistering(on) {
  markupRegistering = on;
}
/** @type {Map<string, Registration>} the current resources by uri, in list order */
export const resources = new Map();
/** @type {Map<string, Registration>} the current templates by uriTemplate, in list order */
export const templates = new Map();

/**
 * snapshot reads every field of a descriptor exactly once, in a fixed order,
 * into what becomes its registration (newRegistration completes it). Every
 * registration has the same fields, spelled out rather than looped over, so
 * that V8 reads and writes them at fixed places, and listing copies them
 * from one shape.
 * @param {any} desc
 * @returns {Registration}
 */
export function snapshot(desc) {
  /** @type {Registration} */
  const s = {
    kind: kindOf(desc), desc, uri: undefined, name: undefined, title: undefined, description: undefined, mimeType: undefined,
    get: undefined, subscribe: undefined, annotations: undefined, icons: undefined, complete: undefined, completers: undefined, uriTemplate: undefined,
    audience: undefined, priority: undefined, lastModified: undefined, subscribable: undefined,
    id: 0, key: "", template: false, parts: undefined, teardown: null, base: null, pullOnly: false, done: false, current: false, pushes: 0,
    mimeClass: undefined, settle: undefined, timer: 0, burst: 0, markup: false, addedAt: 0, changedAt: 0, pushedAt: 0, prevPushedAt: 0,
  };
  if (s.kind !== K_OBJECT) return s;
  s.uri = read(desc, "uri", "uri");
  s.name = read(desc, "name", "name");
  s.title = read(desc, "title", "title");
  s.description = read(desc, "description", "description");
  s.mimeType = read(desc, "mimeType", "mimeType");
  s.get = read(desc, "get", "get");
  s.subscribe = read(desc, "subscribe", "subscribe");
  s.annotations = read(desc, "annotations", "annotations");
  s.uriTemplate = read(desc, "uriTemplate", "uriTemplate");
  s.settle = read(desc, "settle", "settle");
  s.icons = read(desc, "icons", "icons");
  s.complete = read(desc, "complete", "complete");
  if (kindOf(s.icons) === K_ARRAY) s.icons = readIcons(s.icons);
  if (kindOf(s.complete) === K_OBJECT) s.completers = readComplete(s.complete);
  if (kindOf(s.annotations) === K_OBJECT) {
    const a = s.annotations;
    s.audience = read(a, "audience", "annotations.audience");
    s.priority = read(a, "priority", "annotations.priority");
    s.lastModified = read(a, "lastModified", "annotations.lastModified");
    if (kindOf(s.audience) === K_ARRAY) {
      try {
        s.audience = Array.prototype.slice.call(s.audience);
      } catch (e) {
        throw threw("annotations.audience", e);
      }
    }
  }
  return s;
}

/**
 * readIcons reads each icon's fields once, into plain objects that validate
 * checks (an icon that is not an object stays as it is, for its message).
 * @param {any} icons
 */
export function readIcons(icons) {
  let items;
  try {
    items = Array.prototype.slice.call(icons);
  } catch (e) {
    throw threw("icons", e);
  }
  return items.map((icon, i) => {
    if (kindOf(icon) !== K_OBJECT) return icon;
    const at = `icons[${i}].`;
    let sizes = read(icon, "sizes", at + "sizes");
    if (kindOf(sizes) === K_ARRAY) {
      try {
        sizes = Array.prototype.slice.call(sizes);
      } catch (e) {
        throw threw(at + "sizes", e);
      }
    }
    return { src: read(icon, "src", at + "src"), mimeType: read(icon, "mimeType", at + "mimeType"), sizes, theme: read(icon, "theme", at + "theme") };
  });
}

/**
 * readComplete reads a `complete` object's own completers once, as
 * [variable, completer] pairs.
 * @param {any} complete
 * @returns {[string, any][]}
 */
function readComplete(complete) {
  let names;
  try {
    names = Object.keys(complete);
  } catch (e) {
    throw threw("complete", e);
  }
  return names.map((name) => [name, read(complete, name, "complete." + name)]);
}

/**
 * @param {any} o
 * @param {string} key
 * @param {string} label
 */
export function read(o, key, label) {
  try {
    return o[key];
  } catch (e) {
    throw threw(label, e);
  }
}

/**
 * threw is the TypeError of a field whose read threw e.
 * @param {string} label
 * @param {any} e
 */
function threw(label, e) {
  return new TypeError(`${MSG_PREFIX}${MSG_READING}"${label}"${MSG_THREW}${describe(e)}`);
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:./s;

/**
 * checkResource throws registerResource's TypeError for a descriptor whose
 * fields it would refuse, get and subscribe aside (a binding supplies its
 * own), and registers nothing: what the framework bindings validate with.
 * @param {any} desc
 */
export function checkResource(desc) {
  const s = snapshot(desc);
  if (s.kind === K_OBJECT) {
    s.get = checkResource;
    s.subscribe = undefined;
  }
  const problem = validate(s);
  if (problem) throw new TypeError(problem);
}

/**
 * validate returns what is wrong with a snapshot, or "". Every message names
 * the field and the uri.
 * @param {Registration} s
 */
export function validate(s) {
  if (s.kind !== K_OBJECT) return MSG_PREFIX + MSG_DESCRIPTOR + KIND_NAMES[s.kind];
  let key = "uri", id = s.uri;
  if (s.uriTemplate !== undefined && s.uri === undefined) {
    key = "uriTemplate";
    id = s.uriTemplate;
  }
  if (id === undefined) return MSG_PREFIX + MSG_URI_REQUIRED;
  if (typeof id !== "string") return `${MSG_PREFIX}"${key}" ${MSG_STRING}${typeName(id)}`;
  if (id === "") return `${MSG_PREFIX}"${key}" ${MSG_EMPTY}`;
  if (!SCHEME.test(id)) return `${MSG_PREFIX}"${key}" "${id}" ${MSG_NO_SCHEME}`;
  if (key === "uri" && s.uriTemplate !== undefined) return bad(key, id, "uriTemplate", MSG_WITH_URI);
  if (key === "uriTemplate") {
    const parts = splitTemplate(id);
    if (typeof parts === "string") return `${MSG_PREFIX}"uriTemplate" "${id}" ${parts}`;
    if (s.subscribe !== undefined) return bad(key, id, "subscribe", MSG_TEMPLATE_SUBSCRIBE);
    const wrong = badComplete(s.complete, s.completers, parts);
    if (wrong) return bad(key, id, wrong[0], wrong[1]);
  } else if (s.complete !== undefined) {
    return bad(key, id, "complete", MSG_COMPLETE_NOT_TEMPLATE);
  }
  const wrongIcon = badIcons(s.icons);
  if (wrongIcon) return bad(key, id, wrongIcon[0], wrongIcon[1]);
  if (s.name === undefined) return bad(key, id, "name", MSG_REQUIRED);
  if (typeof s.name !== "string") return bad(key, id, "name", MSG_STRING + typeName(s.name));
  if (s.name === "") return bad(key, id, "name", MSG_EMPTY);
  if (s.get === undefined) return bad(key, id, "get", MSG_GET_REQUIRED);
  if (typeof s.get !== "function") return bad(key, id, "get", MSG_FUNCTION + typeName(s.get));
  if (s.subscribe !== undefined && typeof s.subscribe !== "function") return bad(key, id, "subscribe", MSG_FUNCTION + typeName(s.subscribe));
  if (s.title !== undefined && typeof s.title !== "string") return bad(key, id, "title", MSG_STRING + typeName(s.title));
  if (s.description !== undefined && typeof s.description !== "string") return bad(key, id, "description", MSG_STRING + typeName(s.description));
  if (s.mimeType !== undefined && typeof s.mimeType !== "string") return bad(key, id, "mimeType", MSG_STRING + typeName(s.mimeType));
  if (s.settle !== undefined && !(typeof s.settle === "number" && s.settle >= 0 && s.settle < Infinity)) {
    return bad(key, id, "settle", MSG_SETTLE + (typeof s.settle === "number" ? String(s.settle) : typeName(s.settle)));
  }
  if (s.annotations === undefined) return "";
  if (kindOf(s.annotations) !== K_OBJECT) return bad(key, id, "annotations", MSG_OBJECT + typeName(s.annotations));
  if (s.audience !== undefined) {
    if (kindOf(s.audience) !== K_ARRAY) return bad(key, id, "annotations.audience", MSG_ARRAY + typeName(s.audience));
    for (let i = 0; i < s.audience.length; i++) {
      if (s.audience[i] !== "user" && s.audience[i] !== "assistant") return bad(key, id, `annotations.audience[${i}]`, MSG_AUDIENCE);
    }
  }
  if (s.priority !== undefined && !(typeof s.priority === "number" && s.priority >= 0 && s.priority <= 1)) {
    return bad(key, id, "annotations.priority", MSG_PRIORITY);
  }
  if (s.lastModified !== undefined && !(typeof s.lastModified === "string" && isISODate(s.lastModified))) {
    return bad(key, id, "annotations.lastModified", MSG_LAST_MODIFIED);
  }
  return "";
}

/**
 * badComplete returns the field and what is wrong with a template's
 * `complete` and its completers (as readComplete read them), or null.
 * @param {any} complete
 * @param {[string, any][] | undefined} completers
 * @param {string[]} parts the template split by splitTemplate
 * @returns {[string, string] | null}
 */
function badComplete(complete, completers, parts) {
  if (complete === undefined) return null;
  if (completers === undefined) return ["complete", MSG_COMPLETERS + typeName(complete)];
  const vars = parts.filter((_, i) => i % 2 === 1);
  for (const [name, f] of completers) {
    if (!vars.includes(name)) return ["complete." + name, `${MSG_NO_VARIABLE}${vars.join(", ") || "none"})`];
    if (typeof f !== "function") return ["complete." + name, MSG_COMPLETER + typeName(f)];
  }
  return null;
}

// A URL scheme, after the C0 controls and spaces the URL parser skips.
export const URL_SCHEME = /^[\x00-\x20]*[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * badIcons returns the field and what is wrong with `icons` (as readIcons
 * read them), or null. A src is an https: or data: URL, or a path (resolved
 * against the document by newRegistration): never javascript: or another
 * scheme.
 * @param {any} icons
 * @returns {[string, string] | null}
 */
export function badIcons(icons) {
  if (icons === undefined) return null;
  if (kindOf(icons) !== K_ARRAY) return ["icons", MSG_ICONS + typeName(icons)];
  for (let i = 0; i < icons.length; i++) {
    const icon = icons[i], at = `icons[${i}]`;
    if (kindOf(icon) !== K_OBJECT) return [at, MSG_ICON + typeName(icon)];
    if (typeof icon.src !== "string") return [at + ".src", MSG_STRING + typeName(icon.src)];
    if (icon.src === "") return [at + ".src", MSG_EMPTY];
    const scheme = URL_SCHEME.exec(icon.src);
    const ok = scheme ? /^[\x00-\x20]*(https|data):$/i.test(scheme[0]) : iconURL(icon.src) !== null;
    if (!ok) return [at + ".src", `${MSG_ICON_SRC}"${icon.src}"`];
    if (icon.mimeType !== undefined && typeof icon.mimeType !== "string") return [at + ".mimeType", MSG_STRING + typeName(icon.mimeType)];
    if (icon.sizes !== undefined && !(kindOf(icon.sizes) === K_ARRAY && icon.sizes.every((/** @type {any} */ x) => typeof x === "string"))) {
      return [at + ".sizes", MSG_ICON_SIZES];
    }
    if (icon.theme !== undefined && icon.theme !== "light" && icon.theme !== "dark") return [at + ".theme", MSG_ICON_THEME];
  }
  return null;
}

/**
 * iconURL resolves a path against the document; without a document it
 * stays as given. null when it is no URL, or resolves to a scheme other than
 * http: or https:.
 * @param {string} src
 */
function iconURL(src) {
  if (!doc) return src;
  try {
    const u = new URL(src, doc.baseURI);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * bad is the message for a field of the descriptor of key "id".
 * @param {string} key "uri" or "uriTemplate"
 * @param {string} id
 * @param {string} field
 * @param {string} what
 */
export function bad(key, id, field, what) {
  return `${MSG_PREFIX}"${field}" ${what} (${key} "${id}")`;
}

/**
 * splitTemplate parses an RFC 6570 level 1 template into literal, name,
 * literal, ..., literal, or returns what is wrong with it.
 * @param {string} t
 * @returns {string[] | string}
 */
export function splitTemplate(t) {
  const parts = [];
  let rest = t;
  for (;;) {
    const open = rest.indexOf("{"), close = rest.indexOf("}");
    if (open < 0) {
      if (close >= 0) return MSG_CLOSE_WITHOUT_OPEN;
      parts.push(rest);
      return parts;
    }
    if (close >= 0 && close < open) return MSG_CLOSE_WITHOUT_OPEN;
    if (close < 0) return MSG_OPEN_WITHOUT_CLOSE;
    const name = rest.slice(open + 1, close);
    if (!/^[A-Za-z0-9_.%]+$/.test(name)) return `${MSG_EXPRESSION}${name}${MSG_LEVEL1}`;
    if (open === 0 && parts.length > 0) return MSG_ADJACENT;
    parts.push(rest.slice(0, open), name);
    rest = rest.slice(close + 1);
  }
}

// An ISO 8601 date: a real calendar date, then optionally a time (hours
// and minutes, seconds and a fraction optional) and a zone (Z or ±hh:mm).
const ISO_DATE = /^(\d{4})-(\d\d)-(\d\d)(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

/** @param {string} t */
function isISODate(t) {
  const m = ISO_DATE.exec(t);
  if (!m) return false;
  const y = +m[1], mo = +m[2], d = +m[3];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/**
 * newRegistration completes the registration of a valid snapshot, with the
 * next ID of the page's, or with id (a frame's, runtime/frameclient.js).
 * @param {Registration} s
 * @param {number} [id]
 */
export function newRegistration(s, id) {
  const template = s.uri === undefined;
  s.id = id === undefined ? ++lastID : id;
  s.key = template ? s.uriTemplate : s.uri;
  s.template = template;
  if (template) s.parts = /** @type {string[]} */ (splitTemplate(s.key));
  else s.subscribable = s.subscribe !== undefined;
  if (s.mimeType === undefined) s.mimeType = DEFAULT_MIME_TYPE;
  if (s.settle === undefined) s.settle = 0;
  s.markup = markupRegistering;
  if (s.icons !== undefined) s.icons = s.icons.map(listedIcon);
  if (s.annotations !== undefined) {
    s.annotations = { audience: s.audience === undefined ? undefined : s.audience.slice(), priority: s.priority, lastModified: s.lastModified };
  }
  return s;
}

/**
 * listedIcon is an icon as listed: its fields as given, a path resolved
 * against the document.
 * @param {any} icon
 */
function listedIcon(icon) {
  /** @type {any} */
  const c = { src: URL_SCHEME.test(icon.src) ? icon.src : iconURL(icon.src) };
  if (icon.mimeType !== undefined) c.mimeType = icon.mimeType;
  if (icon.sizes !== undefined) c.sizes = icon.sizes;
  if (icon.theme !== undefined) c.theme = icon.theme;
  return c;
}

/** @param {Registration} r */
export function tableOf(r) {
  return r.template ? templates : resources;
}

/**
 * enter makes r the current registration of its key before the module
 * runs, in the place of the one it replaces (which it returns) or last.
 * @param {Registration} r
 */
export function enter(r) {
  const t = tableOf(r);
  const old = t.get(r.key);
  if (old) old.current = false;
  t.set(r.key, r);
  r.current = true;
  return old;
}

/**
 * leave removes r if it is the current registration of its key, and reports
 * whether it was.
 * @param {Registration} r
 */
export function leave(r) {
  if (!r.current) return false;
  tableOf(r).delete(r.key);
  r.current = false;
  return true;
}

/**
 * list returns fresh copies of the descriptors of a table, in list order,
 * into an array of its final length.
 * @param {Map<string, Registration>} t
 */
export function list(t) {
  const out = new Array(t.size);
  let i = 0;
  /** @type {Registration[] | null} */
  let frames = null;
  for (const r of t.values()) {
    if (r.id >= FRAME_ID_BASE) (frames || (frames = [])).push(r);
    else out[i++] = listed(r);
  }
  if (frames !== null) for (const r of frames) out[i++] = listed(r);
  return out;
}

/**
 * listed is the copy getResources or getResourceTemplates lists of r (a
 * frame's also names its origin: runtime/frameclient.js's listedFrame).
 * @param {Registration} r
 */
export function listed(r) {
  if (r.id >= FRAME_ID_BASE) return listedFrame(r);
  if (r.template) return copyInfo(r);
  return r.annotations === undefined && r.icons === undefined ? listedPlain(r) : copyRest(r, { uri: r.uri, name: r.name });
}

/**
 * listedPlain copies a listed resource without annotations, in one object
 * literal for each of the four shapes its title and description make: a
 * literal is built at once, where adding the members one by one walks V8
 * through a shape for each.
 * @param {Registration} r
 */
function listedPlain(r) {
  if (r.title === undefined) {
    if (r.description === undefined) return { uri: r.uri, name: r.name, mimeType: r.mimeType, subscribable: r.subscribable };
    return { uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType, subscribable: r.subscribable };
  }
  if (r.description === undefined) return { uri: r.uri, name: r.name, title: r.title, mimeType: r.mimeType, subscribable: r.subscribable };
  return { uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, subscribable: r.subscribable };
}

/**
 * copyInfo copies a listed descriptor field by field (faster than a
 * spread), its annotations and audience too.
 * @param {any} info
 */
export function copyInfo(info) {
  /** @type {any} */
  const c = info.uri !== undefined ? { uri: info.uri, name: info.name } : { uriTemplate: info.uriTemplate, name: info.name };
  return copyRest(info, c);
}

/**
 * copyRest copies what follows the uri and the name.
 * @param {any} info
 * @param {any} c
 */
export function copyRest(info, c) {
  if (info.title !== undefined) c.title = info.title;
  if (info.description !== undefined) c.description = info.description;
  c.mimeType = info.mimeType;
  const a = info.annotations;
  if (a !== undefined) {
    /** @type {any} */
    const ca = {};
    if (a.audience !== undefined) ca.audience = a.audience.slice();
    if (a.priority !== undefined) ca.priority = a.priority;
    if (a.lastModified !== undefined) ca.lastModified = a.lastModified;
    c.annotations = ca;
  }
  if (info.icons !== undefined) c.icons = info.icons.map(copyIcon);
  if (info.subscribable !== undefined) c.subscribable = info.subscribable;
  return c;
}

/** @param {any} icon */
function copyIcon(icon) {
  /** @type {any} */
  const c = { src: icon.src };
  if (icon.mimeType !== undefined) c.mimeType = icon.mimeType;
  if (icon.sizes !== undefined) c.sizes = icon.sizes.slice();
  if (icon.theme !== undefined) c.theme = icon.theme;
  return c;
}

/** @param {string} uri */
export function notFound(uri) {
  return new DOMException(`modelcontext: no resource is registered for uri "${uri}"`, "NotFoundError");
}
