import { clip, type Style } from "./style.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\x1b[2K";

/**
 * A one-line status with a spinner, kept on the terminal's current line and redrawn in place
 * with carriage return + clear-line only (no cursor movement, so it works over SSH and in any
 * terminal). Off the terminal (`animate: false`) it draws nothing at all.
 */
export interface Spinner {
  /**
   * Shows or replaces the status (plain text, plus an optional dimmed detail). The caller
   * guarantees the cursor is at the start of a line.
   */
  show(text: string, detail?: string): void;
  /** Erases the status line, leaving the cursor at column 0 of that (now empty) line. */
  hide(): void;
  readonly visible: boolean;
}

export function createSpinner(options: {
  write(text: string): void;
  animate: boolean;
  style: Style;
  columns(): number;
  intervalMs?: number;
}): Spinner {
  const { write, style } = options;
  let text: string | undefined;
  let detail = "";
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    if (text === undefined) return;
    // One column short of the width: a line that wraps could no longer be cleared in place.
    const room = Math.max(10, options.columns() - 3);
    const main = clip(text, room);
    const rest = room - [...main].length - 3;
    const extra = detail && rest > 5 ? style.dim(` · ${clip(detail, rest)}`) : "";
    write(`${CLEAR_LINE}${style.cyan(FRAMES[frame % FRAMES.length] as string)} ${main}${extra}`);
  };
  return {
    show(next, nextDetail = "") {
      if (!options.animate) return;
      if (next === text && nextDetail === detail) return;
      text = next;
      detail = nextDetail;
      draw();
      if (!timer) {
        timer = setInterval(() => {
          frame++;
          draw();
        }, options.intervalMs ?? 100);
        timer.unref();
      }
    },
    hide() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (text === undefined) return;
      text = undefined;
      write(CLEAR_LINE);
    },
    get visible() {
      return text !== undefined;
    },
  };
}
