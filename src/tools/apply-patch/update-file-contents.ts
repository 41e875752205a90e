import { ApplyPatchError } from "./apply-patch-error.js";
import type { UpdateChunk } from "./parse-patch.js";
import { seekSequence } from "./seek-sequence.js";
import { joinSourceLines, type SourceLine, splitSourceLines } from "./source-lines.js";

export interface UpdateFileContentsOptions {
  /** Absolute path, only for error messages. */
  path: string;
  original: string;
  chunks: readonly UpdateChunk[];
}

interface Replacement {
  start: number;
  oldLength: number;
  newLines: readonly string[];
  sources: ReadonlyArray<number | null> | undefined;
}

/**
 * The file's text after applying an update hunk's chunks (Codex `derive_new_contents_from_chunks`).
 * Chunks are located in order, each after the previous one. Throws `ApplyPatchError` with Codex's
 * message when a context line or a chunk's lines cannot be found.
 */
export function updateFileContents(options: UpdateFileContentsOptions): string {
  const file = splitSourceLines(options.original);
  const replacements = computeReplacements(
    file.lines.map((line) => line.text),
    options,
  );
  const lines: SourceLine[] = [];
  let next = 0;
  for (const { start, oldLength, newLines, sources } of replacements) {
    const from = Math.max(start, next);
    lines.push(...file.lines.slice(next, from));
    newLines.forEach((text, index) => {
      const source = sources?.[index];
      // A context line keeps the ending it had; added lines take the file's preferred one.
      const ending = source != null && source < oldLength ? (file.lines[from + source]?.ending ?? "") : "";
      lines.push({ text, ending: ending || file.preferredEnding });
    });
    next = Math.max(next, from + oldLength);
  }
  lines.push(...file.lines.slice(next));
  return joinSourceLines({ lines, preferredEnding: file.preferredEnding });
}

function computeReplacements(lines: readonly string[], options: UpdateFileContentsOptions): Replacement[] {
  const replacements: Replacement[] = [];
  let lineIndex = 0;
  for (const chunk of options.chunks) {
    if (chunk.changeContext !== undefined) {
      const found = seekSequence({ lines, pattern: [chunk.changeContext], start: lineIndex, eof: false });
      if (found === undefined) {
        throw new ApplyPatchError(`Failed to find context '${chunk.changeContext}' in ${options.path}`);
      }
      lineIndex = found + 1;
    }

    if (chunk.oldLines.length === 0) {
      // Codex appends pure additions at the end of the file (before a final blank line).
      const start = lines.at(-1) === "" ? lines.length - 1 : lines.length;
      replacements.push({ start, oldLength: 0, newLines: chunk.newLines, sources: chunk.newLineSources });
      continue;
    }

    let pattern = chunk.oldLines;
    let newLines = chunk.newLines;
    let sources = chunk.newLineSources;
    let found = seekSequence({ lines, pattern, start: lineIndex, eof: chunk.isEndOfFile });
    // A trailing empty line in the chunk often stands for the file's final newline, which is not
    // a line of its own here; retry without it.
    if (found === undefined && pattern.at(-1) === "") {
      pattern = pattern.slice(0, -1);
      if (newLines.at(-1) === "") {
        newLines = newLines.slice(0, -1);
        sources = sources?.slice(0, -1);
      }
      found = seekSequence({ lines, pattern, start: lineIndex, eof: chunk.isEndOfFile });
    }
    if (found === undefined) {
      throw new ApplyPatchError(
        `Failed to find expected lines in ${options.path}:\n${chunk.oldLines.join("\n")}`,
      );
    }
    replacements.push({ start: found, oldLength: pattern.length, newLines, sources });
    lineIndex = found + pattern.length;
  }
  return replacements.sort((a, b) => a.start - b.start);
}
