import path from "node:path";
import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { parseNotebook } from "../../../tools/notebook/notebook.js";
import type { Tool, ToolContext, ToolResult } from "../../../tools/types.js";
import { isFsError } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/read-file.md";
import { notebookText } from "../notebook-text.js";
import type { ReadLedger } from "../read-ledger.js";
import { readFileSchema } from "../tool-schemas.js";
import { TRUNCATE_LINES, TRUNCATE_THRESHOLD } from "../truncate.js";
import { failure, isAbsolute, relativeToProject } from "./qwen-paths.js";

const Args = z.looseObject({
  file_path: z.string(),
  offset: z.number().nullish(),
  limit: z.number().nullish(),
  pages: z.string().nullish(),
});
type Args = z.infer<typeof Args>;

const MAX_FILE_MB = 10;

/**
 * Qwen Code `read_file` (QwenLM/qwen-code `packages/core/src/tools/read-file.ts`,
 * `utils/fileUtils.ts`): absolute paths, 0-based `offset`, up to 1 000 lines and 25 000
 * characters, Qwen's "Showing lines" header when cut; a repeated full read of an unchanged file
 * returns Qwen's placeholder instead of the content. A notebook is shown as its cells.
 */
export function readFileTool(ledger: ReadLedger): Tool<Args> {
  return {
    name: "read_file",
    description: description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: readFileSchema(),
    schema: Args,
    preview: async (args) => ({
      title: `ReadFile ${args.file_path}`,
      locations: [{ path: args.file_path, line: args.offset ?? undefined }],
    }),
    access: (args) => ({ type: "read", paths: [args.file_path] }),
    async execute(raw, ctx) {
      // 0.24.4's schema lets the model send `null` for a parameter it leaves out.
      const args = { ...raw, offset: raw.offset ?? undefined, limit: raw.limit ?? undefined };
      const file = args.file_path.trim();
      if (!file) return failure("The 'file_path' parameter must be non-empty.");
      if (!isAbsolute(file)) {
        return failure(
          `File path must be absolute, but was relative: ${file}. You must provide an absolute path.`,
        );
      }
      if (args.offset !== undefined && (!Number.isInteger(args.offset) || args.offset < 0)) {
        return failure("Offset must be a non-negative integer");
      }
      if (args.limit !== undefined && (!Number.isInteger(args.limit) || args.limit <= 0)) {
        return failure("Limit must be a positive integer");
      }
      if (raw.pages) return failure("Reading PDF pages is not available in this session.");
      let text: { content: string; mtimeMs: number };
      try {
        text = await readTextFile({ fs: ctx.fs, path: file, maxBytes: MAX_FILE_MB * 1024 * 1024 });
      } catch (error) {
        if (isFsError(error, "binary")) {
          return { output: `Cannot display content of binary file: ${relativeToProject(ctx.cwd, file)}` };
        }
        if (isFsError(error, "not_found")) return failure(`File not found: ${file}`);
        if (isFsError(error, "is_directory")) return failure(`Path is a directory, not a file: ${file}`);
        if (isFsError(error, "too_large"))
          return failure(`File size exceeds the ${MAX_FILE_MB}MB limit: ${file}`);
        throw error;
      }
      const full = args.offset === undefined && args.limit === undefined;
      if (path.extname(file).toLowerCase() === ".ipynb") return readNotebook(ledger, { file, ctx, text });
      if (full && ledger.unchanged(file, text.mtimeMs)) {
        return { output: unchangedPlaceholder(relativeToProject(ctx.cwd, file)) };
      }
      const read = formatRead(text.content, args.offset, args.limit);
      if (full && !read.truncated) ledger.recordFullRead(file, text.mtimeMs);
      return { output: read.text };
    },
  };
}

/** A notebook as its cells (notebook-text.ts); a whole one counts as fully read for notebook_edit. */
function readNotebook(
  ledger: ReadLedger,
  o: { file: string; ctx: ToolContext; text: { content: string; mtimeMs: number } },
): ToolResult {
  const shown = relativeToProject(o.ctx.cwd, o.file);
  try {
    const { text, truncated } = notebookText(parseNotebook(o.text.content));
    if (!truncated) ledger.recordFullRead(o.file, o.text.mtimeMs);
    return { output: text };
  } catch (error) {
    return {
      output: `Error parsing notebook ${shown}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The text Qwen Code returns for a text file, with its header when the read was cut. */
export function formatRead(
  content: string,
  offset?: number,
  limit?: number,
): { text: string; truncated: boolean } {
  const all = content.replace(/^\uFEFF/, "").split("\n");
  const total = all.length;
  const start = offset ?? 0;
  const selected = all
    .slice(Math.min(start, total), Math.min(start + (limit ?? TRUNCATE_LINES), total))
    .map((line) => line.trimEnd());
  const kept: string[] = [];
  let length = 0;
  let cut = false;
  for (const line of selected) {
    const sep = kept.length > 0 ? 1 : 0;
    if (length + line.length + sep <= TRUNCATE_THRESHOLD) {
      kept.push(line);
      length += line.length + sep;
      continue;
    }
    const remaining = Math.max(TRUNCATE_THRESHOLD - length - sep, 10);
    kept.push(`${line.substring(0, remaining)}... [truncated]`);
    cut = true;
    break;
  }
  const end = start + kept.length;
  const truncated = start > 0 || end < total || cut;
  const body = kept.join("\n");
  if (!truncated) return { text: body, truncated };
  return { text: `Showing lines ${start + 1}-${end} of ${total} total lines.\n\n---\n\n${body}`, truncated };
}

function unchangedPlaceholder(relativePath: string): string {
  return (
    `[File ${relativePath} unchanged since last read in this session — ` +
    "the full content was provided earlier in this conversation. " +
    "If you cannot retrieve that prior content (e.g. after context " +
    "compaction) or you suspect the file was modified outside the read/edit " +
    "tools (shell command, MCP tool, another process), re-read with " +
    "explicit offset/limit to fetch current content.]"
  );
}
