import path from "node:path";
import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import type { Tool } from "../../../tools/types.js";
import { globSchema } from "../tool-schemas.js";
import description from "./glob.md";

const Args = z.looseObject({ pattern: z.string(), path: z.string().optional() });
type Args = z.infer<typeof Args>;

/** opencode's cap on glob results. */
const LIMIT = 100;

/**
 * opencode `glob` (1.18.33 `tool/glob.ts`): absolute paths one per line, at most 100 with its
 * truncation note, `No files found` when nothing matches; ignore files are honoured.
 */
export function globTool(): Tool<Args> {
  return {
    name: "glob",
    description: description.trimEnd(),
    kind: "search",
    capability: "search",
    parameters: globSchema,
    schema: Args,
    preview: async (args) => ({ title: `glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}` }),
    access: (args, ctx) => ({ type: "read", paths: [base(args, ctx.cwd)] }),
    async execute(args, ctx) {
      const dir = base(args, ctx.cwd);
      const info = await ctx.fs.stat(dir);
      if (info?.isFile) return { output: `glob path must be a directory: ${dir}`, isError: true };
      const found = await globFiles({
        pattern: args.pattern,
        cwd: dir,
        signal: ctx.signal,
        limit: LIMIT,
      }).catch(() => ({ files: [] as string[] }));
      const files = found.files.slice(0, LIMIT);
      if (files.length === 0) return { output: "No files found" };
      const lines = files.map((file) => path.resolve(dir, file));
      // opencode asks for 100 paths and calls a full page truncated.
      if (files.length === LIMIT)
        lines.push(
          "",
          `(Results are truncated: showing first ${LIMIT} results. Consider using a more specific path or pattern.)`,
        );
      return { output: lines.join("\n") };
    },
  };
}

function base(args: Args, cwd: string): string {
  return args.path ? path.resolve(cwd, args.path) : cwd;
}
