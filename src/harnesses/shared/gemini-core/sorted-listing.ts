import { listDirectory } from "../../../tools/fs/list-directory.js";
import type { DirectoryEntry } from "../../../tools/fs/types.js";
import type { ToolResult } from "../../../tools/types.js";
import { isFsError } from "./tool-paths.js";

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
