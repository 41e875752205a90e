/** Python's `str.expandtabs()`: each tab to the next multiple of 8 columns, per line. */
export function expandTabs(text: string): string {
  let column = 0;
  let out = "";
  for (const char of text) {
    if (char === "\t") {
      const pad = 8 - (column % 8);
      out += " ".repeat(pad);
      column += pad;
    } else {
      out += char;
      column = char === "\n" || char === "\r" ? 0 : column + 1;
    }
  }
  return out;
}

const MAX_RESPONSE_LEN = 16_000;
const TRUNCATED =
  "<response clipped><NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>";

/** `maybe_truncate`: over 16,000 characters (code points), the start and the editor's note. */
export function maybeTruncate(content: string): string {
  const chars = Array.from(content);
  return chars.length <= MAX_RESPONSE_LEN ? content : chars.slice(0, MAX_RESPONSE_LEN).join("") + TRUNCATED;
}

/** `_make_output`: the text as `cat -n` numbers it, from `initLine`. */
export function makeOutput(content: string, descriptor: string, initLine = 1): string {
  const lines = expandTabs(maybeTruncate(content)).split("\n");
  const numbered = lines.map((line, i) => `${String(i + initLine).padStart(6)}\t${line}`).join("\n");
  return `Here's the result of running \`cat -n\` on ${descriptor}:\n${numbered}\n`;
}

/** Python's `str.count`: non-overlapping occurrences. */
export function countOf(text: string, part: string): number {
  if (part === "") return Array.from(text).length + 1;
  return text.split(part).length - 1;
}

/** Python's `str(list)` of integers: `[1, 2]`. */
export function pyList(values: number[]): string {
  return `[${values.join(", ")}]`;
}
