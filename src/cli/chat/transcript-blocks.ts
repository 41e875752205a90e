import { type Component, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import type { Style } from "./style.js";
import { diffLines, outputLines, type ToolState, toolHeader } from "./tool-view.js";

/**
 * Lines already styled, wrapped to the width they are drawn at. pi-tui renders every component
 * at each frame (the spinner makes ~12 a second), so what was wrapped is kept until the lines or
 * the width change.
 */
export class LinesBlock implements Component {
  private cached: { width: number; lines: string[] } | undefined;

  constructor(private lines: string[]) {}

  set(lines: string[]): void {
    this.lines = lines;
    this.cached = undefined;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  render(width: number): string[] {
    if (this.cached?.width !== width) {
      const wrapped = this.lines.flatMap((line) =>
        line === "" ? [""] : wrapTextWithAnsi(line, Math.max(1, width)),
      );
      this.cached = { width, lines: wrapped };
    }
    return this.cached.lines;
  }
}

/** Whether folded tool output and long diffs are shown whole (Ctrl-O flips it for all of them). */
export interface FoldState {
  expanded: boolean;
}

/** Rows of a folded block shown before "… N more lines (Ctrl-O)". */
const FOLD_ROWS = 12;

/**
 * One tool call, live: `•` while it runs, then `✓` or `✗`, its diffs and its output below. Long
 * output shows its first and last lines, a long diff its first rows, until Ctrl-O expands them.
 */
export class ToolBlock implements Component {
  /** The last render and what it was made from (the tool's state is replaced, never edited in place). */
  private cached: { key: unknown[]; lines: string[] } | undefined;

  constructor(
    readonly tool: ToolState,
    private readonly options: { style: Style; cwd: string | undefined; fold: FoldState; compact: boolean },
  ) {}

  invalidate(): void {
    this.cached = undefined;
  }

  render(width: number): string[] {
    const { tool } = this;
    const key = [width, tool.title, tool.status, tool.content, tool.diffShown, this.options.fold.expanded];
    if (this.cached?.key.every((value, i) => value === key[i])) return this.cached.lines;
    const lines = this.draw(width);
    this.cached = { key, lines };
    return lines;
  }

  private draw(width: number): string[] {
    const { style, cwd, fold } = this.options;
    const view = { style, width: Math.max(20, width), cwd };
    const header = wrapTextWithAnsi(toolHeader(this.tool, view), Math.max(1, width));
    if (this.options.compact || this.tool.status === "pending") return header;
    const diff = this.tool.diffShown
      ? []
      : diffLines(this.tool.content, { ...view, maxRows: Number.MAX_SAFE_INTEGER });
    const output = outputLines(this.tool, { ...view, expanded: fold.expanded });
    const foldedDiff =
      fold.expanded || diff.length <= FOLD_ROWS
        ? diff
        : [
            ...diff.slice(0, FOLD_ROWS),
            style.dim(`    … ${diff.length - FOLD_ROWS} more lines (Ctrl-O to expand)`),
          ];
    return [...header, ...foldedDiff, ...output];
  }
}
