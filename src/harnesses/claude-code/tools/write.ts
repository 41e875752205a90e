import { z } from "zod";
import type { ReadTracker } from "../../../tools/fs/read-tracker.js";
import type { Tool } from "../../../tools/types.js";
import {
  fileProblemMessage,
  freshnessProblem,
  readIfExists,
  recordOwnWrite,
  resolveModelPath,
} from "../../shared/claude-code-core/file-access.js";
import { toolUseError, updatedWithSnippet } from "../../shared/claude-code-core/format.js";
import { writeSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./write.md";

const Args = z.looseObject({ file_path: z.string().min(1), content: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Claude Code `Write`: creates a file, or overwrites one the model has Read and that has not
 * changed since. Results: `File created successfully at: <path>` for a new file, the numbered
 * new content for an overwrite (FileWriteTool `mapToolResultToToolResultBlockParam`).
 */
export function writeTool(options: { files: ReadTracker }): Tool<Args> {
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
      let existing: Awaited<ReturnType<typeof readIfExists>>;
      try {
        existing = await readIfExists(ctx.fs, file);
      } catch (error) {
        return { output: toolUseError(fileProblemMessage(error, file)), isError: true };
      }
      if (existing) {
        const stale = freshnessProblem(options.files, existing);
        if (stale) return { output: toolUseError(stale), isError: true };
      }
      await ctx.fs.writeText(file, args.content);
      await recordOwnWrite({ files: options.files, fs: ctx.fs, file });
      const display = [
        { type: "diff" as const, path: file, oldText: existing?.content ?? null, newText: args.content },
      ];
      if (!existing) return { output: `File created successfully at: ${args.file_path}`, display };
      return { output: updatedWithSnippet(args.file_path, args.content, 1), display };
    },
  };
}
