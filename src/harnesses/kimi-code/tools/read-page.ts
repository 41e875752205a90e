import { EMPTY_OUTPUT, ERROR_STATUS } from "../tool-result.js";
import type { SourceLines, TextEncoding } from "./read-source.js";

/** Kimi Code 2.1.0's `read` config defaults: the budget of a call that names none, and the most a call may ask for. */
export const DEFAULT_MAX_CHARS = 100_000;
export const MAX_CHARS_LIMIT = 500_000;

export interface ReadArgs {
  path: string;
  line_offset?: number;
  column_offset?: number;
  n_lines?: number;
  max_chars?: number;
}

export interface PageRequest {
  args: ReadArgs;
  /** The budget in force: the requested `max_chars` (or the default), capped at the limit. */
  maxChars: number;
  source: SourceLines;
}

/** The lines picked for a page, each already rendered as `<n>\t<content>`. */
export interface PageDraft {
  rendered: string[];
  /** Line number of `rendered[0]`. */
  startLine: number;
  /** The lines the call asked for, clipped to the file (`start > end` when none exist). */
  range: { start: number; end: number };
  fromTail: boolean;
}

/** The text for the model: the page, a newline and the status block; or an error. */
export interface PageResult {
  output: string;
  isError?: boolean;
}

/**
 * Makes the draft fit the budget with its status block, the way Kimi Code 2.1.0 does: drop the
 * last line of a forward page (the oldest of a tail page) until page and status fit; a forward
 * page down to one line that still does not fit becomes a fragment of that line, cut short of a
 * surrogate pair. A tail page with no line left answers with an error that carries the status
 * and the forward Next Read for the whole range.
 */
export function finishPage(request: PageRequest, draft: PageDraft): PageResult {
  const { maxChars } = request;
  const { rendered, fromTail } = draft;
  const firstColumn = fromTail ? 0 : (request.args.column_offset ?? 0);
  const firstPrefix = `${draft.startLine}\t`;
  const firstText = rendered[0]?.slice(firstPrefix.length) ?? "";
  let first = 0;
  let end = rendered.length;
  let contentChars = rendered.reduce((sum, line) => sum + line.length + 1, -1);
  let fragmentEnd: number | undefined;
  for (;;) {
    const status = statusBlock(request, draft, { first, end, firstColumn, firstText, fragmentEnd });
    const count = end - first;
    const size =
      count === 0 ? EMPTY_OUTPUT.length + 1 + status.text.length : contentChars + 1 + status.text.length;
    if (size <= maxChars && (status.complete || count > 0)) {
      const body =
        fragmentEnd !== undefined
          ? firstPrefix + firstText.slice(0, fragmentEnd)
          : rendered.slice(first, end).join("\n");
      return { output: `${body === "" ? EMPTY_OUTPUT : body}\n${status.text}` };
    }
    if (count === 1 && !fromTail) {
      const previous = fragmentEnd ?? firstText.length;
      fragmentEnd = Math.min(previous - 1, previous - (size - maxChars));
      if (splitsSurrogatePair(firstText, fragmentEnd)) fragmentEnd -= 1;
      if (fragmentEnd <= 0) {
        return {
          output: `max_chars=${maxChars} is too small for file text and the Read status. Increase max_chars.`,
          isError: true,
        };
      }
      contentChars = firstPrefix.length + fragmentEnd;
      continue;
    }
    if (count === 0) {
      const recovery = `${NO_LINE_FITS}\n${status.text}`;
      if (!status.complete && ERROR_STATUS.length + 1 + recovery.length <= maxChars) {
        return { output: recovery, isError: true };
      }
      return {
        output: `max_chars=${maxChars} is too small for the Read status. Increase max_chars.`,
        isError: true,
      };
    }
    const dropped = fromTail ? first++ : --end;
    contentChars -= rendered[dropped]!.length + 1;
  }
}

const NO_LINE_FITS = "No complete line fits. Continue with the forward Next Read.";

function statusBlock(
  request: PageRequest,
  draft: PageDraft,
  page: {
    first: number;
    end: number;
    firstColumn: number;
    firstText: string;
    fragmentEnd: number | undefined;
  },
): { text: string; complete: boolean } {
  const { args, maxChars, source } = request;
  const { range, fromTail } = draft;
  const total = source.lines.length;
  const count = page.end - page.first;
  const startLine = draft.startLine + page.first;
  const endLine = draft.startLine + page.end - 1;
  const lineIncomplete = page.fragmentEnd !== undefined;
  const complete =
    range.start > range.end ||
    (count > 0 && startLine === range.start && endLine === range.end && !lineIncomplete);
  const parts = [
    count > 0
      ? `${count} ${count === 1 ? "line" : "lines"} read from file starting from line ${startLine}.`
      : "No lines read from file.",
    `Total lines in file: ${total}.`,
    complete ? "Requested range complete." : "Character limit reached.",
    `Effective max_chars: ${maxChars}.`,
  ];
  if (!lineIncomplete && ((count > 0 && endLine === total) || range.start > total)) {
    parts.push("End of file reached.");
  }
  if (count > 0 && !fromTail && (page.firstColumn > 0 || lineIncomplete)) {
    const from = page.firstColumn;
    const to = from + (page.fragmentEnd ?? page.firstText.length);
    const of = from + page.firstText.length;
    parts.push(
      `Line ${startLine} fragment: columns [${from}, ${to}) of ${of}. ${lineIncomplete ? "Line continues." : "Line complete."}`,
    );
  }
  if (args.max_chars !== undefined && args.max_chars > MAX_CHARS_LIMIT) {
    parts.push(
      `Requested max_chars=${args.max_chars} was capped at the configured maximum ${MAX_CHARS_LIMIT}.`,
    );
  }
  if (!complete && (count > 0 || fromTail)) {
    const nextStart = fromTail ? range.start : lineIncomplete ? startLine : endLine + 1;
    const nextEnd = fromTail && count > 0 ? startLine - 1 : range.end;
    // Key order and the keys left out are part of the text the model copies back.
    const next = {
      path: args.path,
      line_offset: nextStart,
      column_offset: lineIncomplete ? page.firstColumn + page.fragmentEnd! : undefined,
      n_lines: fromTail || args.n_lines !== undefined ? nextEnd - nextStart + 1 : undefined,
      max_chars: maxChars,
    };
    parts.push(`Next Read: ${JSON.stringify(next)}`);
  }
  if (source.style === "mixed") {
    parts.push(
      "Mixed or lone carriage-return line endings are shown as \\r. Use exact \\r\\n or \\r escapes in Edit.old_string for those lines.",
    );
  }
  if (source.encoding !== "utf-8") {
    parts.push(
      `Detected file encoding: ${encodingName(source.encoding)}; content transcoded to UTF-8 for display. Edit and Write expect UTF-8 — convert the file's encoding first (e.g. \`iconv\` via Bash).`,
    );
  }
  if (source.lossy) {
    parts.push(
      "Lossy UTF-16 decoding: malformed sequences were replaced with U+FFFD. The decoded text may differ from the original file.",
    );
  }
  return { text: `<system>${parts.join(" ")}</system>`, complete };
}

export function encodingName(encoding: TextEncoding): string {
  if (encoding === "utf-16le") return "UTF-16 LE";
  if (encoding === "utf-16be") return "UTF-16 BE";
  return "UTF-8";
}

export function splitsSurrogatePair(text: string, offset: number): boolean {
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
