import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { failed, forContext } from "../tool-result.js";
import { writeFileSchema } from "../tool-schemas.js";
import { unifiedDiff } from "../unified-diff.js";
import { ioText, resolvePath } from "./resolve-path.js";
import description from "./write-file.md";

const Args = z.looseObject({ path: z.string(), content: z.string() });
type Args = z.infer<typeof Args>;

/**
 * CodeWhale `write_file` (0.8.44 `tools/file.rs`): creates or overwrites, parents included, and
 * answers with the unified diff against what was there and `Wrote N bytes to PATH` or
 * `Created PATH (N bytes)`.
 */
export function writeFileTool(options: { model: string }): Tool<Args> {
  return {
    name: "write_file",
    description: description.trimEnd(),
    kind: "edit",
    capability: "edit",
    parameters: writeFileSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: `write_file ${args.path}`,
      locations: [{ path: resolvePath(args.path, ctx.cwd) }],
    }),
    access: (args, ctx) => ({ type: "write", paths: [resolvePath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolvePath(args.path, ctx.cwd);
      const existed = (await ctx.fs.stat(file)) !== undefined;
      const before = existed ? await ctx.fs.readText(file).catch(() => "") : "";
      try {
        await ctx.fs.writeText(file, args.content);
      } catch (error) {
        return failed(`Failed to write ${file}: ${ioText(error)}`);
      }
      const bytes = Buffer.byteLength(args.content);
      const summary = existed ? `Wrote ${bytes} bytes to ${file}` : `Created ${file} (${bytes} bytes)`;
      const diff = unifiedDiff(file, before, args.content);
      const body = diff ? `${diff}\n${summary}` : `${summary}\n(no changes)`;
      return {
        output: forContext({ model: options.model, tool: "write_file", output: body }),
        display: [{ type: "diff", path: file, oldText: existed ? before : null, newText: args.content }],
      };
    },
  };
}
