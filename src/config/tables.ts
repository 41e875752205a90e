/** Plain TOML tables: the raw shape every config layer has before it is resolved. */
export type Table = Record<string, unknown>;

/** A TOML table (smol-toml gives null-prototype objects; dates are `Date` subclasses). */
export function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Keys that would write to an object's prototype instead of the object. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * `over` layered on `base`: tables merge key by key, anything else (arrays included) replaces.
 * Neither input is modified.
 */
export function deepMerge<T extends Table>(base: T, over: T): T {
  const out: Table = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (UNSAFE_KEYS.has(key) || value === undefined) continue;
    const prev = out[key];
    out[key] = isTable(prev) && isTable(value) ? deepMerge(prev, value) : value;
  }
  return out as T;
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const part of path) {
    if (isTable(current) && typeof part === "string") current = current[part];
    else if (Array.isArray(current) && typeof part === "number") current = current[part];
    else return undefined;
  }
  return current;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A key path as a user would write it in TOML: `model_providers."my.host".base_url`, `models[2]`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else {
      const text = String(part);
      const key = BARE_KEY.test(text) ? text : JSON.stringify(text);
      out += out === "" ? key : `.${key}`;
    }
  }
  return out;
}
