import { type Component, getKeybindings, matchesKey, truncateToWidth } from "@mariozechner/pi-tui";
import type { Style } from "./style.js";

/**
 * Ctrl-T: the whole session in a full-screen page over the chat, folded output and long diffs
 * expanded. ↑/↓, PgUp/PgDn, Home/End scroll; Esc, q or Ctrl-T close it.
 */
export class TranscriptPager implements Component {
  /** Lines scrolled up from the end. */
  private fromEnd = 0;
  private page = 10;

  constructor(
    private readonly options: {
      lines(width: number): string[];
      rows(): number;
      style: Style;
      close(): void;
    },
  ) {}

  invalidate(): void {}

  handleInput(data: string): void {
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.cancel") || data === "q" || matchesKey(data, "ctrl+t")) {
      this.options.close();
      return;
    }
    const steps: [string, number][] = [
      ["up", 1],
      ["down", -1],
      ["pageUp", this.page],
      ["pageDown", -this.page],
      ["home", Number.MAX_SAFE_INTEGER],
      ["end", -Number.MAX_SAFE_INTEGER],
    ];
    const step = steps.find(([key]) => matchesKey(data, key as never))?.[1] ?? 0;
    this.fromEnd = Math.max(0, Math.min(Number.MAX_SAFE_INTEGER, this.fromEnd + step));
  }

  render(width: number): string[] {
    const all = this.options.lines(width);
    this.page = Math.max(1, this.options.rows() - 1);
    this.fromEnd = Math.min(this.fromEnd, Math.max(0, all.length - this.page));
    const end = all.length - this.fromEnd;
    const shown = all.slice(Math.max(0, end - this.page), end);
    while (shown.length < this.page) shown.push("");
    const where = `transcript · lines ${Math.max(1, end - this.page + 1)}-${end} of ${all.length} · ↑/↓ PgUp/PgDn · Esc closes`;
    return [...shown, truncateToWidth(this.options.style.dim(where), Math.max(1, width))];
  }
}
