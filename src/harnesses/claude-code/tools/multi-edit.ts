import { z } from "zod";
import type { ReadTracker } from "../../../tools/fs/read-tracker.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import {
  editPreview,
  FILE_EXISTS_MESSAGE,
  NO_CHANGES_MESSAGE,
  type Replacement,
  replaceExact,
  restoreEol,
  toLf,
} from "../../shared/claude-code-core/edit-core.js";
import {
  fileProblemMessage,
  freshnessProblem,
  NOT_FOUND_MESSAGE,
  readIfExists,
  recordOwnWrite,
  resolveModelPath,
} from "../../shared/claude-code-core/file-access.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { multiEditSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./multi-edit.md";

const Args = z.looseObject({
  file_path: z.string().min(1),
  edits: z
    .array(
      z.looseObject({ old_string: z.string(), new_string: z.string(), replace_all: z.boolean().nullish() }),
    )
    .min(1, "At least one edit is required"),
});
type Args = z.infer<typeof Args>;

/** Messages MultiEdit adds to Edit's (observed from Claude Code's MultiEdit). */
export const SUBSTRING_CONFLICT_MESSAGE =
  "Cannot edit file: old_string is a substring of a new_string from a previous edit.";
export const APPLY_FAILED_MESSAGE = "String not found in file. Failed to apply edit.";

const failed = (message: string): ToolResult => ({ output: toolUseError(message), isError: true });

/**
 * Claude Code `MultiEdit`: several Edit-style replacements on one file, all or nothing. Each edit
 * is first checked against the file as read (unique, present, not a no-op), then the edits are
 * applied in order, each on the result of the previous one; the file is written once.
 */
export function multiEditTool(options: { files: ReadTracker }): Tool<Args> {
  const replacements = (args: Args): Replacement[] =>
    args.edits.map((edit) => ({
      oldString: edit.old_string,
      newString: edit.new_string,
      replaceAll: !!edit.replace_all,
    }));
  return {
    name: "MultiEdit",
    description,
    kind: "edit",
    capability: "edit",
    parameters: multiEditSchema,
    schema: Args,
    preview: (args, ctx) => editPreview({ filePath: args.file_path, edits: replacements(args), ctx }),
    access: (args, ctx) => ({ type: "write", paths: [resolveModelPath(args.file_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      const edits = replacements(args);
      for (const edit of edits) if (edit.oldString === edit.newString) return failed(NO_CHANGES_MESSAGE);
      let existing: Awaited<ReturnType<typeof readIfExists>>;
      try {
        existing = await readIfExists(ctx.fs, file);
      } catch (error) {
        return failed(fileProblemMessage(error, file));
      }
      // An empty first old_string creates the file; the other edits then apply to its content.
      const creates = !existing && edits[0]?.oldString === "";
      if (!existing && !creates) return failed(NOT_FOUND_MESSAGE);
      if (existing && edits.some((edit) => edit.oldString === "")) return failed(FILE_EXISTS_MESSAGE);
      if (existing) {
        const stale = freshnessProblem(options.files, existing);
        if (stale) return failed(stale);
      }

      // Checked against the file as read (or as the creating edit writes it), before any edit applies.
      const { text: original, crlf } = toLf(existing?.content ?? edits[0]?.newString ?? "");
      const rest = creates ? edits.slice(1) : edits;
      for (const edit of rest) {
        const check = replaceExact(original, edit);
        if (!check.ok) return failed(check.message);
      }
      for (const [index, edit] of edits.entries()) {
        const earlier = edits.slice(creates ? 1 : 0, index);
        if (earlier.some((previous) => previous.newString.includes(edit.oldString))) {
          return failed(SUBSTRING_CONFLICT_MESSAGE);
        }
      }
      let updated = original;
      for (const edit of rest) {
        const step = replaceExact(updated, edit);
        if (!step.ok) return failed(APPLY_FAILED_MESSAGE);
        updated = step.text;
      }
      const written = restoreEol(updated, crlf);
      await ctx.fs.writeText(file, written);
      await recordOwnWrite({ files: options.files, fs: ctx.fs, file });

      const lines = edits.map((edit, i) => `${i + 1}. Replaced "${edit.oldString}" with "${edit.newString}"`);
      return {
        output: `Applied ${edits.length} ${edits.length === 1 ? "edit" : "edits"} to ${args.file_path}:\n${lines.join("\n")}`,
        display: [{ type: "diff", path: file, oldText: existing?.content ?? null, newText: written }],
      };
    },
  };
}
