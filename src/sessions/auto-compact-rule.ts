import type { CompactionRule } from "../harnesses/types.js";
import type { ModelRequest } from "../providers/model-request.js";
import type { HistoryEvent } from "../store/events.js";
import { IMAGE_BYTES, requestBytes } from "./usage-totals.js";

/** For harnesses whose original has no rule of its own: Codex's, the default harness. */
export const DEFAULT_RULE: CompactionRule = { ratio: 0.9 };

/** The usual rough measure for code and English text when no tokenizer is at hand. */
const BYTES_PER_TOKEN = 4;

/**
 * The token count at which a request is compacted first. `model_auto_compact_token_limit`
 * wins; else the lower of the harness's `ratio × window` and `window − reserve`, the reserve
 * capped at half the window (Kimi's 50k or Claude Code's 33k would otherwise compact every
 * request on a 32k model).
 */
export function compactionLimit(options: {
  rule?: CompactionRule;
  window: number;
  configured?: number;
}): number {
  if (options.configured !== undefined) return options.configured;
  const { window } = options;
  const own = options.rule;
  const rule = own?.ratio !== undefined || own?.reserve !== undefined ? own : DEFAULT_RULE;
  const limits: number[] = [];
  if (rule.ratio !== undefined) limits.push(window * rule.ratio);
  if (rule.reserve !== undefined) limits.push(window - Math.min(rule.reserve, window / 2));
  return Math.floor(Math.min(...limits));
}

/**
 * The next request's size in tokens: the last request's reported usage (prompt + answer)
 * plus the bytes committed since, over 4; when no request was made since the last
 * compaction, the bytes of the rendered request over 4.
 */
export function estimateTokens(history: HistoryEvent[], render: () => ModelRequest): number {
  const compactedAt = history.findLastIndex((e) => e.type === "compaction");
  // A tool's side request (purpose `tool`) measured its own small context, not this one.
  const usageAt = history.findLastIndex((e) => e.type === "usage" && e.purpose !== "tool");
  const usage = history[usageAt];
  if (usageAt > compactedAt && usage?.type === "usage") {
    let bytes = 0;
    for (const event of history.slice(usageAt + 1)) bytes += eventBytes(event);
    return usage.inputTokens + usage.outputTokens + Math.ceil(bytes / BYTES_PER_TOKEN);
  }
  return Math.ceil(requestBytes(render()) / BYTES_PER_TOKEN);
}

function eventBytes(event: HistoryEvent): number {
  switch (event.type) {
    case "user_message": {
      const images = event.content.filter((block) => block.type === "image").length;
      const text = JSON.stringify(event.content, (key, value: unknown) => (key === "data" ? "" : value));
      return Buffer.byteLength(text) + images * IMAGE_BYTES;
    }
    case "assistant_message":
      return Buffer.byteLength(event.text) + Buffer.byteLength(event.reasoning);
    case "tool_call":
      return Buffer.byteLength(event.arguments) + event.name.length;
    case "tool_result":
      return (
        Buffer.byteLength(event.output) +
        (event.parts?.filter((p) => p.type === "image").length ?? 0) * IMAGE_BYTES
      );
    case "format_error":
      return Buffer.byteLength(event.text);
    default:
      return 0;
  }
}
