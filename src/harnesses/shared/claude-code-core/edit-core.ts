import { replaceInText } from "../../../tools/fs/replace-in-text.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { ToolContext, ToolPreview } from "../../../tools/types.js";
import { readIfExists, resolveModelPath } from "./file-access.js";

/** Claude Code's Edit/MultiEdit validation messages (FileEditTool `validateInput`). */
export const NO_CHANGES_MESSAGE = "No changes to make: old_string and new_string are exactly the same.";
export const FILE_EXISTS_MESSAGE = "Cannot create new file - file already exists.";

export function notFoundMessage(oldString: string): string {
  return `String to replace not found in file.\nString: ${oldString}`;
}

export function multipleMatchesMessage(count: number, oldString: string): string {
  return `Found ${count} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${oldString}`;
}

export interface Replacement {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/**
 * One exact replacement through the shared executor, or Claude Code's message for why it cannot
 * happen. Matching runs on LF text: the caller converts CRLF files before and after.
 */
export function replaceExact(
  text: string,
  edit: Replacement,
): { ok: true; text: string } | { ok: false; message: string } {
  try {
    const result = replaceInText({
      text,
      oldString: edit.oldString,
      newString: edit.newString,
      replaceAll: edit.replaceAll,
    });
    return { ok: true, text: result.text };
  } catch (error) {
    if (!(error instanceof FsToolError)) throw error;
    if (error.code === "multiple_matches") {
      return { ok: false, message: multipleMatchesMessage(error.count ?? 2, edit.oldString) };
    }
    if (error.code === "no_change") return { ok: false, message: NO_CHANGES_MESSAGE };
    return { ok: false, message: notFoundMessage(edit.oldString) };
  }
}

/** A CRLF file is edited as LF and written back with CRLF, so `old_string` never needs `\r`. */
export function toLf(text: string): { text: string; crlf: boolean } {
  const crlf = text.includes("\r\n");
  return { text: crlf ? text.replaceAll("\r\n", "\n") : text, crlf };
}

export function restoreEol(text: string, crlf: boolean): string {
  return crlf ? text.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n") : text;
}

/**
 * The diff an edit would make, for the editor before the call runs. Falls back to the fragments
 * when the file cannot be read or the edit would not apply (the call then fails with a message).
 */
export async function editPreview(options: {
  filePath: string;
  edits: Replacement[];
  ctx: ToolContext;
}): Promise<ToolPreview> {
  const file = resolveModelPath(options.filePath, options.ctx.cwd);
  const preview: ToolPreview = { title: `Edit \`${file}\``, locations: [{ path: file }] };
  const fallback = () => ({
    ...preview,
    display: options.edits.map((edit) => ({
      type: "diff" as const,
      path: file,
      oldText: edit.oldString || null,
      newText: edit.newString,
    })),
  });
  const existing = await readIfExists(options.ctx.fs, file).catch(() => undefined);
  if (!existing) return fallback();
  const { text, crlf } = toLf(existing.content);
  let updated = text;
  for (const edit of options.edits) {
    const step = replaceExact(updated, edit);
    if (!step.ok) return fallback();
    updated = step.text;
  }
  return {
    ...preview,
    display: [{ type: "diff", path: file, oldText: existing.content, newText: restoreEol(updated, crlf) }],
  };
}
