// modelcontext/vue: Vue composables over the modelcontext module (js/FRAMEWORKS.md).
//
// A thin skin: every rule (validation, replacement, de-duplication, events)
// is the module's; the composables only tie a registration and a
// subscription to the calling effect scope.
import { getCurrentScope, onScopeDispose, shallowRef, toRaw, toValue, triggerRef, watch } from "vue";
import { registerResource, readResource, getResources } from "modelcontext";

// FIELDS are the descriptor fields useResource registers; get and subscribe
// are its own, complete belongs to templates.
const FIELDS = ["uri", "name", "title", "description", "mimeType", "annotations", "icons", "settle"];

/**
 * fieldsOf copies the descriptor's registered fields, raw (an optional field
 * left out when undefined), and keyOf names them by value.
 * @param {any} descriptor
 */
function fieldsOf(descriptor) {
  const d = toRaw(toValue(descriptor));
  if (d === null || typeof d !== "object") return d; // registerResource says what is wrong
  /** @type {Record<string, any>} */
  const fields = {};
  for (const f of FIELDS) if (d[f] !== undefined) fields[f] = toRaw(d[f]);
  return fields;
}

/** @param {any} fields */
function keyOf(fields) {
  try {
    return JSON.stringify(fields, (_, v) => (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint" ? "\u0000" + typeof v : v));
  } catch {
    return "\u0000" + Math.random(); // not JSON (a cycle): never the same key
  }
}

/**
 * useResource registers descriptor (an object, or a ref or getter of one)
 * while the calling effect scope lives; its value is source's (a ref, a
 * reactive object or a getter), and each change of source pushes it once,
 * after the DOM update. A change of a descriptor field re-registers.
 * @param {any} descriptor
 * @param {any} source
 */
export function useResource(descriptor, source) {
  /** @type {null | (() => void)} the current registration's onChange */
  let onChange = null;
  const register = (/** @type {any} */ fields) =>
    registerResource(
      fields === null || typeof fields !== "object"
        ? fields
        : {
            ...fields,
            get: () => toRaw(toValue(source)),
            subscribe(/** @type {() => void} */ push) {
              onChange = push;
              return () => {
                if (onChange === push) onChange = null;
              };
            },
          },
    );
  // Registered now, so that an invalid descriptor throws registerResource's
  // TypeError from the caller's setup.
  let fields = fieldsOf(descriptor);
  let key = keyOf(fields);
  let unregister = register(fields);
  const stops = [
    watch(
      () => keyOf((fields = fieldsOf(descriptor))),
      (k) => {
        if (k === key) return;
        key = k;
        const previous = unregister;
        unregister = register(fields);
        // With the same uri the new registration replaced the old one and
        // this does nothing; with another uri it removes the old one.
        previous();
      },
      { flush: "sync" },
    ),
    watch(
      () => toValue(source),
      () => {
        if (onChange) onChange();
      },
      { deep: true, flush: "post" },
    ),
  ];
  if (getCurrentScope()) {
    onScopeDispose(() => {
      for (const stop of stops) stop();
      unregister();
    });
  }
}

/**
 * useResourceValue returns a ref of the latest value of uri: read at once
 * (or once the uri is listed), then each resourceupdated; undefined until
 * known. It follows uri while the calling effect scope lives.
 * @param {string} uri
 */
export function useResourceValue(uri) {
  const value = shallowRef();
  if (typeof document === "undefined" || !document.modelContext) return value;
  const mc = document.modelContext;
  let known = false;
  let reading = false;
  /** @param {any} v */
  const set = (v) => {
    known = true;
    // A source mutated in place pushes the same object again: still news.
    if (Object.is(value.value, v)) triggerRef(value);
    else value.value = v;
  };
  /** @param {any} e */
  const updated = (e) => {
    if (e.detail.uri === uri) set(e.detail.value);
  };
  // A push during the read is newer than the read's value, which is dropped.
  const read = () => {
    if (known || reading) return;
    let listed;
    try {
      listed = getResources().some((r) => r.uri === uri);
    } catch {
      return; // the module could not load: ready says why
    }
    if (!listed) return;
    reading = true;
    readResource(uri).then(
      (v) => {
        reading = false;
        if (!known) set(v);
      },
      () => {
        reading = false;
      },
    );
  };
  mc.addEventListener("resourceupdated", updated);
  mc.addEventListener("resourcelistchanged", read);
  read();
  if (getCurrentScope()) {
    onScopeDispose(() => {
      mc.removeEventListener("resourceupdated", updated);
      mc.removeEventListener("resourcelistchanged", read);
    });
  }
  return value;
}

/**
 * useResources returns a ref of getResources(), read again on each
 * resourcelistchanged while the calling effect scope lives; [] where the
 * module cannot answer (no document, or a failed load).
 */
export function useResources() {
  /** @type {import("vue").ShallowRef<any[]>} */
  const list = shallowRef([]);
  if (typeof document === "undefined" || !document.modelContext) return list;
  const mc = document.modelContext;
  const read = () => {
    try {
      list.value = getResources();
    } catch {
      list.value = []; // the module could not load: ready says why
    }
  };
  mc.addEventListener("resourcelistchanged", read);
  read();
  if (getCurrentScope()) onScopeDispose(() => mc.removeEventListener("resourcelistchanged", read));
  return list;
}
