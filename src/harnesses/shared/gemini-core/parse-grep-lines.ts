import path from "node:path";

/** One line of grep output: a match, or a context line around one. */
export interface GrepMatch {
  absolutePath: string;
  /** Relative to the searched directory (the file's name when a file was searched). */
  filePath: string;
  lineNumber: number;
  line: string;
  isContext: boolean;
}

/**
 * Reads `path:line:text` lines (as the shared grep executor prints them) back into matches.
 * `files` are the absolute paths that matched; they disambiguate paths containing `:`.
 */
export function parseGrepLines(lines: string[], files: string[], base: string): GrepMatch[] {
  const names = new Map<string, string>();
  for (const file of files) {
    for (const name of [path.relative(base, file), file, path.basename(file)]) {
      if (name && !names.has(name)) names.set(name, file);
    }
  }
  const byLength = [...names.keys()].sort((a, b) => b.length - a.length);
  const matches: GrepMatch[] = [];
  for (const raw of lines) {
    const name = byLength.find((n) => raw.startsWith(`${n}:`) && /^\d+:/.test(raw.slice(n.length + 1)));
    const parsed = name ? /^(\d+):(.*)$/s.exec(raw.slice(name.length + 1)) : /^(.*?):(\d+):(.*)$/s.exec(raw);
    if (!parsed) continue;
    const shown = name ?? parsed[1]!;
    const absolutePath = names.get(shown) ?? path.resolve(base, shown);
    const relative = path.relative(base, absolutePath);
    matches.push({
      absolutePath,
      filePath: relative || path.basename(absolutePath),
      lineNumber: Number(name ? parsed[1] : parsed[2]),
      line: (name ? parsed[2]! : parsed[3]!).trimEnd(),
      isContext: false,
    });
  }
  return matches;
}
