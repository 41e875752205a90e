import { z } from "zod";
import type { Tool } from "../../../../tools/types.js";
import { writeDescription, writeSchema } from "../tool-schemas.js";
import { resolvePath } from "./resolve-path.js";

const Args = z.looseObject({ path: z.string(), content: z.string() });
type Args = z.infer<typeof Args>;

/** pi `write`: creates parents, overwrites, and reports `content.length` as "bytes" (as pi does). */
export function writeTool(): Tool<Args> {
  return {
    name: "write",
    description: writeDescription,
    kind: "edit",
    capability: "write",
    parameters: writeSchema,
    schema: Args,
    async preview(args, ctx) {
      const absolute = resolvePath(args.path, ctx.cwd);
      const before = await ctx.fs.readText(absolute).catch(() => null);
      return {
        title: `write ${args.path}`,
        locations: [{ path: absolute }],
        display: [{ type: "diff", path: absolute, oldText: before, newText: args.content }],
      };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolvePath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      const absolute = resolvePath(args.path, ctx.cwd);
      const before = await ctx.fs.readText(absolute).catch(() => null);
      try {
        await ctx.fs.writeText(absolute, args.content);
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
      return {
        output: `Successfully wrote ${args.content.length} bytes to ${args.path}`,
        display: [{ type: "diff", path: absolute, oldText: before, newText: args.content }],
      };
    },
  };
}
