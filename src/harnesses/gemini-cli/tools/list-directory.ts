import { z } from "zod";
import { listDirectory } from "../../../tools/fs/list-directory.js";
import type { DirectoryEntry } from "../../../tools/fs/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import description from "../descriptions/list-directory.md";
import { listDirectorySchema } from "../tool-schemas.js";
import { isFsError, resolveToolPath } from "./tool-paths.js";

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

/**
 * Lists `dir` one level deep, folders first and then by name. When there is nothing to list it
 * returns the finished answer instead, in the wording Gemini CLI and Qwen Code share: the error
 * (as `isError`) or the empty-folder note.
 */
export async function sortedListing(
  dir: string,
  args: { ignore?: string[]; file_filtering_options?: { respect_git_ignore?: boolean } },
): Promise<DirectoryEntry[] | ToolResult> {
  let entries: DirectoryEntry[];
  try {
    const listing = await listDirectory({
      path: dir,
      ignore: args.ignore,
      depth: 1,
      respectGitignore: args.file_filtering_options?.respect_git_ignore ?? true,
    });
    entries = listing.entries;
  } catch (error) {
    if (isFsError(error, "not_a_directory")) return failure(`Error: Path is not a directory: ${dir}`);
    if (isFsError(error, "not_found")) {
      return failure(`Error listing directory: ENOENT: no such file or directory, stat '${dir}'`);
    }
    return failure(`Error listing directory: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (entries.length === 0) return { output: `Directory ${dir} is empty.` };
  return [...entries].sort((a, b) => {
    if (a.type === "directory" && b.type !== "directory") return -1;
    if (a.type !== "directory" && b.type === "directory") return 1;
    return a.path.localeCompare(b.path);
  });
}

function failure(message: string) {
  return { output: message, isError: true };
}
