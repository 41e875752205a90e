import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export interface SpillOutputOptions {
  text: string;
  /** Directory for the full text; created if missing. */
  dir: string;
  /** File name inside `dir`. */
  name: string;
  /** Text above this many UTF-8 bytes is spilled. */
  maxBytes: number;
  /** Bytes of preview (default 2000), cut back to the last line break when there is one (the break itself excluded). */
  previewBytes?: number;
}

export type SpillOutputResult =
  | { spilled: false; text: string }
  | { spilled: true; path: string; preview: string; totalBytes: number };

/**
 * Kimi Code's rule for oversized tool output: text within `maxBytes` comes back untouched;
 * larger text is written whole to `<dir>/<name>` and only a head preview is returned, never
 * splitting a UTF-8 character. The harness words the message that points at the file.
 */
export async function spillOutput(options: SpillOutputOptions): Promise<SpillOutputResult> {
  const bytes = Buffer.from(options.text, "utf8");
  if (bytes.length <= options.maxBytes) return { spilled: false, text: options.text };
  await mkdir(options.dir, { recursive: true });
  const file = path.join(options.dir, options.name);
  await writeFile(file, bytes);
  return {
    spilled: true,
    path: file,
    preview: headPreview(bytes, options.previewBytes ?? 2000),
    totalBytes: bytes.length,
  };
}

function headPreview(bytes: Buffer, previewBytes: number): string {
  if (previewBytes >= bytes.length) return bytes.toString("utf8");
  let end = previewBytes;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const head = bytes.subarray(0, end);
  const lastNewline = head.lastIndexOf(0x0a);
  // The line break itself is left out: the harness appends its own notice after the preview.
  return (lastNewline >= 0 ? head.subarray(0, lastNewline) : head).toString("utf8");
}

export interface SpillPreviewOptions {
  text: string;
  /** Directory for the full text; created if missing. */
  dir: string;
  /** File name inside `dir`. */
  name: string;
  /** Text above this many characters is spilled. */
  maxChars: number;
  /** Characters of preview, half from the head and half from the tail (default 4000). */
  previewChars?: number;
}

/**
 * Kimi Code's spill rule for harnesses without one of their own, with the tail kept as well as
 * the head (errors and summaries tend to be at the end): text within `maxChars` comes back
 * untouched; larger text is written whole to `<dir>/<name>` and replaced by a note naming the
 * file, the first and the last characters. When the file cannot be written the preview still
 * replaces the text, saying so.
 */
export async function spillWithPreview(options: SpillPreviewOptions): Promise<string> {
  const { text } = options;
  const chars = Array.from(text);
  if (chars.length <= options.maxChars) return text;
  const half = Math.floor((options.previewChars ?? 4000) / 2);
  let where: string;
  try {
    const saved = await spillOutput({ text, dir: options.dir, name: options.name, maxBytes: -1 });
    where = saved.spilled
      ? `The full output is saved in ${saved.path}; read that file in parts for the rest.`
      : "";
  } catch (error) {
    where = `The full output could not be saved (${error instanceof Error ? error.message : String(error)}).`;
  }
  const omitted = chars.length - 2 * half;
  return [
    `[Output too long: ${chars.length} characters, shown as its first and last ${half}. ${where}]`,
    chars.slice(0, half).join(""),
    `[… ${omitted} characters omitted …]`,
    chars.slice(-half).join(""),
  ].join("\n");
}
