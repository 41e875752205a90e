import { structuredPatch } from "diff";

const CONTEXT = 3;

/**
 * The unified diff CodeWhale puts at the head of a write or edit result (`diff_format.rs`, the
 * `similar` crate's format): `--- a/PATH` / `+++ b/PATH`, hunks with three lines of context,
 * GNU ranges (`-3` for one line, `-3,0` for none) and `\ No newline at end of file` after a last
 * line without one. Empty when the texts are equal. The hunks are jsdiff's; only the ranges are
 * written the GNU way, which jsdiff's own formatter does not (it writes `-3,1`).
 */
export function unifiedDiff(path: string, oldText: string, newText: string): string {
  if (oldText === newText) return "";
  const patch = structuredPatch(`a/${path}`, `b/${path}`, oldText, newText, undefined, undefined, {
    context: CONTEXT,
  });
  let out = `--- a/${path}\n+++ b/${path}\n`;
  for (const hunk of patch.hunks) {
    out += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`;
    for (const line of hunk.lines) out += `${line}\n`;
  }
  return out;
}

/** GNU ranges: a hunk side with no lines names the line before it. */
function range(start: number, length: number): string {
  if (length === 0) return `${Math.max(0, start - 1)},0`;
  return length === 1 ? `${start}` : `${start},${length}`;
}
