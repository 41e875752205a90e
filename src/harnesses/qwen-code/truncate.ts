import { randomBytes } from "node:crypto";
import path from "node:path";
import type { FsPort } from "../../tools/types.js";

/** Qwen Code's `DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD` / `_LINES` (packages/core `config.ts`). */
export const TRUNCATE_THRESHOLD = 25_000;
export const TRUNCATE_LINES = 1_000;

const SEPARATOR = "\n\n---\n... [CONTENT TRUNCATED] ...\n---\n\n";
const ELLIPSIS = "...";

/** How many characters of a spilled shell output Qwen Code 0.24.4 shows around its marker. */
export const SHELL_PREVIEW_CHARS = 4_000;

/**
 * Qwen Code's output spill (`truncateAndSaveToFile`): output over `threshold` characters or
 * `lines` lines is saved to `<dir>/<tool>_<12 hex>.output` and replaced, under Qwen's
 * explanation header, by a preview of `previewChars` characters: the first fifth from the head
 * and the rest from the tail around the `... [CONTENT TRUNCATED] ...` marker, which counts
 * against the budget. `previewLines` caps the preview's lines (the shell passes none). When
 * the preview would not be shorter than the output, the output stays as it is.
 */
export async function truncateToolOutput(options: {
  content: string;
  toolName: string;
  dir: string;
  fs: FsPort;
  threshold?: number;
  lines?: number;
  previewChars?: number;
  previewLines?: number;
}): Promise<{ content: string; outputFile?: string }> {
  const threshold = options.threshold ?? TRUNCATE_THRESHOLD;
  const maxLines = options.lines ?? TRUNCATE_LINES;
  const { content } = options;
  const lines = content.split("\n");
  if (content.length <= threshold && lines.length <= maxLines) return { content };
  const truncated = headAndTail(lines, {
    budget: options.previewChars ?? threshold,
    maxLines: options.previewLines ?? maxLines,
  });
  const outputFile = path.join(options.dir, `${options.toolName}_${randomBytes(6).toString("hex")}.output`);
  const wrapped = `Tool output was too large and has been truncated.
The full output has been saved to: ${outputFile}
To read the complete output, use the read_file tool with the absolute file path above.
The truncated output below shows the beginning and end of the content. The marker '... [CONTENT TRUNCATED] ...' indicates where content was removed.

Truncated part of the output:
${truncated}`;
  if (wrapped.length >= content.length) return { content };
  try {
    await options.fs.writeText(outputFile, content);
  } catch {
    return { content: `${truncated}\n[Note: Could not save full output to file]` };
  }
  return { outputFile, content: wrapped };
}

function headAndTail(lines: string[], limits: { budget: number; maxLines: number }): string {
  const effective = Math.min(limits.maxLines, lines.length);
  const headCount = Math.max(Math.floor(effective / 5), 1);
  const tailCount = effective - headCount;
  const budget = Math.max(0, limits.budget);
  // Below the marker's own length there is no room for it and any content.
  const separator = budget > SEPARATOR.length ? SEPARATOR : "";
  const contentBudget = budget - separator.length;
  const headBudget = Math.floor(contentBudget / 5);
  const head: string[] = [];
  let headChars = 0;
  for (let i = 0; i < Math.min(headCount, lines.length); i++) {
    const line = lines[i]!;
    const remaining = headBudget - headChars;
    if (remaining <= 0) break;
    if (line.length + 1 > remaining) {
      if (remaining >= ELLIPSIS.length) head.push(line.slice(0, remaining - ELLIPSIS.length) + ELLIPSIS);
      headChars = headBudget;
      break;
    }
    head.push(line);
    headChars += line.length + 1;
  }
  const tailBudget = Math.max(contentBudget - headChars, 0);
  const tail: string[] = [];
  let tailChars = 0;
  const tailStart = Math.max(lines.length - tailCount, head.length);
  for (let i = lines.length - 1; i >= tailStart; i--) {
    const line = lines[i]!;
    const remaining = tailBudget - tailChars;
    if (remaining <= 0) break;
    if (line.length + 1 > remaining) {
      const keep = remaining - ELLIPSIS.length;
      if (keep >= 0) tail.unshift(ELLIPSIS + (keep > 0 ? line.slice(-keep) : ""));
      tailChars = tailBudget;
      break;
    }
    tail.unshift(line);
    tailChars += line.length + 1;
  }
  return head.join("\n") + separator + tail.join("\n");
}
