import path from "node:path";
import type { FsPort } from "../../../tools/types.js";

/** Bash output above this many characters is saved to a file (`BASH_MAX_OUTPUT_LENGTH` default). */
export const PERSIST_THRESHOLD_CHARS = 30_000;
/** How much of a saved output the model sees inline. */
export const PREVIEW_CHARS = 2_000;

/**
 * Claude Code 2.x's rule for large tool output: the whole text goes to a file in the session's
 * `tool-results` folder, and the model gets a `<persisted-output>` block with the size, the
 * path and the first 2 KB (cut back to a line end when one is in the second half), then `...`.
 */
export async function persistLargeOutput(options: {
  text: string;
  fs: FsPort;
  dir: string;
  name: string;
}): Promise<string> {
  const { text } = options;
  if (text.length <= PERSIST_THRESHOLD_CHARS) return text;
  const file = path.join(options.dir, "tool-results", `${options.name}.txt`);
  await options.fs.writeText(file, text);
  return persistedOutput({ text, file });
}

export function persistedOutput(options: { text: string; file: string }): string {
  const head = options.text.slice(0, PREVIEW_CHARS);
  const lineEnd = head.lastIndexOf("\n");
  const preview = lineEnd > PREVIEW_CHARS / 2 ? head.slice(0, lineEnd) : head;
  const size = formatSize(Buffer.byteLength(options.text, "utf8"));
  return [
    "<persisted-output>",
    `Output too large (${size}). Full output saved to: ${options.file}`,
    "",
    "Preview (first 2KB):",
    preview,
    "...",
    "</persisted-output>",
  ].join("\n");
}

/** `812B`, `575.1KB`, `3.2MB`, as Claude Code writes file sizes. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
