import { z } from "zod";
import { listDirectory } from "../../../tools/fs/list-directory.js";
import type { DirectoryEntry } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { isFsError } from "../../gemini-cli/tools/tool-paths.js";
import description from "../descriptions/list-directory.md";
import { listDirectorySchema } from "../tool-schemas.js";
import { failure, isAbsolute } from "./qwen-paths.js";

const Args = z.looseObject({
  path: z.string(),
  ignore: z.array(z.string()).optional(),
  file_filtering_options: z
    .looseObject({ respect_git_ignore: z.boolean().optional(), respect_qwen_ignore: z.boolean().optional() })
    .optional(),
});
type Args = z.infer<typeof Args>;

/** Qwen Code's `MAX_ENTRY_COUNT` for listings. */
const MAX_ENTRIES = 100;

/**
 * Qwen Code `list_directory` (QwenLM/qwen-code `packages/core/src/tools/ls.ts`): absolute path,
 * folders first as `[DIR] name`, at most 100 entries with a `[N items truncated] ...` note.
 */
export function listDirectoryTool(): Tool<Args> {
  return {
    name: "list_directory",
    description: description.trimEnd(),
    kind: "search",
    capability: "list",
    parameters: listDirectorySchema(),
    schema: Args,
    preview: async (args) => ({ title: `ListFiles ${args.path}` }),
    access: (args) => ({ type: "read", paths: [args.path] }),
    async execute(args) {
      const dir = args.path.trim();
      if (!isAbsolute(dir)) return failure(`Path must be absolute: ${dir}`);
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
      const sorted = [...entries].sort((a, b) => {
        if (a.type === "directory" && b.type !== "directory") return -1;
        if (a.type !== "directory" && b.type === "directory") return 1;
        return a.path.localeCompare(b.path);
      });
      const shown = sorted.slice(0, MAX_ENTRIES);
      let text = `Listed ${sorted.length} item(s) in ${dir}:\n---\n${shown
        .map((entry) => `${entry.type === "directory" ? "[DIR] " : ""}${entry.path}`)
        .join("\n")}`;
      const omitted = sorted.length - shown.length;
      if (omitted > 0) text += `\n---\n[${omitted} ${omitted === 1 ? "item" : "items"} truncated] ...`;
      return { output: text };
    },
  };
}
