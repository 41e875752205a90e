/** ShellSession's line cap and default timeout (little-coder `shell-session/helpers.ts`). */
export const MAX_LINES = 200;
export const DEFAULT_TIMEOUT_S = 30;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what a colour code starts with.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;

export interface ShellOutcome {
  output: string;
  exitCode: number;
  cwd: string;
  timedOut: boolean;
}

/**
 * A ShellSession result as the original writes it: colours and carriage returns removed, runs
 * of a repeated line collapsed into one note, more than 200 lines cut to the first 100 and the
 * last 50 around a count, then the `[exit=N cwd=… timed_out=…]` footer (with
 * `output_truncated=true` when cut, and the backend's note: the original's tmux backend is ours).
 */
export function formatShellOutput(outcome: ShellOutcome): string {
  const lines = dedupLines(outcome.output.replace(ANSI, "").replace(/\r/g, "").split("\n"));
  const cut = truncateLines(lines);
  const bits = [`exit=${outcome.exitCode}`, `cwd=${outcome.cwd}`, `timed_out=${outcome.timedOut}`];
  if (cut.truncated) bits.push("output_truncated=true");
  bits.push("backend=tmux-proxy");
  const body = cut.lines.join("\n");
  const footer = `[${bits.join(" ")}]`;
  return body ? `${body}\n${footer}` : footer;
}

function dedupLines(lines: string[]): string[] {
  const out: string[] = [];
  let last: string | undefined;
  let repeats = 0;
  const flush = () => {
    if (repeats > 0) out.push(`  [... ${repeats} duplicate line(s) collapsed ...]`);
    repeats = 0;
  };
  for (const line of lines) {
    if (line === last) {
      repeats++;
      continue;
    }
    flush();
    out.push(line);
    last = line;
  }
  flush();
  return out;
}

function truncateLines(lines: string[]): { lines: string[]; truncated: boolean } {
  if (lines.length <= MAX_LINES) return { lines, truncated: false };
  const head = Math.floor(MAX_LINES / 2);
  const tail = Math.floor(MAX_LINES / 4);
  const skipped = lines.length - head - tail;
  return {
    lines: [...lines.slice(0, head), `  [... ${skipped} lines truncated ...]`, ...lines.slice(-tail)],
    truncated: true,
  };
}
