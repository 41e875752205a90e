import { randomBytes } from "node:crypto";
import type { BoundedText } from "../../tools/exec/bounded-output.js";
import {
  approxTokens,
  BYTES_PER_TOKEN,
  countLines,
  truncateMiddleCounting,
} from "../shared/codex-core/truncate.js";

/**
 * How a Codex model family cuts tool output (its catalog's `truncation_policy`): models outside
 * the catalog keep 10 000 bytes, the gpt-5 family 10 000 approximate tokens.
 */
export type TruncationPolicy = { mode: "bytes" | "tokens"; limit: number };

export interface ExecChunkInput {
  /** Milliseconds the call waited (`Wall time`). */
  waitedMs: number;
  /** Set when the process ended; `null` exit code when a signal killed it. */
  exitCode?: number | null;
  /** Set when the process is still running: the id `write_stdin` takes. */
  sessionId?: number;
  /** Head and tail joined directly when bytes were dropped between them (`BackgroundProcesses`). */
  output: BoundedText;
  policy: TruncationPolicy;
  /** The call's `max_output_tokens`, which narrows the family's budget. */
  maxOutputTokens?: number;
}

/**
 * The text Codex's `exec_command` and `write_stdin` return (codex-rs unified exec's
 * `format_response`):
 *
 * ```
 * Chunk ID: 1a2b3c
 * Wall time: 0.5012 seconds
 * Process exited with code 0            | Process running with session ID 3
 * Original token count: 12
 * Output:
 * <output; when cut: a warning line, the total line count, a blank line, then head…tail>
 * ```
 */
export function formatExecChunk(input: ExecChunkInput, chunkId: string = newChunkId()): string {
  const { output } = input;
  const lines = [`Chunk ID: ${chunkId}`, `Wall time: ${(input.waitedMs / 1000).toFixed(4)} seconds`];
  if (input.sessionId !== undefined) lines.push(`Process running with session ID ${input.sessionId}`);
  else lines.push(`Process exited with code ${input.exitCode ?? -1}`);
  const tokens = approxTokens(output.totalBytes);
  lines.push(`Original token count: ${tokens}`, "Output:");
  return `${lines.join("\n")}\n${body(input, tokens)}`;
}

/**
 * The family's budget, or the call's `max_output_tokens` where that is smaller, which then counts
 * what it cut in tokens whatever the family's unit.
 */
function body(input: ExecChunkInput, tokens: number): string {
  const { output, policy } = input;
  const family = policy.mode === "bytes" ? policy.limit : policy.limit * BYTES_PER_TOKEN;
  const requested = input.maxOutputTokens === undefined ? undefined : input.maxOutputTokens * BYTES_PER_TOKEN;
  const narrowed = requested !== undefined && requested < family;
  const budget = narrowed ? requested : family;
  if (output.totalBytes <= budget) return output.text;
  const unit = narrowed || policy.mode === "tokens" ? "tokens" : "chars";
  const warning = `Warning: truncated output (original token count: ${tokens})`;
  // Past the exec buffer's 1 MiB, Codex cuts what the buffer kept, led by its omission line, and
  // prints no line count.
  if (output.droppedBytes > 0) {
    const kept = `... ${output.droppedBytes} bytes omitted ...\n\n${output.text}`;
    return `${warning}\n${truncateMiddleCounting(kept, budget, { dropped: 0, unit }).text}`;
  }
  const cut = truncateMiddleCounting(output.text, budget, { dropped: 0, unit }).text;
  return `${warning}\nTotal output lines: ${countLines(output.text)}\n\n${cut}`;
}

/** Six hex digits naming one answer of a process. */
export function newChunkId(): string {
  return randomBytes(3).toString("hex");
}
