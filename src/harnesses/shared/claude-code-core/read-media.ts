import type { ReadTracker } from "../../../tools/fs/read-tracker.js";
import { claudeImage } from "../../../tools/image/claude-image.js";
import { noImageInput } from "../../../tools/image/no-image-input.js";
import { imageResultPart } from "../../../tools/image/prompt-image.js";
import { parseNotebook } from "../../../tools/notebook/notebook.js";
import type { ToolContext, ToolResult } from "../../../tools/types.js";
import { NOT_FOUND_MESSAGE } from "./file-access.js";
import { notebookParts } from "./notebook-view.js";

/** The file types Claude Code 2.1.44's Read sends as images (by extension). */
export const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp"]);
/** Its cap on a notebook's cells as JSON. */
const MAX_NOTEBOOK_BYTES = 262_144;

/**
 * Read of an image: the image alone (claude-image.ts sizes it), no text, as Claude Code
 * sends it. A missing or empty file is a plain error, as its call() throws them.
 */
export async function readImage(file: string, ctx: ToolContext, images: boolean): Promise<ToolResult> {
  const stat = await ctx.fs.stat(file);
  if (!stat) return { output: NOT_FOUND_MESSAGE, isError: true };
  const bytes = await ctx.fs.readBytes(file);
  if (bytes.length === 0) return { output: `Image file is empty: ${file}`, isError: true };
  if (!images) return { output: noImageInput(file), isError: true };
  const image = await claudeImage(bytes);
  return { output: `[image ${file}: ${image.mimeType}]`, parts: [imageResultPart(image)] };
}

/**
 * Read of a notebook: its cells (notebook-view.ts), recorded as read so Edit and Write may
 * follow. Over Claude Code's size cap the model is told how to read parts with jq.
 */
export async function readNotebook(options: {
  file: string;
  ctx: ToolContext;
  files: ReadTracker;
  images: boolean;
}): Promise<ToolResult> {
  const { file, ctx } = options;
  const stat = await ctx.fs.stat(file);
  if (!stat) return { output: NOT_FOUND_MESSAGE, isError: true };
  let parts: ReturnType<typeof notebookParts>;
  try {
    parts = notebookParts(parseNotebook(await ctx.fs.readText(file)));
  } catch (error) {
    return { output: error instanceof Error ? error.message : String(error), isError: true };
  }
  const size = Buffer.byteLength(JSON.stringify(parts));
  if (size > MAX_NOTEBOOK_BYTES) {
    return {
      output: `Notebook content (${kb(size)}) exceeds maximum allowed size (${kb(MAX_NOTEBOOK_BYTES)}). Use Bash with jq to read specific portions:\n  cat "${file}" | jq '.cells[:20]' # First 20 cells\n  cat "${file}" | jq '.cells[100:120]' # Cells 100-120\n  cat "${file}" | jq '.cells | length' # Count total cells\n  cat "${file}" | jq '.cells[] | select(.cell_type=="code") | .source' # All code sources`,
      isError: true,
    };
  }
  options.files.recordRead(file, stat.mtimeMs);
  const text = parts.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
  const hasImages = parts.some((part) => part.type === "image");
  if (!hasImages) return { output: text };
  // A text-only model gets the cells without their images.
  if (!options.images)
    return {
      output: parts
        .filter((part) => part.type === "text")
        .map((p) => p.text)
        .join("\n"),
    };
  return { output: text, parts };
}

/** Claude Code's size wording: `300KB`, `1.5MB`, `12 bytes`. */
function kb(bytes: number): string {
  const k = bytes / 1024;
  if (k < 1) return `${bytes} bytes`;
  if (k < 1024) return `${k.toFixed(1).replace(/\.0$/, "")}KB`;
  return `${(k / 1024).toFixed(1).replace(/\.0$/, "")}MB`;
}
