/** Typographic characters a chat client puts in for ASCII ones, each replaced one for one. */
const PUNCTUATION: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u00a0": " ",
};

/**
 * `edit_file`'s fuzzy fallbacks, in CodeWhale's order: first matches that differ only in the
 * leading spaces and tabs of each line, then (when there is none) matches that differ only in
 * typographic punctuation. Ranges are in `text`'s own indices.
 */
export function fuzzyRanges(
  text: string,
  search: string,
): { kind: "indentation" | "punctuation"; ranges: Array<[number, number]> } {
  const indentation = occurrences(stripIndent(text), stripIndent(search).text);
  if (indentation.length > 0) {
    const map = stripIndent(text).map;
    return {
      kind: "indentation",
      ranges: indentation.map(([s, e]) => [map[s] as number, (map[e - 1] as number) + 1]),
    };
  }
  const normal = (value: string) =>
    value.replace(/[\u2018-\u201f\u2013\u2014\u00a0]/g, (c) => PUNCTUATION[c] ?? c);
  const punct = occurrences({ text: normal(text) }, normal(search));
  return { kind: "punctuation", ranges: punct };
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

function occurrences(haystack: { text: string }, needle: string): Array<[number, number]> {
  if (needle === "") return [];
  const out: Array<[number, number]> = [];
  for (
    let at = haystack.text.indexOf(needle);
    at >= 0;
    at = haystack.text.indexOf(needle, at + needle.length)
  )
    out.push([at, at + needle.length]);
  return out;
}
