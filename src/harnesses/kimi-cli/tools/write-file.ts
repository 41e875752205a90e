import path from "node:path";
import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { outsideError, resolveUserPath } from "../paths.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { writeFileSchema } from "../tool-schemas.js";
import { planTarget } from "./plan-target.js";
import description from "./write-file.md";

const Args = z.object({
  path: z.string(),
  content: z.string(),
  mode: z.enum(["overwrite", "append"]).default("overwrite"),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `WriteFile` (`tools/file/write.py`): overwrite or append; the parent directory
 * must exist; the message gives the file's size after writing.
 */
export function writeFileTool(): Tool<Args> {
  return {
    name: "WriteFile",
    description,
    kind: "edit",
    capability: "write",
    parameters: writeFileSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolveUserPath(args.path, ctx.cwd);
      const old = args.mode === "append" ? await ctx.fs.readText(file).catch(() => "") : null;
      const newText = args.mode === "append" ? (old ?? "") + args.content : args.content;
      return {
        title: `Write ${args.path}`,
        locations: [{ path: file }],
        display: [{ type: "diff", path: file, oldText: old, newText }],
      };
    },
    access(args, ctx) {
      const file = resolveUserPath(args.path, ctx.cwd);
      // Plan file writes are approved without asking, as 1.49.0 does.
      if (planTarget(file, ctx).isPlan) return { type: "none" };
      return { type: "write", paths: [file] };
    },
    async execute(args, ctx) {
      if (!args.path) return kimiError("File path cannot be empty.");
      const file = resolveUserPath(args.path, ctx.cwd);
      const outside = outsideError({ raw: args.path, absolute: file, roots: ctx.roots, verb: "write" });
      if (outside) return kimiError(outside);
      const plan = planTarget(file, ctx);
      if (plan.error) return kimiError(plan.error);
      const parent = await ctx.fs.stat(path.dirname(file));
      if (!plan.isPlan && !parent?.isDirectory)
        return kimiError(`\`${args.path}\` parent directory does not exist.`);
      try {
        const existed = await ctx.fs.stat(file);
        const old = existed ? await ctx.fs.readText(file) : "";
        const content = args.mode === "append" ? old + args.content : args.content;
        await ctx.fs.writeText(file, content);
        const size = (await ctx.fs.stat(file))?.size ?? Buffer.byteLength(content);
        const action = args.mode === "overwrite" ? "overwritten" : "appended to";
        return {
          ...kimiResult({ message: `File successfully ${action}. Current size: ${size} bytes.` }),
          display: [{ type: "diff", path: file, oldText: existed ? old : null, newText: content }],
        };
      } catch (error) {
        return kimiError(`Failed to write to ${args.path}. Error: ${(error as Error).message}`);
      }
    },
  };
}
