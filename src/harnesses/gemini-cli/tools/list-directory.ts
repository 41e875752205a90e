import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { sortedListing } from "../../shared/gemini-core/sorted-listing.js";
import { resolveToolPath } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/list-directory.md";
import { listDirectorySchema } from "../tool-schemas.js";

const Args = z.looseObject({
  dir_path: z.string(),
  ignore: z.array(z.string()).optional(),
  file_filtering_options: z
    .looseObject({
      respect_git_ignore: z.boolean().optional(),
      respect_gemini_ignore: z.boolean().optional(),
    })
    .optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `list_directory` (`packages/core/src/tools/ls.ts`): folders first, then files with
 * their size, names sorted; an empty folder is reported, not treated as an error.
 */
export function listDirectoryTool(): Tool<Args> {
  return {
    name: "list_directory",
    description: description.trimEnd(),
    kind: "search",
    capability: "list",
    parameters: listDirectorySchema(),
    schema: Args,
    preview: async (args) => ({ title: `ReadFolder ${args.dir_path}` }),
    access: (args, ctx) => ({ type: "read", paths: [resolveToolPath(ctx.cwd, args.dir_path)] }),
    async execute(args, ctx) {
      const dir = resolveToolPath(ctx.cwd, args.dir_path);
      const sorted = await sortedListing(dir, args);
      if (!Array.isArray(sorted)) return sorted;
      const lines = sorted.map((entry) =>
        entry.type === "directory" ? `[DIR] ${entry.path}` : `${entry.path} (${entry.size} bytes)`,
      );
      return { output: `Directory listing for ${dir}:\n${lines.join("\n")}` };
    },
  };
}
