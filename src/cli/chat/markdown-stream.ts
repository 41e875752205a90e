import { type MarkdownState, renderMarkdownLine } from "./markdown-view.js";
import type { Style } from "./style.js";

/**
 * Turns an answer streamed in arbitrary pieces into rendered Markdown, a whole line at a time:
 * a line is styled only once its newline arrives (or the message ends), so nothing is written
 * twice and the output does not depend on where the stream was split. Without colours the text
 * passes through untouched and at once: scripts read exactly what the model wrote.
 */
export class MarkdownStream {
  private held = "";
  private state: MarkdownState = {};

  constructor(private readonly options: { style: Style; width(): number }) {}

  /** What to write now: the lines this chunk completed, each ending in a newline. */
  push(chunk: string): string {
    if (!this.options.style.enabled) return chunk;
    const text = this.held + chunk;
    const cut = text.lastIndexOf("\n");
    if (cut < 0) {
      this.held = text;
      return "";
    }
    this.held = text.slice(cut + 1);
    return text
      .slice(0, cut)
      .split("\n")
      .map((line) => `${this.render(line)}\n`)
      .join("");
  }

  /** The unfinished last line as the model wrote it (for a live preview), "" when none. */
  get pending(): string {
    return this.held;
  }

  /** The message ended: its unfinished last line, rendered, without a newline; the state resets. */
  end(): string {
    const rest = this.held ? this.render(this.held) : "";
    this.held = "";
    this.state = {};
    return rest;
  }

  private render(line: string): string {
    const { text, state } = renderMarkdownLine(line, this.state, {
      style: this.options.style,
      width: this.options.width(),
    });
    this.state = state;
    return text;
  }
}
