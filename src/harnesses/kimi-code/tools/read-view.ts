import {
  DEFAULT_MAX_CHARS,
  finishPage,
  MAX_CHARS_LIMIT,
  type PageRequest,
  type PageResult,
  type ReadArgs,
  splitsSurrogatePair,
} from "./read-page.js";
import type { LineEndingStyle, SourceLines } from "./read-source.js";

/**
 * The page Kimi Code 2.1.0's `Read` shows (kimi-code `agent/tools/os/read/readTool.ts`): lines
 * as `<n>\t<content>` within a character budget that counts the line numbers and the status
 * block too (JavaScript string length). A forward read takes whole lines from `line_offset`
 * (resuming the first one at `column_offset`); a negative `line_offset` takes the newest lines
 * of the tail that fit. What does not fit is left to a "Next Read" the status block spells out.
 */

export function readView(source: SourceLines, args: ReadArgs): PageResult {
  const request: PageRequest = {
    args,
    maxChars: Math.min(args.max_chars ?? DEFAULT_MAX_CHARS, MAX_CHARS_LIMIT),
    source,
  };
  const lineOffset = args.line_offset ?? 1;
  return lineOffset > 0 ? readForward(request, lineOffset) : readTail(request, lineOffset);
}

/** A first cut by a cheap estimate (a line's own length, no status); finishPage trims it to fit. */
function readForward(request: PageRequest, lineOffset: number): PageResult {
  const { source, maxChars, args } = request;
  const column = args.column_offset ?? 0;
  const wanted = args.n_lines ?? Number.POSITIVE_INFINITY;
  const picked: number[] = [];
  let estimate = 0;
  for (let no = lineOffset; no <= source.lines.length && picked.length < wanted; no++) {
    const raw = source.lines[no - 1]!;
    const first = picked.length === 0;
    const chars =
      digits(no) +
      1 +
      Math.max(0, raw.length - (raw.endsWith("\r") ? 1 : 0) - (first ? column : 0)) +
      (first ? 0 : 1);
    if (!first && estimate + chars > maxChars) break;
    picked.push(no);
    estimate += chars;
    if (estimate >= maxChars) break;
  }
  const rendered = picked.map((no) => renderLine(no, source.lines[no - 1]!, source.style));
  const total = source.lines.length;
  if (column > 0) {
    const prefix = `${lineOffset}\t`;
    const text = rendered[0]?.slice(prefix.length);
    if (text === undefined || column > text.length) {
      return failure(
        `column_offset=${column} is past the end of the starting line ${lineOffset}. Read the line from column 0 to inspect its current contents.`,
      );
    }
    if (splitsSurrogatePair(text, column)) {
      return failure(
        `column_offset=${column} splits a Unicode character in line ${lineOffset}. Use a character boundary or the Next Read arguments.`,
      );
    }
    rendered[0] = prefix + text.slice(column);
  }
  return finishPage(request, {
    rendered,
    startLine: lineOffset,
    range: { start: lineOffset, end: Math.min(total, lineOffset + wanted - 1) },
    fromTail: false,
  });
}

/** The newest lines of the requested tail range whose estimated size fits the budget. */
function readTail(request: PageRequest, lineOffset: number): PageResult {
  const { source, maxChars, args } = request;
  const total = source.lines.length;
  const wanted = args.n_lines ?? Number.POSITIVE_INFINITY;
  const start = Math.max(1, total + lineOffset + 1);
  const end = Math.min(total, start + wanted - 1);
  let first = end + 1;
  let chars = 0;
  // Walking back from the end of the range, a line is kept while the page without a trailing
  // separator still fits; the first that does not ends the page.
  for (let no = end; no >= start; no--) {
    const raw = source.lines[no - 1]!;
    const size = digits(no) + 2 + raw.length - (raw.endsWith("\r") ? 1 : 0);
    if (chars + size - 1 > maxChars) break;
    chars += size;
    first = no;
  }
  const rendered: string[] = [];
  for (let no = first; no <= end; no++) rendered.push(renderLine(no, source.lines[no - 1]!, source.style));
  return finishPage(request, {
    rendered,
    startLine: end - rendered.length + 1,
    range: { start, end },
    fromTail: true,
  });
}

function renderLine(no: number, raw: string, style: LineEndingStyle): string {
  const content = style === "crlf" && raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  return `${no}\t${style === "mixed" ? content.replaceAll("\r", "\\r") : content}`;
}

function digits(no: number): number {
  return String(no).length;
}

function failure(output: string): PageResult {
  return { output, isError: true };
}
