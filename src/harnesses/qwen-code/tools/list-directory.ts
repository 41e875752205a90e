import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { sortedListing } from "../../shared/gemini-core/sorted-listing.js";
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
      const sorted = await sortedListing(dir, args);
      if (!Array.isArray(sorted)) return sorted;
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
