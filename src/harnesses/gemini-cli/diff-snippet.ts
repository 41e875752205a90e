/**
 * The "Here is the updated code:" excerpt Gemini CLI appends to edit and write results
 * (google-gemini/gemini-cli `packages/core/src/tools/diff-utils.ts::getDiffContextSnippet`): the
 * changed lines of the new content with `contextLines` lines around them, gaps shown as `...`.
 * Lines are compared as jsdiff's `diffLines` tokenizes them (each line with its newline).
 */
export function diffContextSnippet(originalContent: string, newContent: string, contextLines = 5): string {
  if (!originalContent) return newContent;
  const ranges = changedRanges(tokens(originalContent), tokens(newContent));
  if (ranges.length === 0) return newContent;
  const newLines = newContent.split(/\r?\n/);
  const expanded = ranges
    .map((r) => ({
      start: Math.max(0, r.start - contextLines),
      end: Math.min(newLines.length, r.end + contextLines),
    }))
    .sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const range of expanded) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const parts: string[] = [];
  let lastEnd = 0;
  for (const range of merged) {
    if (range.start > lastEnd) parts.push("...");
    parts.push(newLines.slice(range.start, range.end).join("\n"));
    lastEnd = range.end;
  }
  if (lastEnd < newLines.length) parts.push("...");
  return parts.join("\n");
}

function tokens(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Above this many cells the middle is treated as one changed block instead of running an LCS. */
const MAX_LCS_CELLS = 4_000_000;

/** Ranges in the new token list: added lines span their tokens, removed lines are empty ranges. */
function changedRanges(a: string[], b: string[]): Array<{ start: number; end: number }> {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const oldMid = a.slice(prefix, a.length - suffix);
  const newMid = b.slice(prefix, b.length - suffix);
  if (oldMid.length === 0 && newMid.length === 0) return [];
  if (oldMid.length * newMid.length > MAX_LCS_CELLS || oldMid.length === 0 || newMid.length === 0) {
    return [{ start: prefix, end: prefix + newMid.length }];
  }
  return lcsRanges(oldMid, newMid).map((r) => ({ start: r.start + prefix, end: r.end + prefix }));
}

function lcsRanges(a: string[], b: string[]): Array<{ start: number; end: number }> {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        a[i] === b[j]
          ? table[(i + 1) * cols + j + 1]! + 1
          : Math.max(table[(i + 1) * cols + j]!, table[i * cols + j + 1]!);
    }
  }
  const ranges: Array<{ start: number; end: number }> = [];
  let open: { start: number; end: number } | undefined;
  let i = 0;
  let j = 0;
  const flush = () => {
    if (open) ranges.push(open);
    open = undefined;
  };
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || table[i * cols + j + 1]! >= table[(i + 1) * cols + j]!)) {
      open = open ? { start: open.start, end: j + 1 } : { start: j, end: j + 1 };
      j++;
    } else {
      open ??= { start: j, end: j };
      i++;
    }
  }
  flush();
  return ranges;
}
