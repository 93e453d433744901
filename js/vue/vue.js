// modelcontext/vue: Vue composables over the modelcontext module (js/FRAMEWORKS.md).
//
// A thin skin: every rule (validation, replacement, de-duplication, events)
// is the module's; the composables only tie a registration and a
// subscription to the calling effect scope.
import { getCurrentScope, onScopeDispose, shallowRef, toRaw, toValue, triggerRef, watch } from "vue";
import { registerResource, getResources, resourceFields, resourceKey, followResource } from "modelcontext";

/**
 * fieldsOf copies the descriptor's registered fields, raw (an optional field
 * left out when undefined).
 * @param {any} descriptor
 */
function fieldsOf(descriptor) {
  const fields = resourceFields(toRaw(toValue(descriptor)));
  if (fields === null || typeof fields !== "object") return fields; // registerResource says what is wrong
  for (const f of Object.keys(fields)) fields[f] = toRaw(fields[f]);
  return fields;
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
  let key = resourceKey(fields);
  let unregister = register(fields);
  const stops = [
    watch(
      () => resourceKey((fields = fieldsOf(descriptor))),
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
  const stop = followResource(uri, (v) => {
    if (Object.is(value.value, v)) triggerRef(value);
    else value.value = v;
  });
  if (getCurrentScope()) onScopeDispose(stop);
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
