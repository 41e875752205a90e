import path from "node:path";
import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import type { Tool } from "../../../tools/types.js";
import { globDescription, globSchema } from "../tool-schemas.js";

const Args = z.looseObject({ pattern: z.string(), path: z.string().optional() });
type Args = z.infer<typeof Args>;

/** little-coder's cap on glob results. */
const LIMIT = 500;

/**
 * little-coder `glob` (`extra-tools`): the folder as given (the cwd when none) joined to each
 * match, sorted by path, one a line, at most 500; `No files matched` when nothing does, and
 * `Error: <message>` when the walk fails.
 */
export function globTool(): Tool<Args> {
  return {
    name: "glob",
    description: globDescription,
    kind: "search",
    capability: "search",
    parameters: globSchema,
    schema: Args,
    preview: async (args) => ({ title: `glob ${args.pattern}${args.path ? ` in ${args.path}` : ""}` }),
    access: (args, ctx) => ({ type: "read", paths: [path.resolve(ctx.cwd, args.path || ".")] }),
    async execute(args, ctx) {
      const base = args.path || ctx.cwd;
      try {
        const dir = path.resolve(ctx.cwd, base);
        const found = await globFiles({
          pattern: args.pattern,
          cwd: dir,
          signal: ctx.signal,
          limit: LIMIT,
        });
        const matches = found.files.slice(0, LIMIT).map((file) => `${base}/${path.relative(dir, file)}`);
        matches.sort();
        return { output: matches.length === 0 ? "No files matched" : matches.join("\n") };
      } catch (error) {
        return { output: `Error: ${error instanceof Error ? error.message : String(error)}`, isError: true };
      }
    },
  };
}
