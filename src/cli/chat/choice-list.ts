import type { TerminalInput } from "./key-input.js";
import { clip, type Style } from "./style.js";

/** Rows shown at once; longer lists scroll with the arrows. */
const WINDOW = 9;

export type ChoiceResult =
  | { type: "picked"; index: number }
  /** One of the `extraKeys`. */
  | { type: "key"; key: string }
  /** Esc or Ctrl-C. */
  | { type: "cancel" };

/**
 * A list picked with single keys: ↑/↓ move the marker and Enter takes it, or a number takes its
 * row (the first nine have one); PgUp/PgDn jump a screen. The rows are redrawn in place (the
 * cursor goes back up over them), so each row is clipped to the terminal's width: a wrapped
 * row would throw the count off.
 */
export async function pickChoice(options: {
  choices: string[];
  input: TerminalInput;
  write(text: string): void;
  style: Style;
  columns(): number;
  /** Keys that end the list without a pick, with their hint (e.g. `r` → "look again"). */
  extraKeys?: Record<string, string>;
}): Promise<ChoiceResult> {
  const { choices, style } = options;
  const extra = options.extraKeys ?? {};
  const rows = Math.min(WINDOW, choices.length);
  let selected = 0;
  let top = 0;
  const numbers = choices.slice(0, 9).map((_, i) => String(i + 1));
  const keys = [...numbers, "up", "down", "pageup", "pagedown", "return", ...Object.keys(extra)];

  const draw = (again: boolean) => {
    const width = Math.max(20, options.columns() - 1);
    const lines: string[] = [];
    for (let i = top; i < top + rows; i++) {
      const number = i < 9 ? `[${i + 1}]` : "   ";
      const row = clip(`${number} ${choices[i]}`, width - 2);
      lines.push(i === selected ? `${style.cyan("›")} ${style.bold(row)}` : `  ${row}`);
    }
    const position = choices.length > rows ? `${selected + 1}/${choices.length} · ` : "";
    const hints = Object.entries(extra).map(([key, hint]) => ` · ${key} ${hint}`);
    lines.push(style.dim(clip(`${position}↑/↓ Enter or a number${hints.join("")} · Esc quits`, width)));
    const up = again ? `\x1b[${lines.length}A` : "";
    options.write(`${up}${lines.map((line) => `\r\x1b[2K${line}`).join("\n")}\n`);
  };

  draw(false);
  for (;;) {
    const answer = await options.input.readKey(keys, new AbortController().signal);
    if (answer.type !== "key") return { type: "cancel" };
    const { key } = answer;
    if (Object.hasOwn(extra, key)) return { type: "key", key };
    if (key === "return") return { type: "picked", index: selected };
    if (numbers.includes(key)) return { type: "picked", index: Number(key) - 1 };
    const step = { up: -1, down: 1, pageup: -rows, pagedown: rows }[key] ?? 0;
    selected = Math.min(choices.length - 1, Math.max(0, selected + step));
    if (selected < top) top = selected;
    if (selected >= top + rows) top = selected - rows + 1;
    draw(true);
  }
}
