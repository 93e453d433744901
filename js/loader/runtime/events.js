// @ts-check
// events.js: the module's events, made on document.modelContext (or the
// EventTarget that carries them: page.js's events) once Go dispatches them,
// and only when a listener can hear them (page.js's heard).
import { debugLine } from "../api.js";
import { debugOn, events, heard } from "../page.js";
import { quietError } from "../values.js";

// toldUnheard: debug mode has said that no listener hears the type.
const toldUnheard = { resourceupdated: false, resourcelistchanged: false };

/**
 * unheard says once, in debug mode, that an event of type was not made
 * because no listener can hear it.
 * @param {"resourceupdated" | "resourcelistchanged"} type
 */
export function unheard(type) {
  if (toldUnheard[type] || !debugOn()) return;
  toldUnheard[type] = true;
  debugLine(`no listener for ${type}: its events are not made until one is added with addEventListener or on${type}`);
}

/**
 * mayHear shares heard with the runtime.
 * @param {"resourceupdated" | "resourcelistchanged"} type
 */
export function mayHear(type) {
  return heard[type];
}

/**
 * dispatch fires a CustomEvent on document.modelContext; a listener that
 * throws is reported by the browser and stops nothing.
 * @param {string} type
 * @param {any} detail
 */
export function dispatch(type, detail) {
  try {
    events.dispatchEvent(new CustomEvent(type, { detail }));
  } catch (e) {
    quietError(`modelcontext: dispatching ${type} failed:`, e);
  }
}
