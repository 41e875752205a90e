import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { replaceInText } from "../../../tools/fs/replace-in-text.js";
import type { Tool, ToolContext } from "../../../tools/types.js";
import { displayPath, isFsError, resolveToolPath } from "../../shared/gemini-core/tool-paths.js";
import gemini3Description from "../descriptions/replace.gemini-3.md";
import legacyDescription from "../descriptions/replace.md";
import { diffContextSnippet } from "../diff-snippet.js";
import { omissionPlaceholders } from "../omission-placeholders.js";
import type { ToolFamily } from "../tool-family.js";
import { replaceSchema } from "../tool-schemas.js";

const Args = z.looseObject({
  file_path: z.string(),
  instruction: z.string().optional(),
  old_string: z.string(),
  new_string: z.string(),
  allow_multiple: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

type Planned =
  | { ok: true; file: string; old: string | null; text: string; count: number }
  | { ok: false; error: string };

/**
 * Gemini CLI `replace` (`packages/core/src/tools/edit.ts`): exact match first, then the tolerant
 * line match (whitespace and indentation) Gemini falls back to; an empty `old_string` creates a
 * file. Error texts are the `raw` messages Gemini sends the model. Its LLM "edit fixer" and fuzzy
 * tier are not reproduced.
 */
export function replaceTool(family: ToolFamily): Tool<Args> {
  return {
    name: "replace",
    description: (family === "gemini-3" ? gemini3Description : legacyDescription).trimEnd(),
    kind: "edit",
    capability: "edit",
    parameters: replaceSchema(family),
    schema: Args,
    async preview(args, ctx) {
      const file = resolveToolPath(ctx.cwd, args.file_path);
      const plan = await planReplace(args, ctx).catch(() => undefined);
      const title = `Edit ${displayPath(ctx.cwd, file)}: ${snippet(args.old_string)} => ${snippet(args.new_string)}`;
      if (!plan?.ok) return { title, locations: [{ path: file }] };
      return {
        title,
        locations: [{ path: file }],
        display: [{ type: "diff", path: file, oldText: plan.old, newText: plan.text }],
      };
    },
    access: (args, ctx) => ({ type: "write", paths: [resolveToolPath(ctx.cwd, args.file_path)] }),
    async execute(args, ctx) {
      const placeholders = omissionPlaceholders(args.new_string);
      const inOld = new Set(omissionPlaceholders(args.old_string));
      if (placeholders.some((p) => !inOld.has(p))) {
        return failure(
          "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
        );
      }
      const plan = await planReplace(args, ctx);
      if (!plan.ok) return failure(plan.error);
      try {
        await ctx.fs.writeText(plan.file, plan.text);
      } catch (error) {
        return failure(`Error executing edit: ${error instanceof Error ? error.message : String(error)}`);
      }
      const status =
        plan.old === null
          ? `Created new file: ${plan.file} with provided content.`
          : `Successfully modified file: ${plan.file} (${plan.count} replacements).`;
      return {
        output: `${status} Here is the updated code:\n${diffContextSnippet(plan.old ?? "", plan.text, 5)}`,
        display: [{ type: "diff", path: plan.file, oldText: plan.old, newText: plan.text }],
      };
    },
  };
}

async function planReplace(args: Args, ctx: ToolContext): Promise<Planned> {
  const file = resolveToolPath(ctx.cwd, args.file_path);
  let raw: string | undefined;
  try {
    raw = (await readTextFile({ fs: ctx.fs, path: file })).content;
  } catch (error) {
    if (!isFsError(error, "not_found")) throw error;
  }
  if (raw === undefined) {
    if (args.old_string === "") return { ok: true, file, old: null, text: args.new_string, count: 1 };
    return { ok: false, error: `File not found: ${file}` };
  }
  if (args.old_string === "") return { ok: false, error: `File already exists, cannot create: ${file}` };
  const crlf = raw.includes("\r\n");
  const current = raw.replace(/\r\n/g, "\n");
  const oldString = args.old_string.replace(/\r\n/g, "\n");
  // Gemini counts occurrences before it notices that nothing would change.
  const exact = current.split(oldString).length - 1;
  if (
    oldString === args.new_string.replace(/\r\n/g, "\n") &&
    exact !== 1 &&
    !(exact > 1 && args.allow_multiple)
  ) {
    return {
      ok: false,
      error: exact === 0 ? noMatch(args.file_path) : multipleMatches(args.file_path, exact),
    };
  }
  try {
    const result = replaceInText({
      text: current,
      oldString,
      newString: args.new_string.replace(/\r\n/g, "\n"),
      replaceAll: args.allow_multiple === true,
      tolerant: true,
    });
    const text = crlf ? result.text.replace(/\r?\n/g, "\r\n") : result.text;
    return { ok: true, file, old: raw, text, count: result.replacements };
  } catch (error) {
    if (isFsError(error, "no_match")) return { ok: false, error: noMatch(args.file_path) };
    if (isFsError(error, "multiple_matches")) {
      return { ok: false, error: multipleMatches(args.file_path, error.count ?? 2) };
    }
    if (isFsError(error, "no_change")) {
      return {
        ok: false,
        error: `No changes to apply. The old_string and new_string are identical in file: ${args.file_path}`,
      };
    }
    throw error;
  }
}

/** Gemini CLI's `raw` edit errors (`packages/core/src/tools/edit.ts::getErrorReplaceResult`). */
function noMatch(file: string): string {
  return `Failed to edit, 0 occurrences found for old_string in ${file}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`;
}

function multipleMatches(file: string, count: number): string {
  return `Failed to edit, Expected 1 occurrence but found ${count} for old_string in file: ${file}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.`;
}

function snippet(text: string): string {
  return (text.split("\n")[0] ?? "").substring(0, 30) + (text.length > 30 ? "..." : "");
}

function failure(message: string) {
  return { output: message, isError: true };
}
