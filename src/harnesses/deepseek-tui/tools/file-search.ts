import { z } from "zod";
import { walkTree } from "../../../tools/fs/walk-tree.js";
import type { Tool } from "../../../tools/types.js";
import { forContext, invalidInput } from "../tool-result.js";
import { fileSearchSchema } from "../tool-schemas.js";
import description from "./file-search.md";
import { matchesGlob } from "./glob-match.js";
import { resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  query: z.string(),
  path: z.string().optional(),
  limit: z.number().int().optional(),
  extensions: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
});
type Args = z.infer<typeof Args>;

const EXCLUDED = [
  "target/**",
  "node_modules/**",
  ".git/**",
  "DerivedData/**",
  "dist/**",
  "build/**",
  "*.lock",
  "*.plist",
];

/**
 * CodeWhale `file_search` (0.8.44 `tools/file_search.rs`): files under `path` (ignore files
 * respected, hidden files included, links not followed) scored against the query: exact name 1,
 * exact path 0.98, prefix, substring, then in-order letters; best first, ties by path; indented
 * JSON `{path, name, score}`.
 */
export function fileSearchTool(options: { model: string }): Tool<Args> {
  return {
    name: "file_search",
    description: description.trimEnd(),
    kind: "search",
    capability: "read",
    parameters: fileSearchSchema,
    schema: Args,
    preview: async (args) => ({ title: `file_search ${args.query}` }),
    access: (args, ctx) => ({
      type: "read",
      paths: [resolvePath(args.path?.trim() ? args.path : ".", ctx.cwd)],
    }),
    async execute(args, ctx) {
      const query = args.query.trim().toLowerCase();
      if (!query) return invalidInput("file_search", "query cannot be empty");
      const limit = Math.min(Math.max(args.limit ?? 20, 1), 200);
      const base = resolvePath(args.path?.trim() ? args.path : ".", ctx.cwd);
      if (!(await ctx.fs.stat(base))) return invalidInput("file_search", `Base path does not exist: ${base}`);
      const extensions = (args.extensions ?? [])
        .map((e) => e.trim().replace(/^\.+/, "").toLowerCase())
        .filter(Boolean);
      const exclude = (args.exclude ?? EXCLUDED).map((p) => p.trim()).filter(Boolean);
      const found: Array<{ path: string; name: string; score: number }> = [];
      for await (const entry of walkTree({
        root: base,
        signal: ctx.signal,
        respectIgnoreFiles: true,
        skipNames: new Set(),
      })) {
        if (entry.type !== "file" || exclude.some((p) => matchesGlob(entry.rel, p))) continue;
        const dot = entry.name.lastIndexOf(".");
        const ext = dot > 0 ? entry.name.slice(dot + 1).toLowerCase() : "";
        if (extensions.length > 0 && !extensions.includes(ext)) continue;
        const score = scoreMatch(query, entry.rel, entry.name);
        if (score !== undefined) found.push({ path: entry.rel, name: entry.name, score });
      }
      found.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return {
        output: forContext({
          model: options.model,
          tool: "file_search",
          output: rustJson(found.slice(0, limit)),
        }),
      };
    },
  };
}

function scoreMatch(query: string, rel: string, name: string): number | undefined {
  const p = rel.toLowerCase();
  const n = name.toLowerCase();
  if (n === query) return 1;
  if (p === query) return 0.98;
  if (n.startsWith(query)) return 0.9 + bonus(query, n);
  if (p.startsWith(query)) return 0.85 + bonus(query, p);
  if (n.includes(query)) return 0.75 + bonus(query, n);
  if (p.includes(query)) return 0.7 + bonus(query, p);
  const byName = fuzzy(query, n);
  if (byName !== undefined) return 0.6 + 0.4 * byName;
  const byPath = fuzzy(query, p);
  if (byPath !== undefined) return 0.55 + 0.4 * byPath;
  return undefined;
}

function bonus(query: string, target: string): number {
  return Math.min([...query].length / Math.max([...target].length, 1), 1) * 0.08;
}

function fuzzy(query: string, target: string): number | undefined {
  const q = [...query];
  const positions: number[] = [];
  let k = 0;
  for (const [i, c] of [...target].entries()) {
    if (c === q[k]) {
      positions.push(i);
      if (++k === q.length) break;
    }
  }
  if (positions.length !== q.length) return undefined;
  const span = Math.max((positions.at(-1) as number) - (positions[0] as number) + 1, 1);
  const density = Math.min(q.length / span, 1);
  const coverage = Math.min(q.length / Math.max([...target].length, 1), 1);
  return Math.min(density * 0.7 + coverage * 0.3, 1);
}

/** serde_json writes a whole f64 with `.0` (`1.0`), which JSON.stringify does not. */
function rustJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/("score": )(\d+)(,?\n)/g, "$1$2.0$3");
}
