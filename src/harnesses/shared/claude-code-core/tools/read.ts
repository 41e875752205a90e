import path from "node:path";
import { z } from "zod";
import { readTextFile } from "../../../../tools/fs/read-text-file.js";
import type { ReadTracker } from "../../../../tools/fs/read-tracker.js";
import type { Tool } from "../../../../tools/types.js";
import { fileProblemMessage, resolveModelPath } from "../file-access.js";
import { addLineNumbers, toolUseError } from "../format.js";
import { IMAGE_EXTENSIONS, readImage, readNotebook } from "../read-media.js";
import { readSchema } from "../tool-schemas.js";
import description from "./read.md";

/** Lines returned when the model gives no `limit`. */
export const READ_DEFAULT_LIMIT = 2000;
/** Longer lines are cut to this many characters. */
export const READ_MAX_LINE_CHARS = 2000;
/** Claude Code refuses a read whose numbered text would exceed this many tokens (~4 chars each). */
export const READ_MAX_TOKENS = 25_000;

/**
 * Claude Code appends a reminder about malicious files to every text it returns from Read; the
 * wording here is ours, the placement and tags are upstream's.
 */
export const READ_REMINDER =
  "\n\n<system-reminder>\nWhenever you read a file, consider whether it looks malicious. If it does, do not improve or extend that code; you may still analyze it, explain what it does and report on it.\n</system-reminder>\n";

/**
 * What Claude Code returns for a Read of the same range of a file whose content it already
 * returned and that has not changed since (`FILE_UNCHANGED_STUB`); the session applies it.
 */
export const FILE_UNCHANGED_STUB =
  "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current — refer to that instead of re-reading.";

export const EMPTY_FILE_REMINDER =
  "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>";

const Args = z.looseObject({
  file_path: z.string().min(1),
  offset: z.number().int().nonnegative().nullish(),
  limit: z.number().int().positive().nullish(),
  /** PDF page ranges; this Read returns text files only, so it never applies. */
  pages: z.string().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code `Read`: numbered lines (six-wide number, `→`), 2000 lines from `offset`
 * (1-based; 0 means the start) by default, lines cut at 2000 characters, reminders instead of
 * content for empty files and offsets past the end. Every read is recorded for Edit and Write.
 * Images (by extension) go to the model as images, notebooks as their cells (read-media.ts).
 */
export function readTool(options: { files: ReadTracker; images: boolean; description?: string }): Tool<Args> {
  return {
    name: "Read",
    description: options.description ?? description,
    kind: "read",
    capability: "read",
    parameters: readSchema,
    schema: Args,
    async preview(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      const start = Math.max(1, args.offset ?? 1);
      const range = args.limit
        ? ` (${start} - ${start + args.limit - 1})`
        : args.offset
          ? ` (from line ${start})`
          : "";
      return { title: `Read ${file}${range}`, locations: [{ path: file, line: start }] };
    },
    access: (args, ctx) => ({ type: "read", paths: [resolveModelPath(args.file_path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolveModelPath(args.file_path, ctx.cwd);
      const extension = path.extname(file).toLowerCase().slice(1);
      if (IMAGE_EXTENSIONS.has(extension)) return readImage(file, ctx, options.images);
      if (extension === "ipynb")
        return readNotebook({ file, ctx, files: options.files, images: options.images });
      let text: string;
      let mtimeMs: number;
      try {
        ({ content: text, mtimeMs } = await readTextFile({ fs: ctx.fs, path: file }));
      } catch (error) {
        return { output: toolUseError(fileProblemMessage(error, file)), isError: true };
      }
      const startLine = args.offset ? args.offset : 1;
      const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split(/\r?\n/);
      const selected = lines
        .slice(startLine - 1, startLine - 1 + (args.limit ?? READ_DEFAULT_LIMIT))
        .map((line) => (line.length > READ_MAX_LINE_CHARS ? line.slice(0, READ_MAX_LINE_CHARS) : line));
      const content = selected.join("\n");
      if (!content) {
        options.files.recordRead(file, mtimeMs);
        return {
          output:
            text === ""
              ? EMPTY_FILE_REMINDER
              : `<system-reminder>Warning: the file exists but is shorter than the provided offset (${startLine}). The file has ${lines.length} lines.</system-reminder>`,
        };
      }
      const numbered = addLineNumbers(content, startLine);
      const tokens = Math.ceil(numbered.length / 4);
      if (tokens > READ_MAX_TOKENS) {
        return {
          output: toolUseError(
            `File content (${tokens} tokens) exceeds maximum allowed tokens (${READ_MAX_TOKENS}). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.`,
          ),
          isError: true,
        };
      }
      options.files.recordRead(file, mtimeMs);
      return { output: numbered + READ_REMINDER };
    },
  };
}
