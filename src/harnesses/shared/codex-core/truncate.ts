/**
 * Codex's output budget and the exact text its `shell_command` returns to the model
 * (codex-rs `utils/string/src/truncate.rs`, `core/src/tools/mod.rs::format_exec_output_for_model`).
 */

/** Codex's byte budget for tool output on models without a catalog entry (`TruncationPolicy::Bytes(10_000)`). */
export const CODEX_OUTPUT_MAX_BYTES = 10_000;

/** Exit code Codex reports for a command it killed on timeout. */
const TIMEOUT_EXIT_CODE = 124;

export interface TruncateResult {
  text: string;
  truncated: boolean;
}

/**
 * Keeps the first `floor(maxBytes / 2)` and the last `ceil(maxBytes / 2)` UTF-8 bytes of `text`
 * (never splitting a character) and puts `…N chars truncated…` between them, N being the number of
 * characters removed. The marker is not counted in the budget, as in Codex.
 */
export function truncateMiddle(text: string, maxBytes: number): TruncateResult {
  return truncateMiddleCounting(text, maxBytes, { dropped: 0, unit: "chars" });
}

/**
 * The same cut with Codex's token-policy marker, `…N tokens truncated…`: N is the removed bytes
 * in Codex's approximate tokens (4 bytes each, rounded up), the budget `maxTokens × 4` bytes.
 * `dropped` bytes were already removed from the middle of `text` by the runner.
 */
export function truncateMiddleTokens(text: string, maxTokens: number, dropped = 0): TruncateResult {
  return truncateMiddleCounting(text, maxTokens * BYTES_PER_TOKEN, { dropped, unit: "tokens" });
}

/** Codex's token estimate: 4 bytes a token, rounded up (`approx_token_count`). */
export const BYTES_PER_TOKEN = 4;

export function approxTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** `dropped` chars (or bytes, counting tokens) were already removed from the middle of `text`; they join the count. */
export function truncateMiddleCounting(
  text: string,
  maxBytes: number,
  options: { dropped: number; unit: "chars" | "tokens" },
): TruncateResult {
  const { dropped, unit } = options;
  const marker = (chars: number, bytes: number) =>
    unit === "chars" ? `…${chars} chars truncated…` : `…${approxTokens(bytes)} tokens truncated…`;
  if (text === "" && dropped === 0) return { text, truncated: false };
  const textBytes = Buffer.byteLength(text, "utf8");
  const totalBytes = textBytes + dropped;
  if (maxBytes <= 0) return { text: marker(countChars(text) + dropped, totalBytes), truncated: true };
  if (totalBytes <= maxBytes) return { text, truncated: false };

  const headBudget = Math.floor(maxBytes / 2);
  const tailBudget = maxBytes - headBudget;
  const tailStart = Math.max(0, textBytes - tailBudget);
  let headEnd = 0; // UTF-16 index
  let tailBegin = text.length; // UTF-16 index
  let tailFound = false;
  let removed = 0;
  let removedBytes = 0;
  let byte = 0;
  let index = 0;
  for (const ch of text) {
    const end = byte + utf8Length(ch.codePointAt(0) ?? 0);
    if (end <= headBudget) {
      headEnd = index + ch.length;
    } else if (byte >= tailStart) {
      if (!tailFound) {
        tailBegin = index;
        tailFound = true;
      }
    } else {
      removed++;
      removedBytes += end - byte;
    }
    byte = end;
    index += ch.length;
  }
  tailBegin = Math.max(tailBegin, headEnd);
  return {
    text: text.slice(0, headEnd) + marker(removed + dropped, removedBytes + dropped) + text.slice(tailBegin),
    truncated: true,
  };
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3; // lone surrogates too: Buffer writes them as U+FFFD
  return 4;
}

function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Rust's `str::lines().count()`: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}

export interface ExecOutputInput {
  /** `null` when the process died from a signal; Codex prints -1 then. */
  exitCode: number | null;
  durationMs: number;
  /** Combined stdout and stderr as captured (possibly already bounded by the runner). */
  output: string;
  /**
   * Lines of the complete output, counted like Rust's `lines()`. Only read when the runner dropped
   * bytes (`droppedBytes > 0`); otherwise the lines of `output` are counted here.
   */
  totalLines: number;
  timedOut: boolean;
  /**
   * Not printed: Codex's timeout line reports the elapsed wall time (`duration.as_millis()`),
   * which is what `durationMs` holds.
   */
  timeoutMs?: number;
  /**
   * Bytes the runner already cut from the middle of `output`. They are added to the marker's count
   * (as characters: exact for ASCII). Assumes the runner kept more than `maxBytes / 2` bytes on
   * each side, so its gap falls inside the part removed here.
   */
  droppedBytes?: number;
}

/**
 * The text Codex's `shell_command` returns to the model:
 *
 * ```
 * Exit code: 0
 * Wall time: 0.4 seconds
 * Total output lines: 1200      (only when truncation changed the line count)
 * Output:
 * <body, middle-truncated to maxBytes>
 * ```
 *
 * A timed-out command reports exit code 124 and its body starts with
 * `command timed out after <ms> milliseconds`.
 */
export function formatExecOutput(result: ExecOutputInput, maxBytes: number = CODEX_OUTPUT_MAX_BYTES): string {
  const dropped = result.droppedBytes ?? 0;
  const content = result.timedOut
    ? `command timed out after ${Math.floor(result.durationMs)} milliseconds\n${result.output}`
    : result.output;
  const totalLines = dropped > 0 ? result.totalLines + (result.timedOut ? 1 : 0) : countLines(content);
  const body = truncateMiddleCounting(content, maxBytes, { dropped, unit: "chars" }).text;
  const exitCode = result.timedOut ? TIMEOUT_EXIT_CODE : (result.exitCode ?? -1);

  const sections = [`Exit code: ${exitCode}`, `Wall time: ${wallTimeSeconds(result.durationMs)} seconds`];
  if (totalLines !== countLines(body)) sections.push(`Total output lines: ${totalLines}`);
  sections.push("Output:", body);
  return sections.join("\n");
}

/**
 * Codex rounds `Duration::as_secs_f32()` to one decimal in f32 and prints it with Rust's `{}`,
 * which drops a trailing `.0` ("2", "0.5", "12.3").
 */
export function wallTimeSeconds(durationMs: number): string {
  const seconds = Math.fround(durationMs / 1000);
  const tenths = Math.round(Math.fround(seconds * 10));
  return String(tenths / 10);
}
