/**
 * Kimi Code's `ToolResultBuilder` (kimi-code `packages/agent-core-v2/src/tool/result-builder.ts`):
 * output is capped at 50 000 characters in total and 2 000 per line; a cut line ends with
 * `[...truncated]`, and once the budget is spent one more `[...truncated]` closes the text. The
 * closing message gets "Output is truncated to fit in the message." when anything was cut.
 */

export const MAX_OUTPUT_CHARS = 50_000;
export const MAX_LINE_CHARS = 2_000;
export const TRUNCATION_MARKER = "[...truncated]";
export const TRUNCATION_MESSAGE = "Output is truncated to fit in the message.";

export interface BuiltOutput {
  output: string;
  isError: boolean;
  truncated: boolean;
}

export class OutputBuilder {
  readonly #parts: string[] = [];
  #chars = 0;
  #truncated = false;

  get chars(): number {
    return this.#chars;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  write(text: string): void {
    for (const original of splitLines(text)) {
      if (this.#chars >= MAX_OUTPUT_CHARS) {
        this.#closeBudget();
        return;
      }
      const line = cutLine(original, Math.min(MAX_OUTPUT_CHARS - this.#chars, MAX_LINE_CHARS));
      if (line !== original) this.#truncated = true;
      this.#parts.push(line);
      this.#chars += line.length;
    }
  }

  /** Success: the message is shown only when there is no output or something was cut. */
  ok(message = ""): BuiltOutput {
    let final = message && !message.endsWith(".") ? `${message}.` : message;
    if (this.#truncated) final = final ? `${final} ${TRUNCATION_MESSAGE}` : TRUNCATION_MESSAGE;
    const output = this.#parts.join("");
    const show = final !== "" && (this.#truncated || output === "");
    return { output: show ? join(output, final) : output, isError: false, truncated: this.#truncated };
  }

  /** Failure: the message always closes the output. */
  error(message: string): BuiltOutput {
    const final = this.#truncated
      ? message
        ? `${message} ${TRUNCATION_MESSAGE}`
        : TRUNCATION_MESSAGE
      : message;
    return { output: join(this.#parts.join(""), final), isError: true, truncated: this.#truncated };
  }

  /** As upstream: the closing marker is added only when nothing was cut before. */
  #closeBudget(): void {
    if (this.#truncated) return;
    this.#parts.push(TRUNCATION_MARKER);
    this.#chars += TRUNCATION_MARKER.length;
    this.#truncated = true;
  }
}

/** Lines with their own line breaks (`\r\n`, `\n` or `\r`), the last one possibly without. */
export function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|[\n\r])|[^\r\n]+/g) ?? [];
}

/** The line within `limit` characters, its end replaced by the marker and its line break kept. */
export function cutLine(line: string, limit: number): string {
  if (line.length <= limit) return line;
  const suffix = TRUNCATION_MARKER + (/[\r\n]+$/.exec(line)?.[0] ?? "");
  return line.slice(0, Math.max(limit, suffix.length) - suffix.length) + suffix;
}

function join(output: string, message: string): string {
  if (message === "") return output;
  if (output === "") return message;
  return output.endsWith("\n") ? `${output}${message}` : `${output}\n${message}`;
}
