/**
 * A text file as lines that remember their own ending, so an update rewrites only the lines it
 * touches: untouched lines keep `\r\n`, `\n` or a lone `\r` byte for byte, new lines take the
 * file's preferred ending (its first one, as rustfmt and Ruff detect it), and every line ends up
 * terminated (Codex updates have always left a trailing newline).
 */

export interface SourceLine {
  text: string;
  /** `"\r\n"`, `"\n"`, `"\r"`, or `""` for an unterminated last line. */
  ending: string;
}

export interface SourceFile {
  lines: SourceLine[];
  /** The first ending in the file, `"\n"` when it has none. */
  preferredEnding: string;
}

export function splitSourceLines(contents: string): SourceFile {
  const lines: SourceLine[] = [];
  let preferredEnding: string | undefined;
  let lineStart = 0;
  for (const match of contents.matchAll(/\r\n|\r|\n/g)) {
    const ending = match[0];
    preferredEnding ??= ending;
    lines.push({ text: contents.slice(lineStart, match.index), ending });
    lineStart = match.index + ending.length;
  }
  if (lineStart < contents.length) lines.push({ text: contents.slice(lineStart), ending: "" });
  return { lines, preferredEnding: preferredEnding ?? "\n" };
}

/** Joins lines back into text, giving any unterminated line the preferred ending. */
export function joinSourceLines(file: SourceFile): string {
  return file.lines.map((line) => line.text + (line.ending || file.preferredEnding)).join("");
}
