import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { replaceInText } from "../../../tools/fs/replace-in-text.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool, ToolContext } from "../../../tools/types.js";
import { resolveKimiPath } from "../path-access.js";
import { editSchema } from "../tool-schemas.js";
import description from "./edit.md";

const Args = z.object({
  path: z.string(),
  old_string: z.string().min(1),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

type Planned =
  | { ok: true; file: string; before: string; after: string; count: number }
  | { ok: false; error: string };

/**
 * Kimi Code `Edit` (kimi-code `agent/tools/edit/editTool.ts`, `app/edit/editService.ts`): exact
 * match only, unique unless `replace_all`, LF in the model's view written back as CRLF for
 * CRLF files. No read-before-edit gate: upstream relies on the description for that.
 */
export function editTool(): Tool<Args> {
  return {
    name: "Edit",
    description,
    kind: "edit",
    capability: "edit",
    parameters: editSchema,
    schema: Args,
    async preview(args, ctx) {
      const planned = await plan(args, ctx, false);
      if (!planned.ok) return { title: `Edit ${args.path}` };
      return {
        title: `Edit ${args.path}`,
        locations: [{ path: planned.file }],
        display: [{ type: "diff", path: planned.file, oldText: planned.before, newText: planned.after }],
      };
    },
    access(args, ctx) {
      const resolved = resolveKimiPath({ ...where(args, ctx), checkSensitive: false });
      return resolved.ok ? { type: "write", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const planned = await plan(args, ctx, true);
      if (!planned.ok) return { output: planned.error, isError: true };
      await ctx.fs.writeText(planned.file, planned.after);
      const word = planned.count === 1 ? "occurrence" : "occurrences";
      return {
        output: `Replaced ${planned.count} ${word} in ${args.path}`,
        display: [{ type: "diff", path: planned.file, oldText: planned.before, newText: planned.after }],
      };
    },
  };
}

function where(args: Args, ctx: ToolContext) {
  return { path: args.path, cwd: ctx.cwd, roots: ctx.roots, operation: "write" as const };
}

async function plan(args: Args, ctx: ToolContext, checkSensitive: boolean): Promise<Planned> {
  if (args.old_string === args.new_string) {
    return { ok: false, error: "No changes to make: old_string and new_string are exactly the same." };
  }
  const resolved = resolveKimiPath({ ...where(args, ctx), checkSensitive });
  if (!resolved.ok) return resolved;
  try {
    const { content } = await readTextFile({ fs: ctx.fs, path: resolved.path });
    const replaced = replaceInText({
      text: content,
      oldString: args.old_string,
      newString: args.new_string,
      replaceAll: args.replace_all ?? false,
    });
    return {
      ok: true,
      file: resolved.path,
      before: content,
      after: replaced.text,
      count: replaced.replacements,
    };
  } catch (error) {
    return { ok: false, error: editError(error, args.path) };
  }
}

/** Upstream's wording; the not-found message ends with a line break, as upstream's does. */
function editError(error: unknown, shown: string): string {
  if (!(error instanceof FsToolError)) return error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case "no_match":
      return `old_string not found in ${shown}, the file contents may be out of date. Please use the Read Tool to reload the content.\n`;
    case "multiple_matches":
      return `old_string is not unique in ${shown} (found ${error.count} occurrences). To replace every occurrence, set replace_all=true. To replace only one occurrence, include more surrounding context in old_string.`;
    case "no_change":
      return "No changes to make: old_string and new_string are exactly the same.";
    case "not_found":
      return "read failed: path does not exist";
    case "is_directory":
      return `${shown} is not a file.`;
    default:
      return error.message;
  }
}
