import { readdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { compileGlob } from "../../../tools/fs/glob-pattern.js";
import type { Tool } from "../../../tools/types.js";
import { workDirListing } from "../../shared/work-dir-listing.js";
import { isWithinRoots, resolveUserPath } from "../paths.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { globSchema } from "../tool-schemas.js";
import description from "./glob.md";

const MAX_MATCHES = 1000;

const Args = z.object({
  pattern: z.string(),
  directory: z.string().nullable().optional(),
  include_dirs: z.boolean().default(true),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `Glob` (`tools/file/glob.py`): Python's `Path.glob` under the directory (hidden
 * entries match, no ignore files), sorted, paths relative to it, at most 1000; a pattern that
 * starts with `**` is refused with the working directory's listing.
 */
export function globTool(): Tool<Args> {
  return {
    name: "Glob",
    description,
    kind: "search",
    capability: "search",
    parameters: globSchema,
    schema: Args,
    preview: async (args) => ({ title: `Glob ${args.pattern}` }),
    access: (args, ctx) => ({
      type: "read",
      paths: [args.directory ? resolveUserPath(args.directory, ctx.cwd) : ctx.cwd],
    }),
    async execute(args, ctx) {
      if (args.pattern.startsWith("**"))
        return kimiError(
          `Pattern \`${args.pattern}\` starts with '**' which is not allowed. This would recursively search all directories and may include large directories like \`node_modules\`. Use more specific patterns instead. For your convenience, a list of all files and directories in the top level of the working directory is provided below.`,
          workDirListing(ctx.cwd, { order: "codepoint" }),
        );
      const dir = args.directory ? resolveUserPath(args.directory, ctx.cwd) : ctx.cwd;
      if (args.directory && !path.isAbsolute(args.directory))
        return kimiError(
          `\`${args.directory}\` is not an absolute path. You must provide an absolute path to search.`,
        );
      if (!isWithinRoots(dir, ctx.roots))
        return kimiError(
          `\`${dir}\` is outside the workspace. You can only search within the working directory, additional directories, and skills directories.`,
        );
      const info = await ctx.fs.stat(dir);
      if (!info) return kimiError(`\`${args.directory}\` does not exist.`);
      if (!info.isDirectory) return kimiError(`\`${args.directory}\` is not a directory.`);
      let matches: string[];
      try {
        matches = await pythonGlob(dir, args.pattern, args.include_dirs);
      } catch (error) {
        return kimiError(`Failed to search for pattern ${args.pattern}. Error: ${(error as Error).message}`);
      }
      matches.sort();
      let message =
        matches.length > 0
          ? `Found ${matches.length} matches for pattern \`${args.pattern}\`.`
          : `No matches found for pattern \`${args.pattern}\`.`;
      if (matches.length > MAX_MATCHES) {
        matches = matches.slice(0, MAX_MATCHES);
        message += ` Only the first ${MAX_MATCHES} matches are returned. You may want to use a more specific pattern.`;
      }
      return kimiResult({ message, output: matches.join("\n") });
    },
  };
}

/** Every entry below `dir` whose relative path matches, the way `Path.glob` walks (symlinked directories not followed). */
async function pythonGlob(dir: string, pattern: string, includeDirs: boolean): Promise<string[]> {
  const matches = compileGlob(pattern);
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      const isDir = entry.isDirectory();
      if ((includeDirs || !isDir) && matches(child)) found.push(child);
      if (isDir && (pattern.includes("**") || pattern.split("/").length > child.split("/").length))
        await walk(child);
    }
  };
  await walk("");
  return found;
}
