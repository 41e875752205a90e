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
