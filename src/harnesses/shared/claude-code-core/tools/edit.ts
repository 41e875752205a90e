import { z } from "zod";
import type { ReadTracker } from "../../../../tools/fs/read-tracker.js";
import type { Tool, ToolResult } from "../../../../tools/types.js";
import {
  editPreview,
  FILE_EXISTS_MESSAGE,
  NO_CHANGES_MESSAGE,
  replaceExact,
  restoreEol,
  toLf,
} from "../edit-core.js";
import {
  fileProblemMessage,
  freshnessProblem,
  NOT_FOUND_MESSAGE,
  readIfExists,
  recordOwnWrite,
  resolveModelPath,
} from "../file-access.js";
import { toolUseError } from "../format.js";
import { editSchema } from "../tool-schemas.js";
import description from "./edit.md";

const Args = z.looseObject({
  file_path: z.string().min(1),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().nullish(),
});
type Args = z.infer<typeof Args>;

/** Claude Code 2.x answers a successful Edit with this one line, no snippet of the file. */
export const updatedMessage = (filePath: string): string =>
  `The file ${filePath} has been updated successfully.`;

const failed = (message: string): ToolResult => ({ output: toolUseError(message), isError: true });

/**
 * Claude Code `Edit`: exact string replacement in a file the model has Read this session and
 * that has not changed on disk since; `old_string` must be unique unless `replace_all`. An empty
 * `old_string` creates a file that does not exist yet.
 */
export function editTool(options: { files: ReadTracker; description?: string }): Tool<Args> {
  return {
    name: "Edit",
    description: options.description ?? description,
    kind: "edit",
    capability: "edit",
    parameters: editSchema,
    schema: Args,
    preview: (args, ctx) =>
      editPreview({
        filePath: args.file_path,
        edits: [{ oldString: args.old_string, newString: args.new_string, replaceAll: !!args.replace_all }],
        ctx,
      }),
    access: (args, ctx) => ({ type: "write", paths: [resolveModelPath(args.file_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      const replaceAll = !!args.replace_all;
      if (args.old_string === args.new_string) return failed(NO_CHANGES_MESSAGE);
      let existing: Awaited<ReturnType<typeof readIfExists>>;
      try {
        existing = await readIfExists(ctx.fs, file);
      } catch (error) {
        return failed(fileProblemMessage(error, file));
      }
      if (!existing) {
        if (args.old_string !== "") return failed(NOT_FOUND_MESSAGE);
        await ctx.fs.writeText(file, args.new_string);
        await recordOwnWrite({ files: options.files, fs: ctx.fs, file });
        return {
          output: updatedMessage(args.file_path),
          display: [{ type: "diff", path: file, oldText: null, newText: args.new_string }],
        };
      }
      if (args.old_string === "") return failed(FILE_EXISTS_MESSAGE);
      const stale = freshnessProblem(options.files, existing);
      if (stale) return failed(stale);

      const { text: original, crlf } = toLf(existing.content);
      const edit = { oldString: args.old_string, newString: args.new_string, replaceAll };
      const applied = replaceExact(original, edit);
      if (!applied.ok) return failed(applied.message);
      const updated = restoreEol(applied.text, crlf);
      await ctx.fs.writeText(file, updated);
      await recordOwnWrite({ files: options.files, fs: ctx.fs, file });

      const display = [{ type: "diff" as const, path: file, oldText: existing.content, newText: updated }];
      if (replaceAll) {
        return {
          output: `The file ${args.file_path} has been updated. All occurrences of '${args.old_string}' were successfully replaced with '${args.new_string}'.`,
          display,
        };
      }
      return { output: updatedMessage(args.file_path), display };
    },
  };
}
