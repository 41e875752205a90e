/**
 * The text Kimi Code's `Read` shows (kimi-code `agent/tools/os/read/readTool.ts`): lines as
 * `<n>\t<content>`, at most 1 000 lines and 100 KB, lines over 2 000 characters cut with `...`,
 * CRLF files shown with LF, lone or mixed carriage returns shown as `\r`; then a `<system>`
 * status block saying what was read and where the file ends.
 */

export const MAX_LINES = 1000;
export const MAX_LINE_LENGTH = 2000;
/** Kimi Code 2.1.0's page budget (`max_chars` 100 000); we count it in UTF-8 bytes, which never lets more through. */
export const MAX_BYTES = 100_000;

interface Entry {
  lineNo: number;
  raw: string;
}

type LineEndings = "lf" | "crlf" | "mixed";

export interface ReadView {
  /** The numbered lines, joined by `\n`. */
  body: string;
  /** The `<system>…</system>` status block. */
  note: string;
}

export function readView(content: string, options: { lineOffset?: number; nLines?: number }): ReadView {
  const text = content.startsWith("\uFEFF") ? content.slice(1) : content;
  const rawLines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const entries = rawLines.map((raw, index) => ({
    lineNo: index + 1,
    raw: raw.endsWith("\n") ? raw.slice(0, -1) : raw,
  }));
  const endings = lineEndings(text);
  const offset = options.lineOffset ?? 1;
  const requested = options.nLines ?? MAX_LINES;
  const limit = Math.min(requested, MAX_LINES);

  if (offset < 0) {
    const tail = entries.slice(Math.max(0, entries.length + offset)).slice(0, limit);
    let rendered = tail.map((entry) => ({ entry, ...renderLine(entry, endings) }));
    const size = (lines: typeof rendered) => lines.reduce((sum, r, i) => sum + lineBytes(r.line, i === 0), 0);
    let maxBytesReached = false;
    if (size(rendered) > MAX_BYTES) {
      maxBytesReached = true;
      const kept: typeof rendered = [];
      let bytes = 0;
      for (let i = rendered.length - 1; i >= 0; i--) {
        const candidate = rendered[i]!;
        const add = lineBytes(candidate.line, kept.length === 0);
        if (bytes + add > MAX_BYTES) break;
        kept.unshift(candidate);
        bytes += add;
      }
      rendered = kept;
    }
    return finish({
      lines: rendered.map((r) => r.line),
      cut: rendered.filter((r) => r.cut).map((r) => r.entry.lineNo),
      maxLinesReached: false,
      maxBytesReached,
      endings,
      startLine: rendered[0]?.entry.lineNo ?? 0,
      totalLines: entries.length,
      requested,
    });
  }

  const selected = entries.slice(offset - 1, offset - 1 + limit);
  const maxLinesReached = limit >= MAX_LINES && entries.length - (offset - 1) > limit;
  const lines: string[] = [];
  const cut: number[] = [];
  let bytes = 0;
  let maxBytesReached = false;
  for (const entry of selected) {
    const rendered = renderLine(entry, endings);
    const add = lineBytes(rendered.line, lines.length === 0);
    if (lines.length > 0 && bytes + add > MAX_BYTES) {
      maxBytesReached = true;
      break;
    }
    if (rendered.cut) cut.push(entry.lineNo);
    lines.push(rendered.line);
    bytes += add;
    if (bytes >= MAX_BYTES) {
      maxBytesReached = true;
      break;
    }
  }
  return finish({
    lines,
    cut,
    maxLinesReached,
    maxBytesReached,
    endings,
    startLine: lines.length > 0 ? offset : 0,
    totalLines: entries.length,
    requested,
  });
}

function renderLine(entry: Entry, endings: LineEndings): { line: string; cut: boolean } {
  const content = endings === "crlf" && entry.raw.endsWith("\r") ? entry.raw.slice(0, -1) : entry.raw;
  const truncated =
    content.length > MAX_LINE_LENGTH ? `${content.slice(0, MAX_LINE_LENGTH - 3)}...` : content;
  const shown = endings === "mixed" ? truncated.replaceAll("\r", "\\r") : truncated;
  return { line: `${entry.lineNo}\t${shown}`, cut: truncated !== content };
}

function lineBytes(line: string, first: boolean): number {
  return (first ? 0 : 1) + Buffer.byteLength(line, "utf8");
}

function lineEndings(text: string): LineEndings {
  const crlf = /\r\n/.test(text);
  const lf = /(^|[^\r])\n/.test(text);
  const loneCr = /\r(?!\n)/.test(text);
  if (loneCr || (crlf && lf)) return "mixed";
  return crlf ? "crlf" : "lf";
}

function finish(input: {
  lines: string[];
  cut: number[];
  maxLinesReached: boolean;
  maxBytesReached: boolean;
  endings: LineEndings;
  startLine: number;
  totalLines: number;
  requested: number;
}): ReadView {
  const count = input.lines.length;
  const parts = [
    count > 0
      ? `${count} ${count === 1 ? "line" : "lines"} read from file starting from line ${input.startLine}.`
      : "No lines read from file.",
    `Total lines in file: ${input.totalLines}.`,
  ];
  // Kimi Code 2.1.0's page status: whether the requested range fit, the character budget in
  // force, and the end of the file when the page reaches it.
  parts.push(input.maxBytesReached ? "Character limit reached." : "Requested range complete.");
  parts.push(`Effective max_chars: ${MAX_BYTES}.`);
  if (!input.maxLinesReached && !input.maxBytesReached && count < input.requested)
    parts.push("End of file reached.");
  if (input.cut.length > 0) parts.push(`Lines [${input.cut.join(", ")}] were truncated.`);
  if (input.endings === "mixed") {
    parts.push(
      "Mixed or lone carriage-return line endings are shown as \\r. Use exact \\r\\n or \\r escapes in Edit.old_string for those lines.",
    );
  }
  return { body: input.lines.join("\n"), note: `<system>${parts.join(" ")}</system>` };
}
