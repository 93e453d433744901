// @ts-check
// lookup.js: what Go knows of the table (lifecycle.js's tellGo), its registrations
// described to Go, and a uri resolved through Go's template matching.
/** @type {Map<number, Registration>} the registrations Go knows (lifecycle.js's tellGo says which), by ID */
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
      return r.mimeType;
    case "template":
      return r.parts;
  }
  throw new Error("modelcontext: no registration field " + name);
}

/** @type {string | undefined} the parameters of the last template resolve found, as JSON text */
let resolvedParams;

/**
 * resolve returns the registration that serves uri: the current concrete
 * resource first, then the first template, in registration order, that
 * matches (Go matches templates; their parameters are then in
 * resolvedParams). Only after ready.
 * @param {string} uri
 * @returns {Registration | undefined}
 */
function resolve(uri) {
  const r = resources.get(uri);
  if (r || templates.size === 0) return r;
  resolvedParams = undefined;
  const id = internal(ex.mc_match(putString(uri)));
  return id ? regs.get(id) : undefined;
}
