// jsontree.js: renders a value preview (plain JSON data, where anything JSON
// cannot hold is {$t: what it is, ...}, as js/extension/hook.js makes them)
// as a collapsible tree of <details>. No innerHTML: page data is only ever
// text here. The DevTools panel (panel.html) and the demo's agent panel
// (demo/panel.js, served at /jsontree.js) both show values with it.
(() => {
  const MAX_STRING = 2000; // characters of a string shown
  const MAX_ITEMS = 200; // entries of an object or array shown

  /** @param {string} tag @param {string} [cls] @param {string} [text] */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** special names a {$t} marker. @param {any} v */
  function special(v) {
    switch (v.$t) {
      case "binary":
        return `${v.type}, ${v.size} bytes${v.mimeType ? ", " + v.mimeType : ""}${v.head ? ": " + v.head + (v.size > 16 ? " …" : "") : ""}`;
      case "circular":
        return "[circular reference]";
      case "threw":
        return `[getter threw: ${v.message}]`;
      case "more":
        return `… ${v.count} more`;
      case "cut":
      case "deep":
        return `[${v.why}]`;
      case "string":
        return JSON.stringify(v.head.slice(0, 200)) + ` … (${v.length} characters)`;
      case "function":
        return `ƒ ${v.name}`;
      case "undefined":
        return "undefined";
      case "Error":
        return `${v.name}: ${v.message}`;
      case "unknown":
        return `[${v.why}]`;
      default:
        return v.text !== undefined ? `${v.$t} ${v.text}` : `[${v.$t}]`;
    }
  }

  /**
   * render returns an element showing v; levels below open are folded.
   * @param {any} v
   * @param {number} [open] how many levels start unfolded (default 2)
   * @returns {HTMLElement}
   */
  function render(v, open = 2) {
    const root = el("div", "jt");
    root.append(node(v, open));
    return root;
  }

  /** @param {any} v @param {number} open @returns {Node} */
  function node(v, open) {
    if (v === null) return el("span", "z", "null");
    if (typeof v === "string" && v.length > MAX_STRING) return el("span", "s", JSON.stringify(v.slice(0, 200)) + ` … (${v.length} characters)`);
    if (typeof v === "string") return el("span", "s", JSON.stringify(v));
    if (typeof v === "number") return el("span", "n", String(v));
    if (typeof v === "boolean") return el("span", "b", String(v));
    if (typeof v !== "object") return el("span", "m", String(v));
    if (typeof v.$t === "string" && v.$t !== "Map" && v.$t !== "Set") return el("span", "m", special(v));
    const entries = v.$t === "Map" ? v.entries.map((/** @type {any[]} */ [k, x]) => [k, x])
      : v.$t === "Set" ? v.items.map((/** @type {any} */ x, /** @type {number} */ i) => [i, x])
      : Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    const label = v.$t === "Map" ? `Map(${v.size})` : v.$t === "Set" ? `Set(${v.size})` : Array.isArray(v) ? `Array(${v.length})` : `{${entries.length === 0 ? "" : "…"}}`;
    if (entries.length === 0) return el("span", "m", Array.isArray(v) ? "[]" : label === "{}" ? "{}" : label);
    // An object's (and a Map's) keys are written as in JSON, an index as it is.
    const keyed = !Array.isArray(v) && v.$t !== "Set";
    const d = el("details");
    d.append(el("summary", "m", label));
    // A folded level is built when it is first opened: a huge value costs
    // what is shown of it.
    const fill = () => {
      const ul = el("ul");
      for (const [k, x] of entries.slice(0, MAX_ITEMS)) {
        const li = el("li");
        const key = typeof k === "object" ? JSON.stringify(k) : keyed ? JSON.stringify(String(k)) : String(k);
        li.append(el("span", "k", key + ": "), node(x, open - 1));
        ul.append(li);
      }
      if (entries.length > MAX_ITEMS) ul.append(el("li", "m", `… ${entries.length - MAX_ITEMS} more`));
      d.append(ul);
    };
    if (open > 0) {
      d.setAttribute("open", "");
      fill();
    } else d.addEventListener("toggle", fill, { once: true });
    return d;
  }

  /** @type {any} */ (globalThis).ModelContextJSONTree = { render, special };
})();
