import type { ToolResult } from "../../tools/types.js";

/**
 * CodeWhale's tool-result rules (0.8.44 `core/engine/context.rs`, `dispatch.rs`): a failed call
 * reaches the model as `Error: ` and the error's text; a successful one is trimmed and, when
 * long, replaced by a head-and-tail snippet. Models with a window of 500k tokens or more
 * (DeepSeek V4's million) get the large limits.
 */
const SMALL = { hard: 12_000, noisy: 2_000, snippet: 900 };
const LARGE = { hard: 180_000, noisy: 60_000, snippet: 40_000 };
/** Tools whose output is mostly noise, compacted from the lower limit. */
const NOISY = new Set([
  "exec_shell",
  "exec_shell_wait",
  "exec_shell_interact",
  "multi_tool_use.parallel",
  "web_search",
]);
const MARKER = "\n\n[... output truncated for context ...]\n\n";
const SUMMARY_CHARS = 320;

/** A failure as the model reads it; `message` is the error's own text. */
export function failed(message: string): ToolResult {
  return { output: `Error: ${message}`, isError: true };
}

/** An argument the tool refuses (CodeWhale's `ToolError::InvalidInput` as the engine words it). */
export function invalidInput(tool: string, message: string): ToolResult {
  return failed(`Invalid input for tool '${tool}': ${message}`);
}

/** CodeWhale's context windows (`models.rs`): DeepSeek V4 has a million tokens. */
function largeWindow(model: string): boolean {
  const lower = model.toLowerCase();
  return lower.includes("deepseek") && lower.includes("v4");
}

/** A successful result as it enters the context: trimmed, compacted past the limits. */
export function forContext(options: {
  model: string;
  tool: string;
  output: string;
  summary?: string;
}): string {
  const raw = options.output.trim();
  const limits = largeWindow(options.model) ? LARGE : SMALL;
  const chars = [...raw];
  const compact = chars.length > limits.hard || (NOISY.has(options.tool) && chars.length > limits.noisy);
  if (!compact) return raw;
  const snippet = headTail(chars, limits.snippet);
  const omitted = chars.length - [...snippet].length;
  const summary = options.summary?.trim() ? `Summary: ${clip(options.summary.trim(), SUMMARY_CHARS)}\n` : "";
  return `[${options.tool} output compacted to protect context]\n${summary}Snippet: ${snippet}\n(Original: ${chars.length} chars, omitted: ${omitted} chars.)`;
}

/** Two thirds head, one third tail around CodeWhale's truncation marker. */
function headTail(chars: string[], limit: number): string {
  const remaining = limit - MARKER.length;
  const head = Math.floor((remaining * 2) / 3);
  const tail = remaining - head;
  return `${chars.slice(0, head).join("")}${MARKER}${chars.slice(chars.length - tail).join("")}`;
}

/** At most `max` characters, `...` after a cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join("")}...`;
}
