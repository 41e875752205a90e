import { FsToolError, type ReplaceOptions, type ReplaceResult } from "./types.js";

/**
 * Replaces `oldString` with `newString` in `text`. Pure; never touches the disk.
 *
 * - Exact matching first, on the text as given; when that finds nothing and `oldString` uses
 *   other line endings than the file (the model writes LF, the file has CRLF, or the reverse),
 *   `oldString` and `newString` are converted to the file's line ending and tried again, so the
 *   edit is written in the file's convention.
 * - Only then, when `tolerant`, Gemini CLI's "flexible" strategy: whole lines compared with
 *   leading and trailing whitespace ignored; each match is re-indented by the difference between
 *   the indentation of its first line in the file and that of `oldString`'s first line.
 * - Counting: 0 matches → `no_match`; several without `replaceAll` → `multiple_matches` (with
 *   `count`). With `expectedReplacements`, any other count than that number is
 *   `multiple_matches` (Gemini's "expected N occurrences but found M"; `count` may be 0 < M < N).
 * - `oldString === newString`, or a tolerant edit that changes nothing, → `no_change`.
 * - An empty `oldString` creates content only in an empty text (the "new file" case of Claude
 *   Code's Edit and Gemini's replace); on non-empty text it is `no_match`.
 */
export function replaceInText(options: ReplaceOptions): ReplaceResult {
  const { text, oldString, newString } = options;
  if (oldString === newString) {
    throw new FsToolError("no_change", "No changes to make: old_string and new_string are exactly the same.");
  }
  if (oldString === "") {
    if (text === "") return { text: newString, replacements: 1, strategy: "exact" };
    throw new FsToolError("no_match", "old_string is empty, which only creates content in an empty file.");
  }
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const candidates: [string, string][] = [[oldString, newString]];
  const converted = toEol(oldString, eol);
  if (converted !== oldString) candidates.push([converted, toEol(newString, eol)]);
  for (const [search, replacement] of candidates) {
    const parts = text.split(search);
    const count = parts.length - 1;
    if (count === 0) continue;
    checkCount(count, options);
    return { text: parts.join(replacement), replacements: count, strategy: "exact" };
  }
  if (options.tolerant) {
    const result = flexibleReplace(text, oldString, newString, options);
    if (result) {
      if (result.text === text) {
        throw new FsToolError("no_change", "No changes to make: the edit leaves the file unchanged.");
      }
      return { ...result, strategy: "tolerant" };
    }
  }
  throw new FsToolError("no_match", "old_string not found in file.");
}

function checkCount(count: number, options: ReplaceOptions): void {
  if (options.replaceAll) return;
  const expected = options.expectedReplacements;
  if (expected !== undefined && count !== expected) {
    const noun = expected === 1 ? "occurrence" : "occurrences";
    throw new FsToolError(
      "multiple_matches",
      `Expected ${expected} ${noun} of old_string but found ${count}.`,
      count,
    );
  }
  if (expected === undefined && count > 1) {
    throw new FsToolError(
      "multiple_matches",
      `Found ${count} matches of old_string, but it must match exactly once (or replace all of them).`,
      count,
    );
  }
}

function flexibleReplace(
  text: string,
  oldString: string,
  newString: string,
  options: ReplaceOptions,
): { text: string; replacements: number } | undefined {
  if (oldString.trim() === "") return undefined;
  const oldLines = oldString.split(/\r?\n/);
  const oldEndsWithNewline = oldLines.length > 1 && oldLines[oldLines.length - 1] === "";
  if (oldEndsWithNewline) oldLines.pop();
  const newLines = newString.split(/\r?\n/);
  if (oldEndsWithNewline && newLines[newLines.length - 1] === "") newLines.pop();
  const wanted = oldLines.map((line) => line.trim());
  const oldIndent = indentOf(oldLines[0]!);

  // Each source line keeps its own terminator, so untouched lines stay byte for byte.
  const source = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const body = (line: string) => line.replace(/\r?\n$/, "");
  const starts: number[] = [];
  for (let i = 0; i + wanted.length <= source.length; ) {
    if (wanted.every((line, k) => body(source[i + k]!).trim() === line)) {
      starts.push(i);
      i += wanted.length;
    } else {
      i++;
    }
  }
  if (starts.length === 0) return undefined;
  checkCount(starts.length, options);

  let out = "";
  let next = 0;
  for (const start of starts) {
    out += source.slice(next, start).join("");
    const first = source[start]!;
    const fileIndent = indentOf(first);
    const eol = first.endsWith("\r\n")
      ? "\r\n"
      : first.endsWith("\n")
        ? "\n"
        : text.includes("\r\n")
          ? "\r\n"
          : "\n";
    const last = source[start + wanted.length - 1]!;
    const lastTerminator = last.slice(body(last).length);
    if (newLines.length > 0) {
      out += newLines.map((line) => reindent(line, oldIndent, fileIndent)).join(eol) + lastTerminator;
    }
    next = start + wanted.length;
  }
  out += source.slice(next).join("");
  return { text: out, replacements: starts.length };
}

function reindent(line: string, oldIndent: string, fileIndent: string): string {
  if (line.trim() === "") return "";
  if (line.startsWith(oldIndent)) return fileIndent + line.slice(oldIndent.length);
  return fileIndent + line.trimStart();
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function toEol(value: string, eol: string): string {
  return value.replace(/\r?\n/g, eol);
}
