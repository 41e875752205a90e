import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { isSensitiveFile, isWithin, relativizeIfUnder, resolveSearchRoot } from "../path-access.js";
import { globSchema } from "../tool-schemas.js";
import description from "./glob.md";

export const MAX_MATCHES = 100;
/** How many paths are gathered before the cap, so sensitive files can be dropped first. */
const SCAN_LIMIT = 10_000;

const Args = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  include_ignored: z.boolean().optional(),
  include_dirs: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code `Glob` (kimi-code `agent/tools/os/glob/globTool.ts`): ripgrep `--glob` semantics
 * (a pattern without `/` matches at any depth), files only, newest first, secrets filtered,
 * 100 results with upstream's truncation lines; paths relative to the search root.
 */
export function globTool(): Tool<Args> {
  return {
    name: "Glob",
    description,
    kind: "search",
    capability: "search",
    parameters: globSchema,
    schema: Args,
    preview: async (args) => ({ title: `Glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}` }),
    access(args, ctx) {
      const resolved = resolveSearchRoot(args.path, ctx);
      return resolved.ok ? { type: "read", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const resolved = resolveSearchRoot(args.path, ctx);
      if (!resolved.ok) return { output: resolved.error, isError: true };
      const searchRoot = resolved.path;
      let found: { files: string[]; truncated: boolean };
      try {
        found = await globFiles({
          pattern: args.pattern.includes("/") ? args.pattern : `**/${args.pattern}`,
          cwd: searchRoot,
          signal: ctx.signal,
          limit: SCAN_LIMIT,
          respectGitignore: args.include_ignored !== true,
        });
      } catch (error) {
        if (ctx.signal.aborted) return { output: "Glob aborted", isError: true };
        return { output: globError(error, searchRoot), isError: true };
      }
      const kept = found.files.filter((file) => !isSensitiveFile(file));
      const filtered = found.files.length - kept.length;
      const truncated = kept.length > MAX_MATCHES;
      const limited = kept.slice(0, MAX_MATCHES);
      if (limited.length === 0) {
        if (filtered > 0)
          return { output: `No non-sensitive matches found (${filtered} sensitive file(s) filtered).` };
        return { output: "No matches found" };
      }
      const relative = isWithin(searchRoot, ctx.cwd);
      const lines: string[] = [];
      if (truncated) {
        lines.push(`[Truncated at ${MAX_MATCHES} matches — use a more specific pattern]`);
        lines.push(`Only the first ${MAX_MATCHES} matches are returned.`);
      }
      lines.push(...limited.map((file) => (relative ? relativizeIfUnder(file, searchRoot) : file)));
      if (filtered > 0) lines.push(`Filtered ${filtered} sensitive file(s).`);
      if (!truncated && limited.length === MAX_MATCHES) lines.push(`Found ${limited.length} matches`);
      return { output: lines.join("\n") };
    },
  };
}

function globError(error: unknown, searchRoot: string): string {
  if (error instanceof FsToolError) {
    if (error.code === "not_found") return `${searchRoot} does not exist`;
    if (error.code === "not_a_directory") return `${searchRoot} is not a directory`;
    return `Glob failed: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
