import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { readIfExists, resolveModelPath } from "../../shared/claude-code-core/file-access.js";
import { writeSchema } from "../tool-schemas.js";
import type { ZCodeState } from "../zcode-state.js";
import description from "./write.md";

const Args = z.looseObject({ file_path: z.string().min(1), content: z.string() });
type Args = z.infer<typeof Args>;

/**
 * ZCode `Write` as upstream Open Interpreter 0.0.40 answers it: the file is written (parents
 * created) and the answer, for a new file or a replaced one alike, says where and that the file
 * state is current; upstream does not refuse an unread file, and neither does this.
 */
export function writeTool(options: { state: ZCodeState }): Tool<Args> {
  return {
    name: "Write",
    description,
    kind: "edit",
    capability: "write",
    parameters: writeSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      const existing = await readIfExists(ctx.fs, file).catch(() => undefined);
      return {
        title: `Write ${file}`,
        locations: [{ path: file }],
        display: [{ type: "diff", path: file, oldText: existing?.content ?? null, newText: args.content }],
      };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolveModelPath(args.file_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      const existing = await readIfExists(ctx.fs, file).catch(() => undefined);
      try {
        await ctx.fs.writeText(file, args.content);
      } catch (error) {
        return {
          output: `Write failed: ${error instanceof Error ? error.message : String(error)}`,
          isError: true,
        };
      }
      options.state.saw(file, args.content);
      return {
        output: `File created successfully at: ${file} (file state is current in your context — no need to Read it back)`,
        display: [{ type: "diff", path: file, oldText: existing?.content ?? null, newText: args.content }],
      };
    },
  };
}
