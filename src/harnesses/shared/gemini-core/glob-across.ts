import { stat } from "node:fs/promises";
import { globFiles } from "../../../tools/fs/glob-files.js";
import type { GlobOptions } from "../../../tools/fs/types.js";
import type { ToolResult } from "../../../tools/types.js";

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The files matching `pattern` in each of `dirs`, without repeats and unsorted; a failure comes
 * back as the `isError` result Gemini CLI and Qwen Code both give.
 */
export async function globAcross(
  options: Pick<GlobOptions, "pattern" | "signal" | "caseSensitive" | "respectGitignore"> & {
    dirs: string[];
  },
): Promise<string[] | ToolResult> {
  const { dirs, ...glob } = options;
  const files: string[] = [];
  try {
    for (const dir of dirs) files.push(...(await globFiles({ ...glob, cwd: dir })).files);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { output: `Error during glob search operation: ${message}`, isError: true };
  }
  return [...new Set(files)];
}

/** Gemini CLI's `sortFileEntries` (Qwen Code keeps it): files changed in the last day newest first, then the rest by path. */
export async function sortByRecency(files: string[], now: number): Promise<string[]> {
  const entries = await Promise.all(
    files.map(async (file) => ({
      file,
      mtime: await stat(file).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    })),
  );
  return entries
    .sort((a, b) => {
      const aRecent = now - a.mtime < ONE_DAY_MS;
      const bRecent = now - b.mtime < ONE_DAY_MS;
      if (aRecent && bRecent) return b.mtime - a.mtime;
      if (aRecent) return -1;
      if (bRecent) return 1;
      return a.file.localeCompare(b.file);
    })
    .map((entry) => entry.file);
}
