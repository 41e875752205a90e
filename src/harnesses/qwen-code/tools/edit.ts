import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { replaceInText } from "../../../tools/fs/replace-in-text.js";
import type { FsPort, Tool } from "../../../tools/types.js";
import { isFsError } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/edit.md";
import { editSnippet } from "../edit-snippet.js";
import type { ReadLedger } from "../read-ledger.js";
import { editSchema } from "../tool-schemas.js";
import { failure, isAbsolute } from "./qwen-paths.js";

const Args = z.looseObject({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

type Planned = { ok: true; old: string | null; text: string } | { ok: false; error: string };

/**
 * Qwen Code `edit` (QwenLM/qwen-code `packages/core/src/tools/edit.ts`): exact matching, one
 * occurrence unless `replace_all`, an empty `old_string` creates a file, an existing file must
 * have been fully read first; the answer shows the changed lines with 4 lines of context.
 */
export function editTool(ledger: ReadLedger): Tool<Args> {
  return {
    name: "edit",
    description: description.trimEnd(),
    kind: "edit",
    capability: "edit",
    parameters: editSchema(),
    schema: Args,
    async preview(args, ctx) {
      const plan = isAbsolute(args.file_path)
        ? await planEdit({ args, ledger, fs: ctx.fs }).catch(() => undefined)
        : undefined;
      const title = `Edit ${args.file_path}`;
      if (!plan?.ok) return { title, locations: [{ path: args.file_path }] };
      return {
        title,
        locations: [{ path: args.file_path }],
        display: [{ type: "diff", path: args.file_path, oldText: plan.old, newText: plan.text }],
      };
    },
    access: (args) => ({ type: "write", paths: [args.file_path] }),
    async execute(args, ctx) {
      const file = args.file_path.trim();
      if (!file) return failure("The 'file_path' parameter must be non-empty.");
      if (!isAbsolute(file)) return failure(`File path must be absolute: ${file}`);
      const plan = await planEdit({ args, ledger, fs: ctx.fs });
      if (!plan.ok) return failure(plan.error);
      try {
        await ctx.fs.writeText(file, plan.text);
      } catch (error) {
        return failure(`Error executing edit: ${error instanceof Error ? error.message : String(error)}`);
      }
      await ledger.recordWrite(ctx.fs, file);
      const snippet = editSnippet(plan.old?.replace(/\r\n/g, "\n") ?? null, plan.text.replace(/\r\n/g, "\n"));
      const parts = [
        plan.old === null
          ? `Created new file: ${file} with provided content.`
          : `The file: ${file} has been updated.`,
      ];
      if (snippet) {
        parts.push(
          `Showing lines ${snippet.startLine}-${snippet.endLine} of ${snippet.totalLines} from the edited file:\n\n---\n\n${snippet.content}`,
        );
      }
      return {
        output: parts.join(" "),
        display: [{ type: "diff", path: file, oldText: plan.old, newText: plan.text }],
      };
    },
  };
}

async function planEdit(options: { args: Args; ledger: ReadLedger; fs: FsPort }): Promise<Planned> {
  const { args, ledger, fs } = options;
  const file = args.file_path.trim();
  let current: { content: string; mtimeMs: number } | undefined;
  try {
    current = await readTextFile({ fs, path: file });
  } catch (error) {
    if (!isFsError(error, "not_found")) throw error;
  }
  if (!current) {
    if (args.old_string === "") return { ok: true, old: null, text: args.new_string };
    return { ok: false, error: `File not found: ${file}` };
  }
  if (args.old_string === "") return { ok: false, error: `File already exists, cannot create: ${file}` };
  const refusal = ledger.priorReadError(file, current.mtimeMs, "editing");
  if (refusal) return { ok: false, error: refusal };
  const crlf = current.content.includes("\r\n");
  const text = current.content.replace(/\r\n/g, "\n");
  try {
    const result = replaceInText({
      text,
      oldString: args.old_string.replace(/\r\n/g, "\n"),
      newString: args.new_string.replace(/\r\n/g, "\n"),
      replaceAll: args.replace_all === true,
    });
    return { ok: true, old: current.content, text: crlf ? result.text.replace(/\n/g, "\r\n") : result.text };
  } catch (error) {
    if (isFsError(error, "no_match")) {
      return {
        ok: false,
        error: `Failed to edit, 0 occurrences found for old_string in ${file}. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`,
      };
    }
    if (isFsError(error, "multiple_matches")) {
      return {
        ok: false,
        error: `Failed to edit. Found ${error.count} occurrences for old_string in ${file} but replace_all was not enabled.`,
      };
    }
    if (isFsError(error, "no_change")) {
      return {
        ok: false,
        error: `No changes to apply. The old_string and new_string are identical in file: ${file}`,
      };
    }
    throw error;
  }
}
