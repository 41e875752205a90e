import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import {
  editPreview,
  NO_CHANGES_MESSAGE,
  replaceExact,
  restoreEol,
  toLf,
} from "../../shared/claude-code-core/edit-core.js";
import {
  fileProblemMessage,
  readIfExists,
  resolveModelPath,
} from "../../shared/claude-code-core/file-access.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { editSchema } from "../tool-schemas.js";
import type { ZCodeState } from "../zcode-state.js";
import description from "./edit.md";

export const NOT_READ = toolUseError("File has not been read yet. Read it first before writing to it.");
export const OLD_STRING_NOT_FOUND = "Edit failed: old_string not found";
export const OLD_STRING_NOT_UNIQUE =
  "Edit failed: old_string found multiple times; set replace_all to true or provide more context";

const Args = z.looseObject({
  file_path: z.string().min(1),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * ZCode `Edit` as upstream Open Interpreter 0.0.40 answers it: a file the model has neither read
 * nor written in this session is refused in `<tool_use_error>`; `old_string` must occur (once,
 * unless `replace_all`), with upstream's two `Edit failed:` texts; success says the file state is
 * current, so the model does not read it back. The replacement is Claude Code's (CRLF kept).
 */
export function editTool(options: { state: ZCodeState }): Tool<Args> {
  return {
    name: "Edit",
    description,
    kind: "edit",
    capability: "write",
    parameters: editSchema,
    schema: Args,
    preview: (args, ctx) =>
      editPreview({
        filePath: args.file_path,
        edits: [
          { oldString: args.old_string, newString: args.new_string, replaceAll: args.replace_all ?? false },
        ],
        ctx,
      }),
    access: (args, ctx) => ({ type: "write", paths: [resolveModelPath(args.file_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      if (!options.state.known(file)) return { output: NOT_READ, isError: true };
      let existing: Awaited<ReturnType<typeof readIfExists>>;
      try {
        existing = await readIfExists(ctx.fs, file);
      } catch (error) {
        return { output: `Edit failed: ${fileProblemMessage(error, file)}`, isError: true };
      }
      if (!existing) return { output: "Edit failed: No such file or directory (os error 2)", isError: true };
      const { text, crlf } = toLf(existing.content);
      const step = replaceExact(text, {
        oldString: args.old_string,
        newString: args.new_string,
        replaceAll: args.replace_all ?? false,
      });
      // Upstream replaces without comparing the two strings: an identical pair found in the file succeeds.
      const same = !step.ok && step.message === NO_CHANGES_MESSAGE && text.includes(args.old_string);
      if (!step.ok && !same) {
        const output = step.message.startsWith("Found ") ? OLD_STRING_NOT_UNIQUE : OLD_STRING_NOT_FOUND;
        return { output, isError: true };
      }
      const updated = step.ok ? restoreEol(step.text, crlf) : existing.content;
      await ctx.fs.writeText(file, updated);
      options.state.saw(file, updated);
      return {
        output: `The file ${file} has been updated successfully. (file state is current in your context — no need to Read it back)`,
        display: [{ type: "diff", path: file, oldText: existing.content, newText: updated }],
      };
    },
  };
}
