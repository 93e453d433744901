// modelcontext/react: React hooks over the modelcontext module (js/FRAMEWORKS.md).
//
// A thin skin: every rule (validation, replacement, de-duplication, events)
// is the module's; the hooks only tie a registration and a subscription to a
// component's lifetime.
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { registerResource, readResource, getResources } from "modelcontext";

// FIELDS are the descriptor fields useResource registers (depsOf lists them
// too); get and subscribe are its own, complete belongs to templates.
const FIELDS = ["uri", "name", "title", "description", "mimeType", "settle", "annotations", "icons"];

/**
 * fieldsOf copies the descriptor's registered fields (an optional field left
 * out when undefined).
 * @param {any} descriptor
 */
function fieldsOf(descriptor) {
  /** @type {Record<string, any>} */
  const fields = {};
  for (const f of FIELDS) if (descriptor[f] !== undefined) fields[f] = descriptor[f];
  return fields;
}

/**
 * depsOf lists the descriptor's registered fields for React to compare (with
 * Object.is) from one render to the next, so that an inline object literal
 * with the same fields is the same registration: the scalar fields as they
 * are, annotations and icons by their JSON.
 * @param {any} descriptor
 */
function depsOf(descriptor) {
  if (descriptor === null || typeof descriptor !== "object") return [descriptor, 0, 0, 0, 0, 0, 0, 0];
  const d = descriptor;
  return [d.uri, d.name, d.title, d.description, d.mimeType, d.settle, json(d.annotations), json(d.icons)];
}

/** @param {any} v */
function json(v) {
  if (v === undefined) return v;
  try {
    return JSON.stringify(v);
  } catch {
    return v; // not JSON (a cycle): compared by identity
  }
}

// aborted is the signal registerResource is given to validate without
// registering: an already-aborted signal registers nothing (wasm/CONTRACT.md §3).
let aborted;

/**
 * checked returns the descriptor's registered fields, or throws
 * registerResource's own TypeError for an invalid descriptor (naming the
 * field and the uri); it registers nothing.
 * @param {any} descriptor
 */
function checked(descriptor) {
  if (descriptor === null || typeof descriptor !== "object") {
    registerResource(descriptor); // throws: the descriptor must be an object
    return {};
  }
  const fields = fieldsOf(descriptor);
  if (aborted === undefined) aborted = AbortSignal.abort();
  registerResource({ ...fields, get: noValue }, { signal: aborted });
  return fields;
}

function noValue() {
  return undefined;
}

/**
 * useResource registers descriptor while the component is mounted, its value
 * the latest committed value; a commit with a new value pushes it.
 * @param {any} descriptor
 * @param {any} value
 */
export function useResource(descriptor, value) {
  const deps = depsOf(descriptor);
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
 * it is listed, then each resourceupdated of it.
 * @param {string} uri
 */
function valueStore(uri) {
  let value;
  let known = false;
  return {
    get: () => value,
    /** @param {() => void} notify */
    subscribe(notify) {
      const mc = document.modelContext;
      let reading = false;
      let live = true;
      /** @param {any} v */
      const set = (v) => {
        value = v;
        known = true;
        notify();
      };
      /** @param {any} e */
      const updated = (e) => {
        if (e.detail.uri === uri) set(e.detail.value);
      };
      // Read at mount, or once the uri is listed: a push since then is newer
      // than the read's value, which is then dropped.
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
