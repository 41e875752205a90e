import { stripVTControlCharacters } from "node:util";
import { clip } from "./style.js";

/** Removes one Markdown code fence around command output (the agent fences what it shows). */
export function unfence(text: string): string {
  const match = /^(`{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(text.trim());
  return match ? (match[2] as string) : text;
}

/**
 * Command output folded to a few lines: the first `head` and last `tail` lines with a count of
 * what was skipped between them, each line clipped to `width`. Blank trailing lines are dropped.
 */
export function foldOutput(text: string, options: { head?: number; tail?: number; width: number }): string[] {
  const head = options.head ?? 2;
  const tail = options.tail ?? 3;
  // A carriage return redraws its line (progress bars): keep what the terminal would show.
  const rows = stripVTControlCharacters(unfence(text))
    .split("\n")
    .map((line) => (line.replace(/\r+$/, "").split("\r").at(-1) ?? "").replace(/\t/g, "  ").trimEnd());
  while (rows.length > 0 && rows.at(-1) === "") rows.pop();
  const fit = (line: string) => clip(line, options.width);
  if (rows.length <= head + tail + 1) return rows.map(fit);
  const skipped = rows.length - head - tail;
  return [...rows.slice(0, head).map(fit), `… ${skipped} more lines`, ...rows.slice(-tail).map(fit)];
}

/** The last non-empty line of some output, for the spinner line of a running command. */
export function lastLine(text: string): string {
  const rows = unfence(text)
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  return rows.at(-1) ?? "";
}
