import path from "node:path";
import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { resolveKimiPath } from "../path-access.js";
import { writeSchema } from "../tool-schemas.js";
import description from "./write.md";

const Args = z.object({
  path: z.string(),
  content: z.string(),
  mode: z.enum(["overwrite", "append"]).optional(),
});
type Args = z.infer<typeof Args>;

/** Kimi Code `Write` (kimi-code `agent/tools/os/write/writeTool.ts`): result `Wrote N bytes to <path>`. */
export function writeTool(): Tool<Args> {
  const resolve = (args: Args, ctx: { cwd: string; roots: string[] }, checkSensitive: boolean) =>
    resolveKimiPath({ path: args.path, cwd: ctx.cwd, roots: ctx.roots, operation: "write", checkSensitive });
  return {
    name: "Write",
    description,
    kind: "edit",
    capability: "write",
    parameters: writeSchema,
    schema: Args,
    async preview(args, ctx) {
      const resolved = resolve(args, ctx, false);
      if (!resolved.ok) return { title: `Write ${args.path}` };
      const before = await ctx.fs.readText(resolved.path).catch(() => null);
      const after = args.mode === "append" ? (before ?? "") + args.content : args.content;
      return {
        title: `Write ${args.path}`,
        locations: [{ path: resolved.path }],
        display: [{ type: "diff", path: resolved.path, oldText: before, newText: after }],
      };
    },
    access(args, ctx) {
      const resolved = resolve(args, ctx, false);
      return resolved.ok ? { type: "write", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const resolved = resolve(args, ctx, true);
      if (!resolved.ok) return { output: resolved.error, isError: true };
      const file = resolved.path;
      const parent = await ctx.fs.stat(path.dirname(file));
      if (parent && !parent.isDirectory) {
        return { output: `Parent path is not a directory: ${path.dirname(file)}.`, isError: true };
      }
      const mode = args.mode ?? "overwrite";
      try {
        const before = await ctx.fs.readText(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return null;
          throw error;
        });
        const after = mode === "append" ? (before ?? "") + args.content : args.content;
        await ctx.fs.writeText(file, after);
        const bytes = Buffer.byteLength(args.content, "utf8");
        return {
          output: `${mode === "append" ? "Appended" : "Wrote"} ${bytes} bytes to ${args.path}`,
          display: [{ type: "diff", path: file, oldText: before, newText: after }],
        };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EISDIR") return { output: "write failed: path is a directory", isError: true };
        return { output: error instanceof Error ? error.message : String(error), isError: true };
      }
    },
  };
}
