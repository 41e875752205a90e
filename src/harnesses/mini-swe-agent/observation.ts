import warning from "./too-long-warning.md";

/**
 * mini-swe-agent's observation and timeout messages (SWE-agent/mini-swe-agent v1.17.5,
 * `config/mini.yaml` `action_observation_template`, `agents/default.py` `timeout_template`),
 * rendered the way their Jinja templates render: outputs of 10 000 characters or more keep the
 * first and last 5 000 characters around an `<elided_chars>` count. Characters are Unicode code
 * points, as Python's `len` counts them.
 */

export const OUTPUT_LIMIT_CHARS = 10_000;
const HALF = 5_000;

export interface CommandOutput {
  /** Combined stdout and stderr as the runner kept it. */
  output: string;
  /** Bytes the runner cut from the middle of `output` (their note is inside `output`). */
  droppedBytes?: number;
}

interface Split {
  short: boolean;
  head: string;
  tail: string;
  elided: number;
}

function split({ output, droppedBytes = 0 }: CommandOutput): Split {
  const chars = Array.from(output);
  const note = droppedBytes > 0 ? (/\n\[… \d+ bytes omitted …\]\n/.exec(output)?.[0] ?? "") : "";
  const total = chars.length - Array.from(note).length + droppedBytes;
  if (total < OUTPUT_LIMIT_CHARS) return { short: true, head: output, tail: "", elided: 0 };
  return {
    short: false,
    head: chars.slice(0, HALF).join(""),
    tail: chars.slice(-HALF).join(""),
    elided: total - OUTPUT_LIMIT_CHARS,
  };
}

/** What the model sees after a command ran: `<returncode>` then `<output>` (or head/tail). */
export function formatObservation(input: CommandOutput & { returncode: number }): string {
  const s = split(input);
  const code = `<returncode>${input.returncode}</returncode>\n`;
  if (s.short) return `${code}<output>\n${input.output}</output>`;
  return (
    `${code}${warning.trimEnd()}<output_head>\n${s.head}\n</output_head>\n` +
    `<elided_chars>\n${s.elided} characters elided\n</elided_chars>\n<output_tail>\n${s.tail}\n</output_tail>`
  );
}

/** What the model sees when a command was killed at the timeout. */
export function formatTimeout(input: CommandOutput & { command: string }): string {
  const s = split(input);
  const body = s.short
    ? `<output>\n${input.output}\n</output>`
    : "<warning>The output was too long and has been cut.</warning>\n" +
      `<output_head>\n${s.head}\n</output_head>\n<elided_chars>${s.elided} characters elided</elided_chars>\n` +
      `<output_tail>\n${s.tail}\n</output_tail>`;
  return (
    `The last command <command>${input.command}</command> timed out and was killed.\n` +
    `The command printed:\n${body}\nPlease try another command, and avoid commands that wait for interactive input.`
  );
}
