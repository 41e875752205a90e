/**
 * Tolerant search for a run of lines (codex-rs/apply-patch `seek_sequence.rs`). Models copy
 * context imperfectly, so each pass is looser than the one before: exact, then ignoring trailing
 * whitespace, then ignoring surrounding whitespace, then also reading typographic punctuation
 * (dashes, curly quotes, odd spaces) as its ASCII twin. The first pass that matches anywhere wins,
 * so an exact match later in the file beats a fuzzy one earlier.
 */

export interface SeekSequenceOptions {
  lines: readonly string[];
  pattern: readonly string[];
  /** First index a match may start at. */
  start: number;
  /** The pattern must end the file: only the last possible position is tried (as Codex does). */
  eof: boolean;
}

const PASSES: ReadonlyArray<(line: string) => string> = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  (line) => normalisePunctuation(line.trim()),
];

/** Returns the index where `pattern` starts in `lines`, or undefined. An empty pattern matches at `start`. */
export function seekSequence(options: SeekSequenceOptions): number | undefined {
  const { lines, pattern, start, eof } = options;
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return undefined;
  const last = lines.length - pattern.length;
  const from = eof ? last : start;
  for (const normalise of PASSES) {
    const wanted = pattern.map(normalise);
    const haystack = lines.map(normalise);
    for (let i = from; i <= last; i++) {
      if (wanted.every((line, offset) => haystack[i + offset] === line)) return i;
    }
  }
  return undefined;
}

/** Maps the Unicode punctuation Codex normalises onto ASCII. */
export function normalisePunctuation(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018-\u201b]/g, "'")
    .replace(/[\u201c-\u201f]/g, '"')
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, " ");
}
