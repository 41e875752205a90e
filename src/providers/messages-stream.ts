import type { Continuation } from "./model-request.js";
import type { AssembledToolCall, ProviderEvent, Usage } from "./types.js";

/** One Messages stream event, read loosely: servers add fields and compatible ones omit some. */
// biome-ignore lint/suspicious/noExplicitAny: the event is whatever the server sent; read by field
type StreamEvent = { type?: string; [field: string]: any };

/** What a whole Messages stream amounted to, once it ended. */
export interface MessagesResult {
  calls: AssembledToolCall[];
  usage?: Usage;
  finishReason?: string;
  /** The thinking blocks with their signatures, in order, to send back on later requests. */
  continuation: Continuation[];
  /** `message_stop` arrived: the answer is whole. */
  stopped: boolean;
}

/** The API's stop reasons in our words; an unknown reason is a plain stop. */
const FINISH: Record<string, string> = {
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/**
 * Folds Messages stream events into our events: `read` returns what to show now (text and
 * reasoning), `result` what only counts once the stream ended whole (calls, usage, thinking).
 */
export function createMessagesReader() {
  const blocks = new Map<number, Record<string, unknown> & { json?: string }>();
  const order: number[] = [];
  let counts: Counts | undefined;
  let finishReason: string | undefined;
  let stopped = false;

  const read = (event: StreamEvent): ProviderEvent[] => {
    switch (event.type) {
      case "message_start":
        counts = countsOf(event.message?.usage, counts);
        return [];
      case "content_block_start": {
        const block = { ...(event.content_block ?? {}) };
        if (block.type === "tool_use") block.json = "";
        blocks.set(event.index, block);
        order.push(event.index);
        return block.type === "text" && block.text ? [{ type: "text", text: String(block.text) }] : [];
      }
      case "content_block_delta":
        return delta(blocks.get(event.index), event.delta ?? {});
      case "message_delta":
        if (event.delta?.stop_reason) finishReason = FINISH[event.delta.stop_reason] ?? "stop";
        counts = countsOf(event.usage, counts);
        return [];
      case "message_stop":
        stopped = true;
        return [];
      default:
        // `content_block_stop`, `ping` and events added after this was written.
        return [];
    }
  };

  const result = (): MessagesResult => {
    const calls: AssembledToolCall[] = [];
    const continuation: Continuation[] = [];
    for (const index of order) {
      const block = blocks.get(index);
      if (block?.type === "tool_use") {
        const args = block.json === "" && block.input ? JSON.stringify(block.input) : (block.json ?? "");
        calls.push({ id: String(block.id ?? ""), name: String(block.name ?? ""), arguments: args });
      } else if (block?.type === "thinking" && block.signature) {
        continuation.push({
          wire: "messages",
          block: { type: "thinking", thinking: block.thinking ?? "", signature: block.signature },
        });
      } else if (block?.type === "redacted_thinking") {
        continuation.push({ wire: "messages", block: { type: "redacted_thinking", data: block.data } });
      }
    }
    return {
      calls,
      continuation,
      stopped,
      ...(counts ? { usage: usageOf(counts) } : {}),
      ...(finishReason ? { finishReason } : {}),
    };
  };

  return { read, result, finished: () => finishReason !== undefined };
}

function delta(
  block: (Record<string, unknown> & { json?: string }) | undefined,
  delta: StreamEvent,
): ProviderEvent[] {
  if (!block) return [];
  switch (delta.type) {
    case "text_delta":
      return delta.text ? [{ type: "text", text: String(delta.text) }] : [];
    case "thinking_delta":
      block.thinking = `${block.thinking ?? ""}${delta.thinking ?? ""}`;
      return delta.thinking ? [{ type: "reasoning", text: String(delta.thinking) }] : [];
    case "signature_delta":
      block.signature = `${block.signature ?? ""}${delta.signature ?? ""}`;
      return [];
    case "input_json_delta":
      block.json = `${block.json ?? ""}${delta.partial_json ?? ""}`;
      return [];
    default:
      return [];
  }
}

/** Token counts as the API names them; `message_delta` repeats or completes `message_start`'s. */
interface Counts {
  input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens?: number;
  thinking_tokens?: number;
}

function countsOf(raw: StreamEvent | undefined, previous: Counts | undefined): Counts | undefined {
  if (!raw || typeof raw !== "object") return previous;
  const next: Counts = { ...previous };
  for (const name of [
    "input_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
    "output_tokens",
  ] as const) {
    if (typeof raw[name] === "number") next[name] = raw[name];
  }
  const thinking = raw.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") next.thinking_tokens = thinking;
  return next;
}

/** Anthropic counts cache reads and writes apart from `input_tokens`; ours holds the whole prompt. */
function usageOf(counts: Counts): Usage {
  const read = counts.cache_read_input_tokens ?? 0;
  const write = counts.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (counts.input_tokens ?? 0) + read + write,
    outputTokens: counts.output_tokens ?? 0,
    ...(read > 0 ? { cachedInputTokens: read } : {}),
    ...(write > 0 ? { cacheWriteTokens: write } : {}),
    ...(counts.thinking_tokens !== undefined ? { reasoningTokens: counts.thinking_tokens } : {}),
  };
}
