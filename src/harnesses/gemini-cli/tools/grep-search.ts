import { z } from "zod";
import { grepFiles } from "../../../tools/fs/grep-files.js";
import type { Tool } from "../../../tools/types.js";
import { type GrepMatch, parseGrepLines } from "../../shared/gemini-core/parse-grep-lines.js";
import { isFsError, resolveToolPath } from "../../shared/gemini-core/tool-paths.js";
import gemini3Description from "../descriptions/grep-search.gemini-3.md";
import legacyDescription from "../descriptions/grep-search.md";
import type { ToolFamily } from "../tool-family.js";
import { grepSearchSchema } from "../tool-schemas.js";
import { formatGrepResults, withContext } from "./grep-format.js";

const Args = z.looseObject({
  pattern: z.string(),
  dir_path: z.string().optional(),
  include_pattern: z.string().optional(),
  exclude_pattern: z.string().optional(),
  names_only: z.boolean().optional(),
  case_sensitive: z.boolean().optional(),
  fixed_strings: z.boolean().optional(),
  context: z.number().int().min(0).optional(),
  after: z.number().int().min(0).optional(),
  before: z.number().int().min(0).optional(),
  no_ignore: z.boolean().optional(),
  max_matches_per_file: z.number().int().min(1).optional(),
  total_max_matches: z.number().int().min(1).optional(),
});
type Args = z.infer<typeof Args>;

/** Gemini CLI's `DEFAULT_TOTAL_MAX_MATCHES`. */
const DEFAULT_TOTAL_MAX_MATCHES = 100;

/**
 * Gemini CLI `grep_search`, ripgrep variant (`packages/core/src/tools/ripGrep.ts`): case-insensitive
 * unless asked, at most 100 matches, results grouped per file as `L<n>: text`, and when 1 to 3
 * matches are found without explicit context, 50 (one match) or 15 lines around each are added.
 * `no_ignore` is accepted but the shared search always honours .gitignore.
 */
export function grepSearchTool(family: ToolFamily): Tool<Args> {
  return {
    name: "grep_search",
    description: (family === "gemini-3" ? gemini3Description : legacyDescription).trimEnd(),
    kind: "search",
    capability: "search",
    parameters: grepSearchSchema(),
    schema: Args,
    preview: async (args) => ({
      title: `SearchText '${args.pattern}'${args.include_pattern ? ` in ${args.include_pattern}` : ""} within ${args.dir_path || "./"}`,
    }),
    access: (args, ctx) => ({ type: "read", paths: [resolveToolPath(ctx.cwd, args.dir_path || ".")] }),
    async execute(args, ctx) {
      const base = resolveToolPath(ctx.cwd, args.dir_path || ".");
      const stat = await ctx.fs.stat(base);
      if (!stat) return { output: `Path does not exist: ${base}`, isError: true };
      const total = args.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
      let matches: GrepMatch[];
      try {
        const result = await grepFiles({
          pattern: args.fixed_strings ? escapeRegex(args.pattern) : args.pattern,
          path: base,
          signal: ctx.signal,
          glob: args.include_pattern,
          ignoreCase: args.case_sensitive !== true,
          outputMode: "content",
          lineNumbers: true,
        });
        matches = limit(parseGrepLines(result.lines, result.files, base), args, total);
      } catch (error) {
        const message = isFsError(error) || error instanceof Error ? error.message : String(error);
        return { output: `Error during grep search operation: ${message}` };
      }
      const count = matches.length;
      const explicit = args.context !== undefined || args.before !== undefined || args.after !== undefined;
      if (explicit) {
        matches = await withContext({
          fs: ctx.fs,
          matches,
          before: args.before ?? args.context ?? 0,
          after: args.after ?? args.context ?? 0,
        });
      } else if (count >= 1 && count <= 3 && !args.names_only) {
        const around = count === 1 ? 50 : 15;
        matches = await withContext({ fs: ctx.fs, matches, before: around, after: around });
      }
      return {
        output: formatGrepResults({
          matches,
          pattern: args.pattern,
          where: `in path "${args.dir_path || "."}"`,
          includePattern: args.include_pattern,
          namesOnly: args.names_only,
          totalMaxMatches: total,
        }),
      };
    },
  };
}

/** `exclude_pattern`, `max_matches_per_file` and the total cap, applied in ripgrep's output order. */
function limit(matches: GrepMatch[], args: Args, total: number): GrepMatch[] {
  const exclude = args.exclude_pattern
    ? new RegExp(args.exclude_pattern, args.case_sensitive ? "" : "i")
    : undefined;
  const perFile = new Map<string, number>();
  const kept: GrepMatch[] = [];
  for (const match of matches) {
    if (exclude?.test(match.line)) continue;
    const seen = perFile.get(match.filePath) ?? 0;
    if (args.max_matches_per_file !== undefined && seen >= args.max_matches_per_file) continue;
    perFile.set(match.filePath, seen + 1);
    kept.push(match);
    if (kept.length >= total) break;
  }
  return kept;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
