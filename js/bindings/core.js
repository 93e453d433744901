// @ts-check
// core.js: what the framework bindings (modelcontext/react, modelcontext/vue)
// stand on, exported by the ES and CommonJS modules only (jsbuild bundles it
// beside the loader): a descriptor's fields, checked as registerResource
// checks them without registering, and a uri followed before it is listed.
// It works on whichever copy of the loader serves the page, through its
// members.

// FIELDS are the descriptor fields a binding registers, in one order; get
// and subscribe are the binding's own, complete belongs to templates.
const FIELDS = ["uri", "name", "title", "description", "mimeType", "annotations", "icons", "settle"];

/**
 * bindingsOf returns the bindings' helpers over mc, the object the loader's
 * members are on.
 * @param {any} mc
 */
export function bindingsOf(mc) {
  const installed = mc[Symbol.for("modelcontext.resources")];
  return {
    /**
     * resourceFields copies the fields of descriptor a binding registers (an
     * optional field left out when undefined); a descriptor that is not an
     * object is returned as it is, for checkResource to name.
     * @param {any} descriptor
     */
    resourceFields(descriptor) {
      if (descriptor === null || typeof descriptor !== "object") return descriptor;
      /** @type {Record<string, any>} */
      const fields = {};
      for (const f of FIELDS) if (descriptor[f] !== undefined) fields[f] = descriptor[f];
      return fields;
    },

    /**
     * resourceKey names fields by value, so that two descriptors with the same
     * fields are one registration: their JSON, with what JSON cannot hold
     * marked by its type; a cycle makes a key no other descriptor has.
     * @param {any} fields
     */
    resourceKey(fields) {
      try {
        return JSON.stringify(fields, (_, v) => (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint" ? "\u0000" + typeof v : v)) ?? "\u0000undefined";
      } catch {
        return "\u0000" + Math.random();
      }
    },

    /**
     * checkResource throws the TypeError registerResource would throw for
     * descriptor (naming the field and the uri), get and subscribe aside,
     * and registers nothing.
     * @param {any} descriptor
     */
    checkResource(descriptor) {
      if (installed && typeof installed.check === "function") installed.check(descriptor);
    },

    /**
     * followResource calls onValue with the value of uri: read once it is
     * listed (now, or at a later resourcelistchanged), unless a push came
     * first, then each resourceupdated of it. Unlike subscribeResource it
     * takes a uri that is not registered yet, and it follows the uri across
     * unregistration and registration again. It returns the function that
     * stops it.
     * @param {string} uri
     * @param {(value: any) => void} onValue
     * @returns {() => void}
     */
    followResource(uri, onValue) {
      let known = false;
      let reading = false;
      let live = true;
      /** @param {any} v */
      const set = (v) => {
        known = true;
        onValue(v);
      };
      /** @param {any} e */
      const updated = (e) => {
        if (e.detail.uri === uri) set(e.detail.value);
      };
      const read = () => {
        if (known || reading) return;
        let listed;
        try {
          listed = mc.getResources().some((/** @type {any} */ r) => r.uri === uri);
        } catch {
          return; // the module could not load: ready says why
        }
        if (!listed) return;
        reading = true;
        mc.readResource(uri).then(
          (/** @type {any} */ v) => {
            reading = false;
            if (live && !known) set(v);
          },
          () => {
            reading = false;
          },
        );
      };
      mc.addEventListener("resourceupdated", updated);
      mc.addEventListener("resourcelistchanged", read);
      read();
      return () => {
        live = false;
        mc.removeEventListener("resourceupdated", updated);
        mc.removeEventListener("resourcelistchanged", read);
      };
    },
  };
}
