import { readFile } from "node:fs/promises";
import { compileGlob } from "./glob-pattern.js";
import { RIPGREP_FILE_TYPES } from "./grep-file-types.js";
import type { GrepCollector } from "./grep-output.js";
import { FsToolError, type GrepOptions } from "./types.js";
import { type WalkEntry, walkTree } from "./walk-tree.js";

const READ_AHEAD = 16;

/** Where to search, resolved by grepFiles: a directory (paths shown relative) or one file (shown absolute). */
export interface GrepTarget {
  root: string;
  isDirectory: boolean;
  skipNames: ReadonlySet<string>;
}

/**
 * The search without ripgrep, written to behave like the ripgrep invocation in
 * grep-ripgrep.ts: same file selection (ignore files, hidden files included, `-g` whitelisting
 * ignored files, binary files skipped, links not followed), same order, same line and count
 * rules. The pattern is compiled as a JS RegExp (Unicode mode when it parses as such).
 */
export async function grepWithJs(
  options: GrepOptions,
  target: GrepTarget,
  out: GrepCollector,
): Promise<void> {
  const regex = compileRegex(options);
  // Built (and so validated) even for a single file, which ripgrep searches whatever the filters say.
  const select = fileSelector(options);
  if (!target.isDirectory) {
    searchFile(options, regex, target.root, target.root, await read(target.root), out);
    return;
  }
  // Files are read a few at a time ahead of the one being searched, and searched in walk order.
  const ahead: { display: string; file: string; bytes: Promise<Buffer | undefined> }[] = [];
  const searchNext = async () => {
    const next = ahead.shift()!;
    const bytes = await next.bytes;
    options.signal.throwIfAborted();
    searchFile(options, regex, next.display, next.file, bytes, out);
  };
  for await (const entry of walkTree({
    root: target.root,
    signal: options.signal,
    respectIgnoreFiles: true,
    skipNames: target.skipNames,
    include: select,
  })) {
    if (entry.type !== "file") continue;
    ahead.push({ display: entry.rel, file: entry.abs, bytes: read(entry.abs) });
    if (ahead.length >= READ_AHEAD) await searchNext();
    if (out.full) return;
  }
  while (ahead.length > 0 && !out.full) await searchNext();
}

/** Unreadable files (permissions, removed meanwhile) are skipped, as ripgrep skips them. */
function read(file: string): Promise<Buffer | undefined> {
  return readFile(file).catch(() => undefined);
}

function fileSelector(options: GrepOptions): (entry: WalkEntry, ignored: boolean) => boolean {
  const negated = options.glob?.startsWith("!") ?? false;
  const glob = options.glob
    ? compileGlob(negated ? options.glob.slice(1) : options.glob, { matchBase: true })
    : undefined;
  const known = options.type !== undefined && Object.hasOwn(RIPGREP_FILE_TYPES, options.type);
  const typeGlobs = known ? RIPGREP_FILE_TYPES[options.type!] : undefined;
  if (options.type !== undefined && !typeGlobs) {
    throw new FsToolError("invalid_pattern", `unrecognized file type: ${options.type}`);
  }
  const ofType = typeGlobs?.map((pattern) => compileGlob(pattern, { matchBase: true }));
  return (entry, ignored) => {
    if (glob && negated && glob(entry.rel)) return false;
    if (entry.type === "directory") return !ignored;
    if (entry.type !== "file") return false;
    if (ofType && !ofType.some((matches) => matches(entry.name))) return false;
    // Like ripgrep's `-g`, a matching glob includes a file even when an ignore file excludes it.
    if (glob && !negated) return glob(entry.rel);
    return !ignored;
  };
}

function searchFile(
  options: GrepOptions,
  regex: RegExp,
  display: string,
  file: string,
  bytes: Buffer | undefined,
  out: GrepCollector,
): void {
  if (!bytes || bytes.includes(0)) return;
  let text = bytes.toString("utf8");
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const { matched, count } = options.multiline ? matchAcrossLines(text, regex) : matchLines(lines, regex);
  if (count === 0) return;
  if (options.outputMode === "files_with_matches") {
    out.fileLine(display, file);
    return;
  }
  if (options.outputMode === "count") {
    out.countLine(display, file, count);
    return;
  }
  const shown = new Set<number>(matched);
  for (const index of matched) {
    for (let k = 1; k <= (options.before ?? 0); k++) if (index - k >= 0) shown.add(index - k);
    for (let k = 1; k <= (options.after ?? 0); k++) if (index + k < lines.length) shown.add(index + k);
  }
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (out.full) return;
    const line = lines[index]!.replace(/\r$/, "");
    out.contentLine(display, file, index + 1, line, matched.has(index));
  }
}

function matchLines(lines: string[], regex: RegExp): { matched: Set<number>; count: number } {
  const matched = new Set<number>();
  lines.forEach((line, index) => {
    if (regex.test(line)) matched.add(index);
  });
  return { matched, count: matched.size };
}

/** `-U`: matches may span lines; ripgrep counts each run of matches sharing a line once. */
function matchAcrossLines(text: string, regex: RegExp): { matched: Set<number>; count: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0 && i < text.length - 1; i = text.indexOf("\n", i + 1))
    starts.push(i + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const matched = new Set<number>();
  let count = 0;
  let lastLine = -1;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    const first = lineOf(m.index);
    const last = m[0].length > 0 ? lineOf(m.index + m[0].length - 1) : first;
    if (m[0].length === 0) regex.lastIndex++;
    if (first > lastLine) count++;
    for (let line = first; line <= last; line++) matched.add(line);
    lastLine = Math.max(lastLine, last);
  }
  return { matched, count };
}

/** Rust regex syntax that JS spells differently: `(?P<name>` groups and a leading `(?i)`. */
function compileRegex(options: GrepOptions): RegExp {
  let source = options.pattern.replace(/\(\?P</g, "(?<");
  let ignoreCase = options.ignoreCase ?? false;
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    ignoreCase = true;
  }
  const flags = (ignoreCase ? "i" : "") + (options.multiline ? "gms" : "");
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new FsToolError("invalid_pattern", `regex parse error: ${(error as Error).message}`);
    }
  }
}
