import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { resolveModelPath } from "../../shared/claude-code-core/file-access.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { globSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./glob.md";

/** Claude Code lists at most this many files. */
export const GLOB_LIMIT = 100;
export const GLOB_TRUNCATED = "(Results are truncated. Consider using a more specific path or pattern.)";

const Args = z.looseObject({ pattern: z.string().min(1), path: z.string().nullish() });
type Args = z.infer<typeof Args>;

/**
 * Claude Code `Glob`: absolute paths, one per line, oldest change first as upstream sorts them;
 * `No files found` when nothing matches; a truncation line past 100 files (GlobTool
 * `mapToolResultToToolResultBlockParam`).
 */
export function globTool(): Tool<Args> {
  const root = (args: Args, cwd: string) => (args.path ? resolveModelPath(args.path, cwd) : cwd);
  return {
    name: "Glob",
    description,
    kind: "search",
    capability: "search",
    parameters: globSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: `Find \`${root(args, ctx.cwd)}\` \`${args.pattern}\``,
      locations: [{ path: root(args, ctx.cwd) }],
    }),
    access: (args, ctx) => ({ type: "read", paths: [root(args, ctx.cwd)] }),
    async execute(args, ctx) {
      const dir = root(args, ctx.cwd);
      const stat = await ctx.fs.stat(dir);
      if (!stat) {
        return {
          output: toolUseError(
            `Directory does not exist: ${args.path}. Note: your current working directory is ${ctx.cwd}.`,
          ),
          isError: true,
        };
      }
      if (!stat.isDirectory)
        return { output: toolUseError(`Path is not a directory: ${args.path}`), isError: true };
      try {
        const found = await globFiles({
          pattern: args.pattern,
          cwd: dir,
          signal: ctx.signal,
          limit: GLOB_LIMIT,
        });
        if (found.files.length === 0) return { output: "No files found" };
        const files = [...found.files].reverse();
        return { output: [...files, ...(found.truncated ? [GLOB_TRUNCATED] : [])].join("\n") };
      } catch (error) {
        if (error instanceof FsToolError) return { output: toolUseError(error.message), isError: true };
        throw error;
      }
    },
  };
}
