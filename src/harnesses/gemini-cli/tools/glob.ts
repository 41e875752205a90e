import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { globAcross, sortByRecency } from "../../shared/gemini-core/glob-across.js";
import { searchDirs } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/glob.md";
import { globSchema } from "../tool-schemas.js";

const Args = z.looseObject({
  pattern: z.string(),
  dir_path: z.string().optional(),
  case_sensitive: z.boolean().optional(),
  respect_git_ignore: z.boolean().optional(),
  respect_gemini_ignore: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `glob` (`packages/core/src/tools/glob.ts`): absolute paths, files changed in the last
 * 24 hours first (newest first), older ones alphabetically; without `dir_path` every workspace
 * folder is searched. `respect_gemini_ignore` is accepted; there are no .geminiignore files here.
 */
export function globTool(): Tool<Args> {
  return {
    name: "glob",
    description: description.trimEnd(),
    kind: "search",
    capability: "search",
    parameters: globSchema(),
    schema: Args,
    preview: async (args) => ({
      title: `FindFiles '${args.pattern}'${args.dir_path ? ` within ${args.dir_path}` : ""}`,
    }),
    access: (args, ctx) => ({ type: "read", paths: searchDirs(args.dir_path, ctx.cwd, ctx.roots) }),
    async execute(args, ctx) {
      const dirs = searchDirs(args.dir_path, ctx.cwd, ctx.roots);
      const where = dirs.length === 1 ? `within ${dirs[0]}` : `within ${dirs.length} workspace directories`;
      const files = await globAcross({
        dirs,
        pattern: args.pattern,
        signal: ctx.signal,
        caseSensitive: args.case_sensitive === true,
        respectGitignore: args.respect_git_ignore ?? true,
      });
      if (!Array.isArray(files)) return files;
      if (files.length === 0) return { output: `No files found matching pattern "${args.pattern}" ${where}` };
      const sorted = await sortByRecency(files, Date.now());
      const across = dirs.length === 1 ? `within ${dirs[0]}` : `across ${dirs.length} workspace directories`;
      return {
        output: `Found ${sorted.length} file(s) matching "${args.pattern}" ${across}, sorted by modification time (newest first):\n${sorted.join("\n")}`,
      };
    },
  };
}
