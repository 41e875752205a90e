import path from "node:path";
import type { ExecResult, FsPort } from "../../tools/types.js";
import { signalNumber } from "../shared/gemini-core/signal-number.js";
import { stripAnsi } from "../shared/gemini-core/strip-ansi.js";

/** Gemini CLI's shell inactivity timeout default (`shellToolInactivityTimeout`, 300 s). */
export const SHELL_TIMEOUT_MS = 300_000;

/** Gemini CLI's `DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD`. */
export const TRUNCATE_THRESHOLD = 40_000;

/**
 * The text Gemini CLI's `run_shell_command` returns (`packages/core/src/tools/shell.ts`): `Output:`
 * with the trimmed, ANSI-free output or `(empty)`, then `Exit Code:` and `Signal:` only when they
 * apply, then the `Process Group PGID:` of the group the command led, all wrapped in
 * `<untrusted_context>`. Cancelled and timed-out commands get Gemini's sentences instead.
 */
export function formatShellOutput(result: ExecResult): string {
  const output = stripAnsi(result.output).trim();
  let text: string;
  if (result.timedOut || result.aborted) {
    text = result.timedOut
      ? `Command was automatically cancelled because it exceeded the timeout of ${(SHELL_TIMEOUT_MS / 60000).toFixed(1)} minutes without output.`
      : "Command was cancelled by user before it could complete.";
    text += output
      ? ` Below is the output before it was cancelled:\n${output}`
      : " There was no output before it was cancelled.";
  } else {
    const parts = [`Output: ${output || "(empty)"}`];
    if (result.exitCode !== null && result.exitCode !== 0) parts.push(`Exit Code: ${result.exitCode}`);
    if (result.signal) parts.push(`Signal: ${signalNumber(result.signal)}`);
    if (result.processGroup !== undefined) parts.push(`Process Group PGID: ${result.processGroup}`);
    text = parts.join("\n");
  }
  return `<untrusted_context>\n${text.replaceAll("</untrusted_context>", "&lt;/untrusted_context&gt;")}\n</untrusted_context>`;
}

/**
 * Gemini CLI's spill rule (`packages/core/src/scheduler/tool-executor.ts`,
 * `utils/fileUtils.ts::formatTruncatedToolOutput`): output longer than the threshold is saved to
 * a file under `tool-outputs/session-<id>/` named `<tool>__<call id>.txt`, and replaced by its
 * first 20% and last 80% of the threshold with the file's path.
 */
export async function spillShellOutput(options: {
  text: string;
  fs: FsPort;
  dir: string;
  sessionId: string;
  /** Gemini's call id shape, `<tool>_<unix ms>_<index>`. */
  callId: string;
  threshold?: number;
}): Promise<string> {
  const threshold = options.threshold ?? TRUNCATE_THRESHOLD;
  if (threshold <= 0 || options.text.length <= threshold) return options.text;
  const name = `run_shell_command__${options.callId}.txt`;
  const file = path.join(options.dir, "tool-outputs", `session-${options.sessionId}`, name);
  await options.fs.writeText(file, options.text);
  return truncatedToolOutput(options.text, file, threshold);
}

export function truncatedToolOutput(text: string, file: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const headChars = Math.floor(maxChars * 0.2);
  const tailChars = maxChars - headChars;
  const omitted = text.length - headChars - tailChars;
  return `Output too large. Showing first ${headChars.toLocaleString("en-US")} and last ${tailChars.toLocaleString("en-US")} characters. For full output see: ${file}
${text.slice(0, headChars)}

... [${omitted.toLocaleString("en-US")} characters omitted] ...

${text.slice(-tailChars)}`;
}
