/** Typographic characters CodeWhale maps to ASCII, one for one. */
const PUNCTUATION: Record<string, string> = {
  "\u201c": '"',
  "\u201d": '"',
  "\u2018": "'",
  "\u2019": "'",
  "\u2013": "-",
  "\u2014": "-",
  "\u00a0": " ",
};

/**
 * `edit_file`'s fuzzy fallbacks, in CodeWhale's order (0.8.44 `tools/file.rs`): first matches
 * that differ only in the leading spaces and tabs of each line (a match then starts at the start
 * of its first line, so the file's indentation there is replaced too), then, when there is none,
 * matches that differ only in typographic punctuation. Overlapping matches count. Ranges are in
 * `text`'s own indices.
 */
export function fuzzyRanges(
  text: string,
  search: string,
): { kind: "indentation" | "punctuation"; ranges: Array<[number, number]> } {
  const stripped = stripIndent(text);
  const indentation = occurrences(stripped.text, stripIndent(search).text).map(
    ([start, end]): [number, number] => {
      const mapped = stripped.map[start] as number;
      return [text.lastIndexOf("\n", mapped - 1) + 1, stripped.map[end] ?? text.length];
    },
  );
  if (indentation.length > 0) return { kind: "indentation", ranges: indentation };
  const normal = (value: string) =>
    value.replace(/[\u201c\u201d\u2018\u2019\u2013\u2014\u00a0]/g, (c) => PUNCTUATION[c] ?? c);
  return { kind: "punctuation", ranges: occurrences(normal(text), normal(search)) };
}

/** The text without each line's leading spaces and tabs, with where each kept character was. */
function stripIndent(input: string): { text: string; map: number[] } {
  let text = "";
  const map: number[] = [];
  let lineStart = true;
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (lineStart && (c === " " || c === "\t")) continue;
    lineStart = c === "\n";
    text += c;
    map.push(i);
  }
  return { text, map };
}

function occurrences(haystack: string, needle: string): Array<[number, number]> {
  if (needle === "") return [];
  const out: Array<[number, number]> = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1))
    out.push([at, at + needle.length]);
  return out;
}
