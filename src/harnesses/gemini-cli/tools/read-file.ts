import path from "node:path";
import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { loadSharp } from "../../../tools/image/load-sharp.js";
import { noImageInput } from "../../../tools/image/no-image-input.js";
import { imageResultPart } from "../../../tools/image/prompt-image.js";
import type { Tool, ToolContext, ToolResult } from "../../../tools/types.js";
import { displayPath, isFsError, resolveToolPath } from "../../shared/gemini-core/tool-paths.js";
import gemini3Description from "../descriptions/read-file.gemini-3.md";
import legacyDescription from "../descriptions/read-file.md";
import type { ToolFamily } from "../tool-family.js";
import { readFileSchema } from "../tool-schemas.js";

/** Gemini CLI's read limits (`packages/core/src/utils/constants.ts`). */
export const MAX_LINES = 2000;
export const MAX_LINE_LENGTH = 2000;
const MAX_FILE_SIZE_MB = 20;

const Args = z.looseObject({
  file_path: z.string(),
  start_line: z.number().int().min(1).optional(),
  end_line: z.number().int().min(1).optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `read_file` (`packages/core/src/tools/read-file.ts`, `utils/fileUtils.ts`): plain
 * text without line numbers; a window of at most 2000 lines, long lines cut with `... [truncated]`;
 * a truncated read starts with Gemini's IMPORTANT header naming the next `start_line`. An image
 * (by extension) goes to the model as the file's bytes, after the text 0.61 puts in the function
 * response for binary content.
 */
export function readFileTool(family: ToolFamily, options: { images: boolean }): Tool<Args> {
  return {
    name: "read_file",
    description: (family === "gemini-3" ? gemini3Description : legacyDescription).trimEnd(),
    kind: "read",
    capability: "read",
    parameters: readFileSchema(),
    schema: Args,
    async preview(args, ctx) {
      const file = resolveToolPath(ctx.cwd, args.file_path);
      return {
        title: `ReadFile ${displayPath(ctx.cwd, file)}`,
        locations: [{ path: file, line: args.start_line }],
      };
    },
    access: (args, ctx) => ({ type: "read", paths: [resolveToolPath(ctx.cwd, args.file_path)] }),
    async execute(args, ctx) {
      if (args.file_path.trim() === "") return failure("The 'file_path' parameter must be non-empty.");
      if (args.start_line !== undefined && args.end_line !== undefined && args.start_line > args.end_line) {
        return failure("start_line cannot be greater than end_line");
      }
      const file = resolveToolPath(ctx.cwd, args.file_path);
      const imageType = IMAGE_TYPES[path.extname(file).toLowerCase()];
      if (imageType) return readImage({ file, mimeType: imageType, ctx, images: options.images });
      let content: string;
      try {
        content = (await readTextFile({ fs: ctx.fs, path: file, maxBytes: MAX_FILE_SIZE_MB * 1024 * 1024 }))
          .content;
      } catch (error) {
        if (isFsError(error, "binary")) {
          return { output: `Cannot display content of binary file: ${displayPath(ctx.cwd, file)}` };
        }
        return failure(readError(error, file));
      }
      return { output: formatRead(content, args) };
    },
  };
}

/** The text Gemini CLI returns for a text file, with its truncation header when it applies. */
export function formatRead(content: string, range: { start_line?: number; end_line?: number }): string {
  const lines = content.replace(/^\uFEFF/, "").split(/\r?\n/);
  const total = lines.length;
  let start = 0;
  let end = Math.min(MAX_LINES, total);
  if (range.start_line !== undefined || range.end_line !== undefined) {
    start = range.start_line ? range.start_line - 1 : 0;
    end = range.end_line ? Math.min(range.end_line, total) : Math.min(start + MAX_LINES, total);
  }
  const actualStart = Math.min(start, total);
  let shortened = false;
  const body = lines
    .slice(actualStart, end)
    .map((line) => {
      if (line.length <= MAX_LINE_LENGTH) return line;
      shortened = true;
      return `${line.substring(0, MAX_LINE_LENGTH)}... [truncated]`;
    })
    .join("\n");
  if (actualStart === 0 && end >= total && !shortened) return body;
  return `
IMPORTANT: The file content has been truncated.
Status: Showing lines ${actualStart + 1}-${end} of ${total} total lines.
Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: ${end + 1}.

--- FILE CONTENT (truncated) ---
${body}`;
}

/** Image types by extension, as Gemini CLI's mime lookup names them (SVG is read as text). */
const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".heic": "image/heic",
  ".heif": "image/heif",
  ".avif": "image/avif",
};
/** What every wire takes as an image; other formats are converted to PNG first. */
const SENT_AS_IS = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

async function readImage(o: {
  file: string;
  mimeType: string;
  ctx: ToolContext;
  images: boolean;
}): Promise<ToolResult> {
  const stat = await o.ctx.fs.stat(o.file);
  if (!stat) return failure(`File not found: ${o.file}`);
  if (stat.isDirectory) return failure(`Path is a directory, not a file: ${o.file}`);
  if (stat.size > MAX_FILE_SIZE_MB * 1024 * 1024)
    return failure(`File size exceeds the ${MAX_FILE_SIZE_MB}MB limit: ${o.file}`);
  if (!o.images) return failure(noImageInput(o.file));
  let data = Buffer.from(await o.ctx.fs.readBytes(o.file));
  let mimeType = o.mimeType;
  if (!SENT_AS_IS.has(mimeType)) {
    const sharp = await loadSharp();
    const png = await sharp(data)
      .png()
      .toBuffer()
      .catch(() => undefined);
    if (!png) return { output: `Cannot display content of binary file: ${displayPath(o.ctx.cwd, o.file)}` };
    data = png;
    mimeType = "image/png";
  }
  const text = "Binary content provided (1 item(s)).";
  return { output: text, parts: [{ type: "text", text }, imageResultPart({ data, mimeType })] };
}

function readError(error: unknown, file: string): string {
  if (isFsError(error, "not_found")) return `File not found: ${file}`;
  if (isFsError(error, "is_directory")) return `Path is a directory, not a file: ${file}`;
  if (isFsError(error, "too_large")) return `File size exceeds the ${MAX_FILE_SIZE_MB}MB limit: ${file}`;
  return `Error reading file ${file}: ${error instanceof Error ? error.message : String(error)}`;
}

function failure(message: string) {
  return { output: message, isError: true };
}
