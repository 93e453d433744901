// @ts-check
// lookup.js: the registrations Go holds by ID, their fields described to
// Go, and the template Go finds for a uri.
/** @type {Map<number, Registration>} every registration Go holds as current, by ID (lifecycle.js keeps it) */
const regs = new Map();

/**
 * encodeRegistration writes the fields mc_register reads
 * (REGISTRATION_FIELDS, in their order) into Go's buffer and returns their
 * length.
 * @param {Registration} r
 */
function encodeRegistration(r) {
  pos = 0;
  for (let i = 0; i < REGISTRATION_FIELDS.length; i++) put(registrationField(r, REGISTRATION_FIELDS[i]), 0);
  return flush();
}

/**
 * @param {Registration} r
 * @param {string} name
 */
function registrationField(r, name) {
  switch (name) {
    case "key":
      return r.key;
    case "mimeType":
      return r.mimeType === DEFAULT_MIME_TYPE ? undefined : r.mimeType; // Go knows the default
    case "template":
      return r.parts;
  }
  throw new Error("modelcontext: no registration field " + name);
}

/**
 * @typedef {object} Match a template that serves a uri
 * @property {Registration} r
 * @property {string} params its parameters, as JSON text
 */

/**
 * match returns the first template, in list order, that serves uri (Go
 * matches templates), or undefined. Only after ready; a concrete uri is
 * looked up first, in the cache of the current resources (table.js's
 * resources).
 * @param {string} uri
 * @returns {Match | undefined}
 */
function match(uri) {
  if (templates.size === 0) return undefined;
  const p = internal(ex.mc_match(putString(uri)));
  if (p === 0) return undefined;
  const w = new Int32Array(ex.mem.buffer, p, 2);
  return { r: /** @type {Registration} */ (regs.get(w[0])), params: str(p + 8, w[1]) };
}
