import { randomBytes } from "node:crypto";
import path from "node:path";
import type { FsPort } from "../../tools/types.js";

/** Qwen Code's `DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD` / `_LINES` (packages/core `config.ts`). */
export const TRUNCATE_THRESHOLD = 25_000;
export const TRUNCATE_LINES = 1_000;

const SEPARATOR = "\n\n---\n... [CONTENT TRUNCATED] ...\n---\n\n";
const ELLIPSIS = "...";

/**
 * Qwen Code's shell-output spill (QwenLM/qwen-code `packages/core/src/utils/truncation.ts`,
 * `truncateAndSaveToFile`): output over 25 000 characters or 1 000 lines is saved to
 * `<dir>/<name>.output` and replaced by its first fifth and last four fifths (by lines and by
 * characters) around the `... [CONTENT TRUNCATED] ...` marker, under Qwen's explanation header.
 */
export async function truncateToolOutput(options: {
  content: string;
  toolName: string;
  dir: string;
  fs: FsPort;
  threshold?: number;
  lines?: number;
}): Promise<{ content: string; outputFile?: string }> {
  const threshold = options.threshold ?? TRUNCATE_THRESHOLD;
  const maxLines = options.lines ?? TRUNCATE_LINES;
  const { content } = options;
  const lines = content.split("\n");
  if (content.length <= threshold && lines.length <= maxLines) return { content };
  const truncated = headAndTail(lines, threshold, maxLines);
  const outputFile = path.join(options.dir, `${options.toolName}_${randomBytes(6).toString("hex")}.output`);
  try {
    await options.fs.writeText(outputFile, content);
  } catch {
    return { content: `${truncated}\n[Note: Could not save full output to file]` };
  }
  return {
    outputFile,
    content: `Tool output was too large and has been truncated.
The full output has been saved to: ${outputFile}
To read the complete output, use the read_file tool with the absolute file path above.
The truncated output below shows the beginning and end of the content. The marker '... [CONTENT TRUNCATED] ...' indicates where content was removed.

Truncated part of the output:
${truncated}`,
  };
}

function headAndTail(lines: string[], threshold: number, maxLines: number): string {
  const effective = Math.min(maxLines, lines.length);
  const headCount = Math.max(Math.floor(effective / 5), 1);
  const tailCount = effective - headCount;
  const headBudget = Math.floor(threshold / 5);
  const head: string[] = [];
  let headChars = 0;
  for (let i = 0; i < Math.min(headCount, lines.length); i++) {
    const line = lines[i]!;
    const remaining = headBudget - headChars;
    if (remaining <= 0) break;
    if (line.length + 1 > remaining) {
      head.push(line.slice(0, Math.max(remaining - ELLIPSIS.length, 0)) + ELLIPSIS);
      headChars = headBudget;
      break;
    }
    head.push(line);
    headChars += line.length + 1;
  }
  const tailBudget = Math.max(threshold - headChars - SEPARATOR.length, 0);
  const tail: string[] = [];
  let tailChars = 0;
  const tailStart = Math.max(lines.length - tailCount, head.length);
  for (let i = lines.length - 1; i >= tailStart; i--) {
    const line = lines[i]!;
    const remaining = tailBudget - tailChars;
    if (remaining <= 0) break;
    if (line.length + 1 > remaining) {
      const keep = Math.max(remaining - ELLIPSIS.length, 0);
      tail.unshift(ELLIPSIS + (keep > 0 ? line.slice(-keep) : ""));
      tailChars = tailBudget;
      break;
    }
    tail.unshift(line);
    tailChars += line.length + 1;
  }
  return head.join("\n") + SEPARATOR + tail.join("\n");
}
