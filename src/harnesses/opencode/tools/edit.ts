import { z } from "zod";
import { replaceInText } from "../../../tools/fs/replace-in-text.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { editSchema } from "../tool-schemas.js";
import description from "./edit.md";
import { resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  filePath: z.string(),
  oldString: z.string(),
  newString: z.string(),
  replaceAll: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/** opencode's answers (1.18.33 `tool/edit.ts`, `replace`). */
export const EDIT_APPLIED = "Edit applied successfully.";
const SAME = "No changes to apply: oldString and newString are identical.";
const NOT_FOUND =
  "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.";
const MULTIPLE =
  "Found multiple matches for oldString. Provide more surrounding context to make the match unique.";
const EMPTY_OLD =
  "oldString cannot be empty when editing an existing file. Provide the exact text to replace, or use write for an intentional full-file replacement.";

/**
 * opencode `edit`: one unique occurrence of `oldString` (every one with `replaceAll`), written in
 * the file's line endings; an empty `oldString` creates a missing file. Failures are the plain
 * messages opencode's errors carry. No Read is required first (1.18.33 does not check).
 */
export function editTool(): Tool<Args> {
  return {
    name: "edit",
    description: description.trimEnd(),
    kind: "edit",
    capability: "edit",
    parameters: editSchema,
    schema: Args,
    preview: async (args, ctx) => {
      const file = resolvePath(args.filePath, ctx.cwd);
      return { title: `edit ${args.filePath}`, locations: [{ path: file }] };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolvePath(args.filePath, ctx.cwd)] }),
    async execute(args, ctx) {
      const fail = (output: string) => ({ output, isError: true });
      if (args.oldString === args.newString) return fail(SAME);
      const file = resolvePath(args.filePath, ctx.cwd);
      const info = await ctx.fs.stat(file);
      if (args.oldString === "") {
        if (info) return fail(EMPTY_OLD);
        await ctx.fs.writeText(file, args.newString);
        return {
          output: EDIT_APPLIED,
          display: [{ type: "diff", path: file, oldText: null, newText: args.newString }],
        };
      }
      if (!info) return fail(`File ${file} not found`);
      if (info.isDirectory) return fail(`Path is a directory, not a file: ${file}`);
      const before = await ctx.fs.readText(file);
      let after: string;
      try {
        after = replaceInText({
          text: before,
          oldString: args.oldString,
          newString: args.newString,
          replaceAll: args.replaceAll ?? false,
          tolerant: true,
        }).text;
      } catch (error) {
        if (!(error instanceof FsToolError)) throw error;
        return fail(
          error.code === "multiple_matches" ? MULTIPLE : error.code === "no_change" ? SAME : NOT_FOUND,
        );
      }
      await ctx.fs.writeText(file, after);
      return {
        output: EDIT_APPLIED,
        display: [{ type: "diff", path: file, oldText: before, newText: after }],
      };
    },
  };
}
