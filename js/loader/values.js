// @ts-check
// values.js: the page's values that Go names by handle, and what is known of
// a JavaScript value without touching it twice.

/**
 * kindOf returns the kind (a K_* constant from Go) of v: typeof's answer, or
 * null or array.
 * @param {any} v
 */
export function kindOf(v) {
  switch (typeof v) {
    case "undefined": return K_UNDEFINED;
    case "string": return K_STRING;
    case "number": return K_NUMBER;
    case "boolean": return K_BOOLEAN;
    case "function": return K_FUNCTION;
    case "symbol": return K_SYMBOL;
    case "bigint": return K_BIGINT;
  }
  if (v === null) return K_NULL;
  try {
    return Array.isArray(v) ? K_ARRAY : K_OBJECT;
  } catch {
    return K_OBJECT; // a revoked Proxy
  }
}

/**
 * typeName is what messages call the type of v.
 * @param {any} v
 */
export function typeName(v) {
  return KIND_NAMES[kindOf(v)];
}

/**
 * describe returns the message of an error, or the error as text.
 * @param {any} e
 */
export function describe(e) {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return "an unprintable value";
  }
}

/**
 * quietError reports without ever throwing, even when the stack is exhausted.
 * @param {...any} args
 */
export function quietError(...args) {
  try {
    console.error(...args);
  } catch {}
}

/**
 * isThenable tells a Promise (or any thenable) from a value.
 * @param {any} v
 */
export function isThenable(v) {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function";
}
