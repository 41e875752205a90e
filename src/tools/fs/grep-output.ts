import type { GrepResult } from "./types.js";

export interface GrepCollectorOptions {
  offset?: number;
  headLimit?: number;
  /** Context lines were asked for: groups that are not adjacent are separated by `--`, as ripgrep does. */
  context: boolean;
  lineNumbers: boolean;
}

/**
 * Turns search records from either backend into ripgrep-shaped lines, applying offset and head
 * limit as they arrive so a backend can stop as soon as `full` is true. Both backends feed
 * files in the same order (paths sorted by name, directory by directory), which is what makes
 * their results identical.
 */
export class GrepCollector {
  readonly #lines: { text: string; file: string | undefined }[] = [];
  readonly #offset: number;
  readonly #headLimit: number | undefined;
  #produced = 0;
  #last: { file: string; line: number } | undefined;

  constructor(private readonly options: GrepCollectorOptions) {
    this.#offset = Math.max(0, options.offset ?? 0);
    this.#headLimit = options.headLimit;
  }

  /** Output lines produced so far, including those skipped by `offset`. */
  get produced(): number {
    return this.#produced;
  }

  /** True once a line beyond offset + headLimit exists: the result is truncated and the rest can be skipped. */
  get full(): boolean {
    return this.#headLimit !== undefined && this.#produced > this.#offset + this.#headLimit;
  }

  /** One line of content: `display` is the path as shown, `file` the absolute path. */
  contentLine(display: string, file: string, lineNumber: number, text: string, isMatch: boolean): void {
    const last = this.#last;
    if (this.options.context && last && (last.file !== file || lineNumber !== last.line + 1)) {
      this.#push("--", undefined);
    }
    this.#last = { file, line: lineNumber };
    const sep = isMatch ? ":" : "-";
    const shown = this.options.lineNumbers
      ? `${display}${sep}${lineNumber}${sep}${text}`
      : `${display}${sep}${text}`;
    this.#push(shown, file);
  }

  fileLine(display: string, file: string): void {
    this.#push(display, file);
  }

  countLine(display: string, file: string, count: number): void {
    this.#push(`${display}:${count}`, file);
  }

  /** `files`: the distinct files behind the returned lines, in order. */
  result(): GrepResult {
    const files = new Set<string>();
    for (const line of this.#lines) if (line.file !== undefined) files.add(line.file);
    return { lines: this.#lines.map((line) => line.text), files: [...files], truncated: this.full };
  }

  #push(text: string, file: string | undefined): void {
    if (this.full) return;
    this.#produced++;
    const beyond = this.#headLimit !== undefined && this.#produced > this.#offset + this.#headLimit;
    if (this.#produced > this.#offset && !beyond) this.#lines.push({ text, file });
  }
}
