// modelcontext/react: React hooks over the modelcontext module (js/FRAMEWORKS.md).
//
// A thin skin: every rule (validation, replacement, de-duplication, events)
// is the module's; the hooks only tie a registration and a subscription to a
// component's lifetime.
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { registerResource, getResources, resourceFields, resourceKey, checkResource, followResource } from "modelcontext";

/**
 * checked returns the descriptor's registered fields, or throws
 * registerResource's own TypeError for an invalid descriptor (naming the
 * field and the uri); it registers nothing.
 * @param {any} descriptor
 */
function checked(descriptor) {
  checkResource(descriptor);
  return resourceFields(descriptor);
}

/**
 * useResource registers descriptor while the component is mounted, its value
 * the latest committed value; a commit with a new value pushes it.
 * @param {any} descriptor
 * @param {any} value
 */
export function useResource(descriptor, value) {
  // The registered fields by value, so that an inline object literal with
  // the same fields is the same registration from one render to the next.
  const deps = [resourceKey(resourceFields(descriptor))];
  // Validated at render, once per distinct descriptor: an invalid one throws
  // here, in the component, in development and production alike.
  const fields = useMemo(() => checked(descriptor), deps); // eslint-disable-line react-hooks/exhaustive-deps
  const latest = useRef(value);
  /** @type {{current: null | (() => void)}} the current registration's onChange */
  const onChange = useRef(null);
  /** @type {{current: null | (() => void)}} */
  const unregister = useRef(null);
  useEffect(() => {
    const previous = unregister.current;
    unregister.current = registerResource({
      ...fields,
      get: () => latest.current,
      subscribe(push) {
        onChange.current = push;
        return () => {
          if (onChange.current === push) onChange.current = null;
        };
      },
    });
    // After the new registration: with the same uri it replaced the old one
    // (keeping its place in the list) and this does nothing; with another
    // uri it removes the old one.
    if (previous) previous();
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(
    () => () => {
      if (unregister.current) unregister.current();
      unregister.current = null;
    },
    [],
  );
  useEffect(() => {
    if (Object.is(latest.current, value)) return;
    latest.current = value;
    if (onChange.current) onChange.current();
  }, [value]);
}

/** @returns {undefined} */
function serverValue() {
  return undefined;
}

/**
 * valueStore is the store useResourceValue reads for uri: its value, read once
 * it is listed, then each resourceupdated of it (followResource).
 * @param {string} uri
 */
function valueStore(uri) {
  let value;
  return {
    get: () => value,
    /** @param {() => void} notify */
    subscribe: (notify) =>
      followResource(uri, (v) => {
        value = v;
        notify();
      }),
  };
}

/**
 * useResourceValue returns the latest value of uri: read at mount, then each
 * resourceupdated; undefined until known.
 * @param {string} uri
 */
export function useResourceValue(uri) {
  const store = useMemo(() => valueStore(uri), [uri]);
  return useSyncExternalStore(store.subscribe, store.get, serverValue);
}

/** @type {any[]} */
const NONE = [];
/** @type {any[] | null} getResources() as of the last resourcelistchanged */
let listed = null;
/** @type {Set<() => void>} */
const listeners = new Set();

/** @param {any} e */
function listChanged(e) {
  listed = e.detail.resources;
  for (const l of listeners) l();
}

/** @param {() => void} notify */
function subscribeList(notify) {
  if (listeners.size === 0) {
    document.modelContext.addEventListener("resourcelistchanged", listChanged);
    listed = null; // unheard until now: ask again
  }
  listeners.add(notify);
  return () => {
    listeners.delete(notify);
    if (listeners.size > 0) return;
    document.modelContext.removeEventListener("resourcelistchanged", listChanged);
    listed = null; // unheard from now on: the next reader asks again
  };
}

function currentList() {
  if (listed === null) {
    try {
      listed = getResources();
    } catch {
      listed = NONE; // the module could not load: ready says why
    }
  }
  return listed;
}

function serverList() {
  return NONE;
}

/** useResources returns getResources(), re-rendered on each resourcelistchanged. */
export function useResources() {
  return useSyncExternalStore(subscribeList, currentList, serverList);
}
