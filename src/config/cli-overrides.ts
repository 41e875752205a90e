import { parse } from "smol-toml";
import { isTable, type Table, UNSAFE_KEYS } from "./tables.js";
import { ConfigError } from "./types.js";

/**
 * Turns `-c key=value` strings into one table, the way Codex does: split at the first `=`,
 * the key is a dotted path (`model_providers.mock.base_url`), the value is parsed as a TOML
 * value and, when it does not parse, taken as the raw (trimmed) string, so
 * `-c model=gpt-5` works without quotes. Later overrides win. Throws `ConfigError`
 * for a pair without `=` or with an empty key segment; `file` is only carried along.
 */
export function parseCliOverrides(overrides: readonly string[], file: string): Table {
  const root: Table = {};
  for (const raw of overrides) {
    const eq = raw.indexOf("=");
    const invalid = (why: string) =>
      new ConfigError(`-c ${JSON.stringify(raw)}: ${why} (expected key=value)`, file, "-c");
    if (eq < 0) throw invalid("missing '='");
    const segments = raw.slice(0, eq).trim().split(".");
    if (segments.some((segment) => segment.trim() === "")) throw invalid("empty key");
    if (segments.some((segment) => UNSAFE_KEYS.has(segment.trim()))) throw invalid("reserved key");
    setPath(
      root,
      segments.map((segment) => segment.trim()),
      parseValue(raw.slice(eq + 1).trim()),
    );
  }
  return root;
}

function parseValue(text: string): unknown {
  try {
    return parse(`_x_ = ${text}`)._x_;
  } catch {
    return text;
  }
}

/** Sets `path` inside `root`, replacing any non-table on the way with a table. */
function setPath(root: Table, path: readonly string[], value: unknown): void {
  let current = root;
  for (const segment of path.slice(0, -1)) {
    const next = current[segment];
    if (isTable(next)) current = next;
    else {
      const table: Table = {};
      current[segment] = table;
      current = table;
    }
  }
  current[path[path.length - 1] as string] = value;
}
