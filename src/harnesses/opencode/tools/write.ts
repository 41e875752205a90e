import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { writeSchema } from "../tool-schemas.js";
import { resolvePath } from "./resolve-path.js";
import description from "./write.md";

const Args = z.looseObject({ content: z.string(), filePath: z.string() });
type Args = z.infer<typeof Args>;

/** What opencode's `write` answers (1.18.33 `tool/write.ts`). */
export const WROTE_FILE = "Wrote file successfully.";

/** opencode `write`: creates or overwrites the file, parents included. */
export function writeTool(): Tool<Args> {
  return {
    name: "write",
    description: description.trimEnd(),
    kind: "edit",
    capability: "write",
    parameters: writeSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolvePath(args.filePath, ctx.cwd);
      return { title: `write ${args.filePath}`, locations: [{ path: file }] };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolvePath(args.filePath, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolvePath(args.filePath, ctx.cwd);
      const before = await ctx.fs.readText(file).catch(() => null);
      try {
        await ctx.fs.writeText(file, args.content);
      } catch (error) {
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
      return {
        output: WROTE_FILE,
        display: [{ type: "diff", path: file, oldText: before, newText: args.content }],
      };
    },
  };
}
