import type { ModelPrice } from "../config/types.js";
import type { ModelRequest } from "../providers/model-request.js";
import type { Usage } from "../providers/types.js";
import type { HistoryEvent, HistoryEventOf } from "../store/events.js";

/** Bytes (or characters) per token when the endpoint reports no usage: the usual rough rule. */
const BYTES_PER_TOKEN = 4;

/** What the ledger knows about the requests of a session besides the stream itself. */
export interface LedgerInfo {
  model: string;
  provider: string;
  harness: string;
  /** Prices of `model`, when configured. */
  price?: ModelPrice;
}

/** Token totals, cost and latency of a session's model requests, from its `usage` events. */
export function usageTotals(history: readonly HistoryEvent[]) {
  const totals = {
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    /** Requests whose tokens were estimated (no usage from the endpoint). */
    estimated: 0,
    latencyMs: 0,
    /** Requests with a cost (the model had prices). */
    priced: 0,
    cost: 0,
    currency: undefined as string | undefined,
    /** The part of the above spent on compaction summaries (`purpose: "compaction"`). */
    compaction: { requests: 0, inputTokens: 0, outputTokens: 0, cost: 0 },
    /** The part spent on tools' requests beside the turn (`purpose: "tool"`). */
    tools: { requests: 0, inputTokens: 0, outputTokens: 0, cost: 0 },
  };
  for (const e of history) {
    if (e.type !== "usage") continue;
    totals.requests++;
    totals.inputTokens += e.inputTokens;
    totals.outputTokens += e.outputTokens;
    totals.cachedInputTokens += e.cachedInputTokens ?? 0;
    totals.cacheWriteTokens += e.cacheWriteTokens ?? 0;
    totals.reasoningTokens += e.reasoningTokens ?? 0;
    if (e.estimated) totals.estimated++;
    totals.latencyMs += e.latencyMs ?? 0;
    if (e.cost !== undefined) {
      totals.priced++;
      totals.cost += e.cost;
      totals.currency ??= e.currency;
    }
    const part =
      e.purpose === "compaction" ? totals.compaction : e.purpose === "tool" ? totals.tools : undefined;
    if (part) {
      part.requests++;
      part.inputTokens += e.inputTokens;
      part.outputTokens += e.outputTokens;
      part.cost += e.cost ?? 0;
    }
  }
  return totals;
}

/**
 * Cost of one request: uncached input, cached input and output at their prices per million.
 * Reasoning tokens are part of the output tokens (as OpenAI-compatible usage counts them).
 */
export function requestCost(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  return (
    ((usage.inputTokens - cached - written) * price.input +
      cached * price.cachedInput +
      written * price.cacheWrite +
      usage.outputTokens * price.output) /
    1_000_000
  );
}

/**
 * The `usage` event of one model request. Without usage from the endpoint the tokens are
 * estimated (request bytes / 4, streamed output characters / 4) and marked `estimated`;
 * undefined when there is nothing to record (the request failed or was cancelled before any
 * output). The session cost is this request's plus earlier ones in the same currency.
 */
export function usageEvent(options: {
  turnId: string;
  usage?: Usage;
  request: ModelRequest;
  /** Characters streamed back: text, reasoning, tool names and arguments. */
  outputChars: number;
  /** True when the stream ended normally (a `done` event that was not a cancellation). */
  completed: boolean;
  latencyMs: number;
  contextSize: number;
  ledger?: LedgerInfo;
  history: HistoryEvent[];
  /** Marks a request that was not a turn step (a compaction's summary request). */
  purpose?: HistoryEventOf<"usage">["purpose"];
}): HistoryEventOf<"usage"> | undefined {
  const { ledger } = options;
  if (!options.usage && !options.completed && options.outputChars === 0) return undefined;
  const usage: Usage = options.usage ?? {
    inputTokens: estimateRequestTokens(options.request),
    outputTokens: Math.ceil(options.outputChars / BYTES_PER_TOKEN),
  };
  const event: HistoryEventOf<"usage"> = {
    type: "usage",
    turnId: options.turnId,
    ...usage,
    contextUsed: usage.inputTokens + usage.outputTokens,
    contextSize: options.contextSize,
    latencyMs: Math.max(0, Math.round(options.latencyMs)),
    ...(options.usage ? {} : { estimated: true }),
    ...(options.purpose ? { purpose: options.purpose } : {}),
  };
  if (!ledger) return event;
  Object.assign(event, { model: ledger.model, harness: ledger.harness, provider: ledger.provider });
  if (!ledger.price) return event;
  const cost = requestCost(usage, ledger.price);
  const { currency } = ledger.price;
  const earlier = options.history.reduce(
    (sum, e) => (e.type === "usage" && e.cost !== undefined && e.currency === currency ? sum + e.cost : sum),
    0,
  );
  return { ...event, cost, sessionCost: earlier + cost, currency };
}

/**
 * What an image costs in the same bytes-over-4 measure: about 1,600 tokens, near what Anthropic
 * and OpenAI charge for an image the originals send (their base64 would count a hundred times
 * more and trigger compaction for nothing).
 */
export const IMAGE_BYTES = 1_600 * BYTES_PER_TOKEN;

/** UTF-8 size of the request's messages and tools as JSON, the part the model reads; images at `IMAGE_BYTES`. */
export function requestBytes(request: ModelRequest): number {
  let images = 0;
  const json = JSON.stringify(
    { system: request.system, tools: request.tools, messages: request.messages },
    (key, value: unknown) => {
      if (key === "url" && typeof value === "string" && value.startsWith("data:")) {
        images += 1;
        return "";
      }
      return value;
    },
  );
  return Buffer.byteLength(json, "utf8") + images * IMAGE_BYTES;
}

/** Tokens of a request when no tokenizer or usage is at hand: its bytes / 4. */
export function estimateRequestTokens(request: ModelRequest): number {
  return Math.ceil(requestBytes(request) / BYTES_PER_TOKEN);
}

/** Enough digits for cheap models (a request can cost a hundredth of a cent). */
export function formatCost(amount: number): string {
  return amount >= 1 ? amount.toFixed(2) : amount.toPrecision(3).replace(/\.?0+$/, "") || "0";
}

/** The conversation's newest request usage (a tool's side request measures another, smaller context). */
export function lastUsage(history: readonly HistoryEvent[]): HistoryEventOf<"usage"> | undefined {
  return history.findLast((e): e is HistoryEventOf<"usage"> => e.type === "usage" && e.purpose !== "tool");
}
