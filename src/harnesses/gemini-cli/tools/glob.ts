import { stat } from "node:fs/promises";
import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import type { GlobOptions } from "../../../tools/fs/types.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import description from "../descriptions/glob.md";
import { globSchema } from "../tool-schemas.js";
import { searchDirs } from "./tool-paths.js";

const Args = z.looseObject({
  pattern: z.string(),
  dir_path: z.string().optional(),
  case_sensitive: z.boolean().optional(),
  respect_git_ignore: z.boolean().optional(),
  respect_gemini_ignore: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

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
