import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { globAcross, sortByRecency } from "../../shared/gemini-core/glob-across.js";
import { searchDirs } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/glob.md";
import { globSchema } from "../tool-schemas.js";

const Args = z.looseObject({ pattern: z.string(), path: z.string().optional() });
type Args = z.infer<typeof Args>;

/** Qwen Code's `MAX_FILE_COUNT` for glob results. */
const MAX_FILES = 100;

/**
 * Qwen Code `glob` (QwenLM/qwen-code `packages/core/src/tools/glob.ts`): case-insensitive, recent
 * files first, at most 100 paths with a `[N files truncated] ...` note, `---` separators.
 */
export function globTool(): Tool<Args> {
  return {
    name: "glob",
    description: description.trimEnd(),
    kind: "search",
    capability: "search",
    parameters: globSchema(),
    schema: Args,
    preview: async (args) => ({ title: `Glob '${args.pattern}'${args.path ? ` in ${args.path}` : ""}` }),
    access: (args, ctx) => ({ type: "read", paths: searchDirs(args.path, ctx.cwd, ctx.roots) }),
    async execute(args, ctx) {
      const dirs = searchDirs(args.path, ctx.cwd, ctx.roots);
      const where = args.path
        ? `within ${dirs[0]}`
        : dirs.length > 1
          ? `across ${dirs.length} workspace directories`
          : "in the workspace directory";
      const found = await globAcross({
        dirs,
        pattern: args.pattern,
        signal: ctx.signal,
        caseSensitive: false,
      });
      if (!Array.isArray(found)) return found;
      const files = await sortByRecency(found, Date.now());
      if (files.length === 0) return { output: `No files found matching pattern "${args.pattern}" ${where}` };
      const shown = files.slice(0, MAX_FILES);
      let text = `Found ${files.length} file(s) matching "${args.pattern}" ${where}, sorted by modification time (newest first):\n---\n${shown.join("\n")}`;
      const omitted = files.length - shown.length;
      if (omitted > 0) text += `\n---\n[${omitted} ${omitted === 1 ? "file" : "files"} truncated] ...`;
      return { output: text };
    },
  };
}
