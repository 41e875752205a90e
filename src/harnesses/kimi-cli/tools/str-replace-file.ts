import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { outsideError, resolveUserPath } from "../paths.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { strReplaceFileSchema } from "../tool-schemas.js";
import { planTarget } from "./plan-target.js";
import description from "./str-replace-file.md";

const Edit = z.object({ old: z.string(), new: z.string(), replace_all: z.boolean().default(false) });
type Edit = z.infer<typeof Edit>;
const Args = z.object({ path: z.string(), edit: z.union([Edit, z.array(Edit)]) });
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `StrReplaceFile` (`tools/file/replace.py`): each edit replaces the first
 * occurrence (every one with `replace_all`), in order, with no uniqueness check; an edit that
 * changes nothing fails only when no edit changed anything.
 */
export function strReplaceFileTool(): Tool<Args> {
  return {
    name: "StrReplaceFile",
    description,
    kind: "edit",
    capability: "edit",
    parameters: strReplaceFileSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolveUserPath(args.path, ctx.cwd);
      const old = await ctx.fs.readText(file).catch(() => undefined);
      return {
        title: `Edit ${args.path}`,
        locations: [{ path: file }],
        ...(old === undefined
          ? {}
          : {
              display: [
                { type: "diff" as const, path: file, oldText: old, newText: apply(old, edits(args)) },
              ],
            }),
      };
    },
    access(args, ctx) {
      const file = resolveUserPath(args.path, ctx.cwd);
      if (planTarget(file, ctx).isPlan) return { type: "none" };
      return { type: "write", paths: [file] };
    },
    async execute(args, ctx) {
      if (!args.path) return kimiError("File path cannot be empty.");
      const file = resolveUserPath(args.path, ctx.cwd);
      const outside = outsideError({ raw: args.path, absolute: file, roots: ctx.roots, verb: "edit" });
      if (outside) return kimiError(outside);
      const plan = planTarget(file, ctx);
      if (plan.error) return kimiError(plan.error);
      const info = await ctx.fs.stat(file);
      if (!info) {
        if (plan.isPlan)
          return kimiError(
            "The current plan file does not exist yet. Use WriteFile to create it before calling StrReplaceFile.",
          );
        return kimiError(`\`${args.path}\` does not exist.`);
      }
      if (!info.isFile) return kimiError(`\`${args.path}\` is not a file.`);
      try {
        const original = await ctx.fs.readText(file);
        const list = edits(args);
        const content = apply(original, list);
        if (content === original)
          return kimiError("No replacements were made. The old string was not found in the file.");
        await ctx.fs.writeText(file, content);
        // Counted against the original text, as 1.49.0 counts them.
        const total = list.reduce(
          (sum, e) => sum + (e.replace_all ? occurrences(original, e.old) : original.includes(e.old) ? 1 : 0),
          0,
        );
        return {
          ...kimiResult({
            message: `File successfully edited. Applied ${list.length} edit(s) with ${total} total replacement(s).`,
          }),
          display: [{ type: "diff", path: file, oldText: original, newText: content }],
        };
      } catch (error) {
        return kimiError(`Failed to edit. Error: ${(error as Error).message}`);
      }
    },
  };
}

function edits(args: Args): Edit[] {
  return Array.isArray(args.edit) ? args.edit : [args.edit];
}

/** Python's `str.replace`: an empty `old` matches between every character. */
function apply(text: string, list: Edit[]): string {
  return list.reduce(
    (content, e) => (e.replace_all ? content.split(e.old).join(e.new) : content.replace(e.old, () => e.new)),
    text,
  );
}

function occurrences(text: string, needle: string): number {
  return needle === "" ? text.length + 1 : text.split(needle).length - 1;
}
