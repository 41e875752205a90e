/**
 * pi's exact-text replacement with its fuzzy fallback (pi `core/tools/edit-diff.ts`,
 * `applyEditsToNormalizedContent`): every edit is matched against the same original text;
 * when an exact match is missing, trailing whitespace, Unicode quotes, dashes and spaces are
 * normalized (NFKC) on both sides. Lines the edits do not touch keep their original bytes.
 * Errors are thrown as plain `Error`s whose messages are pi's, word for word.
 */

export interface PiEdit {
  oldText: string;
  newText: string;
}

export function normalizeToLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

export function detectLineEnding(content: string): "\r\n" | "\n" {
  const crlf = content.indexOf("\r\n");
  const lf = content.indexOf("\n");
  if (lf === -1 || crlf === -1) return "\n";
  return crlf < lf ? "\r\n" : "\n";
}

export function restoreLineEndings(text: string, ending: "\r\n" | "\n"): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}

export function stripBom(content: string): { bom: string; text: string } {
  return content.startsWith("\uFEFF")
    ? { bom: "\uFEFF", text: content.slice(1) }
    : { bom: "", text: content };
}

export function normalizeForFuzzyMatch(text: string): string {
  return text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

interface Match {
  editIndex: number;
  matchIndex: number;
  matchLength: number;
  newText: string;
}

function find(
  content: string,
  oldText: string,
): { index: number; length: number; fuzzy: boolean } | undefined {
  const exact = content.indexOf(oldText);
  if (exact !== -1) return { index: exact, length: oldText.length, fuzzy: false };
  const fuzzyOld = normalizeForFuzzyMatch(oldText);
  const fuzzy = normalizeForFuzzyMatch(content).indexOf(fuzzyOld);
  return fuzzy === -1 ? undefined : { index: fuzzy, length: fuzzyOld.length, fuzzy: true };
}

function occurrences(content: string, oldText: string): number {
  return normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(oldText)).length - 1;
}

/** Applies `edits` to LF-normalized `content`; returns the new LF-normalized text. */
export function applyEdits(content: string, edits: PiEdit[], path: string): string {
  const normalized = edits.map((e) => ({
    oldText: normalizeToLF(e.oldText),
    newText: normalizeToLF(e.newText),
  }));
  const single = normalized.length === 1;
  normalized.forEach((edit, i) => {
    if (edit.oldText.length === 0) {
      throw new Error(
        single
          ? `oldText must not be empty in ${path}.`
          : `edits[${i}].oldText must not be empty in ${path}.`,
      );
    }
  });
  const usedFuzzy = normalized.some((edit) => find(content, edit.oldText)?.fuzzy);
  const base = usedFuzzy ? normalizeForFuzzyMatch(content) : content;
  const matches: Match[] = normalized.map((edit, i) => {
    const found = find(base, edit.oldText);
    if (!found) {
      throw new Error(
        single
          ? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
          : `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`,
      );
    }
    const count = occurrences(base, edit.oldText);
    if (count > 1) {
      throw new Error(
        single
          ? `Found ${count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
          : `Found ${count} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
      );
    }
    return { editIndex: i, matchIndex: found.index, matchLength: found.length, newText: edit.newText };
  });
  matches.sort((a, b) => a.matchIndex - b.matchIndex);
  for (let i = 1; i < matches.length; i++) {
    const previous = matches[i - 1]!;
    const current = matches[i]!;
    if (previous.matchIndex + previous.matchLength > current.matchIndex) {
      throw new Error(
        `edits[${previous.editIndex}] and edits[${current.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }
  const result = usedFuzzy ? replacePreservingLines(content, base, matches) : replace(base, matches, 0);
  if (result === content) {
    throw new Error(
      single
        ? `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`
        : `No changes made to ${path}. The replacements produced identical content.`,
    );
  }
  return result;
}

function replace(text: string, matches: Match[], offset: number): string {
  let out = text;
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i]!;
    const at = m.matchIndex - offset;
    out = out.slice(0, at) + m.newText + out.slice(at + m.matchLength);
  }
  return out;
}

const linesWithEndings = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+/g) ?? [];

/**
 * Matches were found in the fuzzy-normalized `base`: only the lines they touch are taken from
 * `base` (with the replacement); every other line is copied from `original` unchanged.
 */
function replacePreservingLines(original: string, base: string, matches: Match[]): string {
  const originalLines = linesWithEndings(original);
  const spans: Array<{ start: number; end: number }> = [];
  let offset = 0;
  for (const line of linesWithEndings(base)) {
    spans.push({ start: offset, end: offset + line.length });
    offset += line.length;
  }
  if (originalLines.length !== spans.length) return replace(base, matches, 0);
  const groups: Array<{ first: number; last: number; matches: Match[] }> = [];
  for (const m of matches) {
    const end = m.matchIndex + m.matchLength;
    const first = spans.findIndex((s) => m.matchIndex >= s.start && m.matchIndex < s.end);
    let last = Math.max(first, 0);
    while (last < spans.length - 1 && spans[last]!.end < end) last++;
    const group = groups.at(-1);
    if (group && first <= group.last) {
      group.last = Math.max(group.last, last);
      group.matches.push(m);
    } else groups.push({ first: Math.max(first, 0), last, matches: [m] });
  }
  let out = "";
  let next = 0;
  for (const group of groups) {
    out += originalLines.slice(next, group.first).join("");
    const start = spans[group.first]!.start;
    out += replace(base.slice(start, spans[group.last]!.end), group.matches, start);
    next = group.last + 1;
  }
  return out + originalLines.slice(next).join("");
}
