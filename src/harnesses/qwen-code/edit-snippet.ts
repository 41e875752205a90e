/** Qwen Code's `extractEditSnippet` limits (QwenLM/qwen-code `packages/core/src/utils/editHelper.ts`). */
const CONTEXT_LINES = 4;
const MAX_LINES = 1000;

export interface EditSnippet {
  startLine: number;
  endLine: number;
  totalLines: number;
  content: string;
}

/**
 * The changed region of `newContent` with 4 lines around it, found by comparing lines from both
 * ends; the whole file for a new file; nothing when the change spans more than 1 000 lines.
 */
export function editSnippet(oldContent: string | null, newContent: string): EditSnippet | undefined {
  const newLines = newContent.split("\n");
  const totalLines = newLines.length;
  if (oldContent === null) return { startLine: 1, endLine: totalLines, totalLines, content: newContent };
  if (oldContent === newContent || !newContent) return undefined;
  const oldLines = oldContent.split("\n");
  let first = 0;
  const min = Math.min(oldLines.length, newLines.length);
  while (first < min && oldLines[first] === newLines[first]) first++;
  let oldEnd = oldLines.length - 1;
  let newEnd = newLines.length - 1;
  while (oldEnd >= first && newEnd >= first && oldLines[oldEnd] === newLines[newEnd]) {
    oldEnd--;
    newEnd--;
  }
  const changeStart = first + 1;
  const changeEnd = newEnd + 1;
  if (changeEnd - changeStart > MAX_LINES) return undefined;
  const startLine = Math.max(1, changeStart - CONTEXT_LINES);
  const endLine = Math.min(totalLines, changeEnd + CONTEXT_LINES);
  return { startLine, endLine, totalLines, content: newLines.slice(startLine - 1, endLine).join("\n") };
}
