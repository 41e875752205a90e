import type { ToolResult } from "../../tools/types.js";

/**
 * Kimi CLI 1.49.0's `ToolResultBuilder` (`tools/utils.py`): output capped at 50 000 characters
 * in total and 2 000 per line; a cut line ends with `[...truncated]` (its line break kept), and
 * once the budget is spent further lines are dropped without a mark. The status message gets a
 * closing period on success and "Output is truncated to fit in the message." when a line was cut.
 */
export const MAX_CHARS = 50_000;
export const MAX_LINE_LENGTH = 2_000;
const MARKER = "[...truncated]";
const TRUNCATED = "Output is truncated to fit in the message.";

export class ResultBuilder {
  /** `null`: lines are not cut one by one (the web tools' builder). */
  constructor(readonly maxLineLength: number | null = MAX_LINE_LENGTH) {}
  readonly #parts: string[] = [];
  #chars = 0;
  #truncated = false;

  get chars(): number {
    return this.#chars;
  }

  write(text: string): void {
    for (const original of splitLines(text)) {
      if (this.#chars >= MAX_CHARS) return;
      const room = MAX_CHARS - this.#chars;
      const line = truncateLine(
        original,
        this.maxLineLength === null ? room : Math.min(room, this.maxLineLength),
        MARKER,
      );
      if (line !== original) this.#truncated = true;
      this.#parts.push(line);
      this.#chars += line.length;
    }
  }

  ok(message = ""): ToolResult {
    let final = message && !message.endsWith(".") ? `${message}.` : message;
    if (this.#truncated) final = final ? `${final} ${TRUNCATED}` : TRUNCATED;
    return kimiResult({ message: final, output: this.#parts.join("") });
  }

  error(message: string): ToolResult {
    const final = this.#truncated ? (message ? `${message} ${TRUNCATED}` : TRUNCATED) : message;
    return kimiResult({ message: final, output: this.#parts.join(""), isError: true });
  }
}

/**
 * What the model sees of a `ToolReturnValue` (`soul/message.py`): the message as a
 * `<system>…</system>` part (`<system>ERROR: …</system>` on failure), then the output. The two
 * are stored joined; the renderer sends them as the two text parts they are (render.ts).
 */
export function kimiResult(value: { message?: string; output?: string; isError?: boolean }): ToolResult {
  const message = value.message ?? "";
  const output = value.output ?? "";
  if (value.isError) return { output: `<system>ERROR: ${message}</system>${output}`, isError: true };
  return { output: message ? `<system>${message}</system>${output}` : output };
}

/** A failure before anything ran, in the same shape (kosong's `ToolError`). */
export function kimiError(message: string, output = ""): ToolResult {
  return kimiResult({ message, output, isError: true });
}

/** Python's `str.splitlines(keepends=True)` for the line breaks tools meet: `\r\n`, `\n`, `\r`. */
export function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|[\n\r])|[^\r\n]+/g) ?? [];
}

/** `truncate_line`: the start of the line within `limit` characters, the marker and the line break after it. */
export function truncateLine(line: string, limit: number, marker = "..."): string {
  if (line.length <= limit) return line;
  const end = marker + (/[\r\n]+$/.exec(line)?.[0] ?? "");
  return line.slice(0, Math.max(limit, end.length) - end.length) + end;
}
