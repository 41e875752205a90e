import path from "node:path";
import { z } from "zod";
import { grepFiles } from "../../../tools/fs/grep-files.js";
import type { Tool } from "../../../tools/types.js";
import { parseGrepLines } from "../../shared/gemini-core/parse-grep-lines.js";
import { grepSchema } from "../tool-schemas.js";
import description from "./grep.md";

const Args = z.looseObject({
  pattern: z.string(),
  path: z.string().optional(),
  include: z.string().optional(),
});
type Args = z.infer<typeof Args>;

/** opencode's cap on grep matches. */
const LIMIT = 100;

/**
 * opencode `grep` (1.18.33 `tool/grep.ts`): `Found N matches`, then each file's absolute path and
 * its `  Line N: text` lines, at most 100 matches with its notes; `No files found` otherwise.
 * Hidden files are searched; `include` filters file names.
 */
export function grepTool(): Tool<Args> {
  return {
    name: "grep",
    description: description.trimEnd(),
    kind: "search",
    capability: "search",
    parameters: grepSchema,
    schema: Args,
    preview: async (args) => ({ title: `grep ${args.pattern}${args.path ? ` in ${args.path}` : ""}` }),
    access: (args, ctx) => ({ type: "read", paths: [target(args, ctx.cwd)] }),
    async execute(args, ctx) {
      if (!args.pattern) return { output: "pattern is required", isError: true };
      const where = target(args, ctx.cwd);
      let found: Awaited<ReturnType<typeof grepFiles>>;
      try {
        found = await grepFiles({
          pattern: args.pattern,
          path: where,
          signal: ctx.signal,
          glob: args.include,
          outputMode: "content",
          lineNumbers: true,
          headLimit: LIMIT,
        });
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
      const info = await ctx.fs.stat(where);
      const base = info?.isDirectory ? where : path.dirname(where);
      const matches = parseGrepLines(found.lines, found.files, base);
      if (matches.length === 0) return { output: "No files found" };
      const shown = matches.slice(0, LIMIT);
      // opencode asks ripgrep for 100 matches and calls a full page truncated.
      const truncated = shown.length === LIMIT;
      const lines = [`Found ${shown.length} matches${truncated ? " (more matches available)" : ""}`];
      let current = "";
      for (const match of shown) {
        if (match.absolutePath !== current) {
          if (current !== "") lines.push("");
          current = match.absolutePath;
          lines.push(`${current}:`);
        }
        lines.push(`  Line ${match.lineNumber}: ${match.line}`);
      }
      if (truncated) lines.push("", "(Results truncated. Consider using a more specific path or pattern.)");
      return { output: lines.join("\n") };
    },
  };
}

function target(args: Args, cwd: string): string {
  return path.resolve(cwd, args.path ?? ".");
}
