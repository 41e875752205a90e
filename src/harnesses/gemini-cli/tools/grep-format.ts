import { readTextFile } from "../../../tools/fs/read-text-file.js";
import type { FsPort } from "../../../tools/types.js";
import type { GrepMatch } from "../../shared/gemini-core/parse-grep-lines.js";
import { MAX_LINE_LENGTH } from "./read-file.js";

/**
 * Adds `before`/`after` lines of context around each match, read from the files themselves
 * (Gemini CLI `packages/core/src/tools/grep-utils.ts::enrichWithAutoContext` does the same when
 * it widens a small result).
 */
export async function withContext(options: {
  fs: FsPort;
  matches: GrepMatch[];
  before: number;
  after: number;
}): Promise<GrepMatch[]> {
  const { fs, matches, before, after } = options;
  if (before === 0 && after === 0) return matches;
  const out: GrepMatch[] = [];
  for (const [file, fileMatches] of groupByFile(matches)) {
    // ripgrep's view of the file: a final newline does not start another line.
    const lines = await readTextFile({ fs, path: fileMatches[0]!.absolutePath })
      .then((f) => f.lines)
      .catch(() => undefined);
    if (!lines) {
      out.push(...fileMatches);
      continue;
    }
    const seen = new Map<number, GrepMatch>();
    for (const match of fileMatches) {
      const first = Math.max(0, match.lineNumber - 1 - before);
      const last = Math.min(lines.length, match.lineNumber + after);
      for (let i = first; i < last; i++) {
        const lineNumber = i + 1;
        const existing = seen.get(lineNumber);
        if (existing) {
          if (lineNumber === match.lineNumber) existing.isContext = false;
          continue;
        }
        seen.set(lineNumber, {
          ...match,
          filePath: file,
          lineNumber,
          line: lines[i] ?? "",
          isContext: lineNumber !== match.lineNumber,
        });
      }
    }
    out.push(...[...seen.values()].sort((a, b) => a.lineNumber - b.lineNumber));
  }
  return out;
}

export function groupByFile(matches: GrepMatch[]): Map<string, GrepMatch[]> {
  const groups = new Map<string, GrepMatch[]>();
  for (const match of matches) {
    const group = groups.get(match.filePath) ?? [];
    group.push(match);
    groups.set(match.filePath, group);
  }
  for (const group of groups.values()) group.sort((a, b) => a.lineNumber - b.lineNumber);
  return groups;
}

/** Gemini CLI's `formatGrepResults` text (`packages/core/src/tools/grep-utils.ts`). */
export function formatGrepResults(options: {
  matches: GrepMatch[];
  pattern: string;
  where: string;
  includePattern?: string;
  namesOnly?: boolean;
  totalMaxMatches: number;
}): string {
  const { matches, pattern, where, includePattern, totalMaxMatches } = options;
  const filter = includePattern ? ` (filter: "${includePattern}")` : "";
  if (matches.length === 0) return `No matches found for pattern "${pattern}" ${where}${filter}.`;
  const groups = groupByFile(matches);
  const matchCount = matches.filter((m) => !m.isContext).length;
  const limited =
    matchCount >= totalMaxMatches ? ` (results limited to ${totalMaxMatches} matches for performance)` : "";
  if (options.namesOnly) {
    const files = [...groups.keys()].sort();
    return `Found ${files.length} files with matches for pattern "${pattern}" ${where}${filter}${limited}:\n${files.join("\n")}`.trim();
  }
  let text = `Found ${matchCount} ${matchCount === 1 ? "match" : "matches"} for pattern "${pattern}" ${where}${filter}${limited}:\n---\n`;
  for (const [file, group] of groups) {
    text += `File: ${file}\n`;
    for (const match of group) {
      let line = match.line.trimEnd();
      const chars = Array.from(line);
      if (chars.length > MAX_LINE_LENGTH) line = `${chars.slice(0, MAX_LINE_LENGTH).join("")}... [truncated]`;
      text += `L${match.lineNumber}${match.isContext ? "-" : ":"} ${line}\n`;
    }
    text += "---\n";
  }
  return text.trim();
}
