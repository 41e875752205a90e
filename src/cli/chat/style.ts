/** SGR styling that is either on (a colour terminal) or the identity (NO_COLOR, a pipe, a file). */
export interface Style {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const plain = (text: string) => text;

export function createStyle(enabled: boolean): Style {
  const sgr = (open: number, close: number) =>
    enabled ? (text: string) => (text ? `\x1b[${open}m${text}\x1b[${close}m` : text) : plain;
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    italic: sgr(3, 23),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    magenta: sgr(35, 39),
  };
}

/**
 * Colours only on a terminal, and never when `NO_COLOR` is set to anything non-empty
 * (https://no-color.org); `FORCE_COLOR` (non-zero) turns them on for a pipe.
 */
export function colourWanted(options: { isTTY: boolean; env: NodeJS.ProcessEnv }): boolean {
  const { env } = options;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  if (env.TERM === "dumb") return false;
  return options.isTTY;
}

/** Cuts a plain (unstyled) line to `width` code points, marking the cut with an ellipsis. */
export function clip(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}
