/** One step of a path: how much of it the step reads, and what it makes of each node. */
type Step = { length: number; apply(node: unknown): unknown[] };

const STEPS: Array<(rest: string) => Step | undefined> = [
  (rest) => {
    const m = /^\.([A-Za-z_$][\w$-]*)/.exec(rest);
    return m ? member(m[0].length, m[1] as string) : undefined;
  },
  (rest) => {
    const m = /^\[(\d+)\]/.exec(rest);
    if (!m) return undefined;
    const i = Number(m[1]);
    return { length: m[0].length, apply: (n) => (Array.isArray(n) && i < n.length ? [n[i]] : []) };
  },
  (rest) => {
    const m = /^(\[\*\]|\.\*)/.exec(rest);
    return m
      ? { length: m[0].length, apply: (n) => (Array.isArray(n) ? n : isObject(n) ? Object.values(n) : []) }
      : undefined;
  },
  (rest) => {
    const m = /^\[(?:'([^']*)'|"([^"]*)")\]/.exec(rest);
    return m ? member(m[0].length, (m[1] ?? m[2]) as string) : undefined;
  },
];

function member(length: number, key: string): Step {
  return { length, apply: (n) => (isObject(n) && key in n ? [n[key]] : []) };
}

/**
 * The JSONPath subset CodeWhale's `fetch_url` `fields` read: `$`, `.name`, `[index]`, `[*]` and
 * `['name']` (or `["name"]`), in a chain. Every match, in document order; undefined for a path it
 * cannot read.
 */
export function jsonPath(root: unknown, path: string): unknown[] | undefined {
  if (!path.startsWith("$")) return undefined;
  let nodes: unknown[] = [root];
  let rest = path.slice(1);
  while (rest) {
    const step = STEPS.map((read) => read(rest)).find((s) => s !== undefined);
    if (!step) return undefined;
    nodes = nodes.flatMap(step.apply);
    rest = rest.slice(step.length);
  }
  return nodes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
