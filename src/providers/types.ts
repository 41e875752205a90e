import type { ReasoningBack } from "./chat-wire.js";
import type { Continuation, ModelRequest, Wire } from "./model-request.js";

/**
 * Model access. Harnesses render a wire-neutral `ModelRequest`; the endpoint's provider
 * translates it to its wire and streams `ProviderEvent`s back. Server quirks are data on the
 * `ModelEndpoint`, never URL sniffing.
 */

export interface ModelEndpoint {
  /** Provider id from config (e.g. `openai`, `ollama`, `mock`), used in error messages. */
  providerId: string;
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** The API the endpoint speaks (default `chat`). */
  wire?: Wire;
  /** Chat: whether assistant reasoning goes back as `reasoning_content` (default `present`). */
  reasoningBack?: ReasoningBack;
  /** Body fields sent with every request on this endpoint (a provider's own switches, e.g. Qwen's `enable_thinking`). */
  extraBody?: Record<string, unknown>;
  /** Messages: the key as `x-api-key` (Anthropic) or as a bearer token (some compatible endpoints); default `x-api-key`. */
  authStyle?: "x-api-key" | "bearer";
  /** Reasoning settings from config (`model_reasoning_effort`, `model_reasoning_summary`); a harness's knobs win. */
  reasoning?: { effort?: string; summary?: string };
  /** Messages: extended thinking budget from config (`model_thinking_budget`); a harness's knobs win. */
  thinkingBudget?: number;
  headers?: Record<string, string>;
  queryParams?: Record<string, string>;
  /** Retries of a failed request before any output arrived (default 4). */
  maxRetries?: number;
  /** Abort a stream when no chunk arrives for this long (default 300 000). */
  streamIdleTimeoutMs?: number;
  /** Ask for usage with `stream_options.include_usage` (default true; retried once without). */
  includeUsage?: boolean;
}

export interface AssembledToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model sent it ("" when the model sent none). */
  arguments: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, read from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Of `inputTokens`, written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

export type ProviderErrorCode =
  | "auth" // 401/403
  | "not_found" // 404: unknown model or wrong base URL
  | "rate_limited" // 429 after retries
  | "server" // 5xx after retries
  | "bad_request" // other 4xx
  | "tools_unsupported" // the endpoint rejects the `tools` field
  | "context_length" // prompt too long for the model
  | "network" // connection refused / reset / DNS
  | "timeout" // stream idle timeout
  | "protocol"; // unparseable response

export interface ProviderError {
  code: ProviderErrorCode;
  /** Readable, names the endpoint, the model and the HTTP status where there was one. */
  message: string;
  status?: number;
  retryable: boolean;
}

/**
 * A stream never throws: it ends with exactly one `done` or `error` event; an aborted signal
 * ends it with `done` and `finishReason: "cancelled"`. Tool calls are only emitted once the response completed, so a retried or failed request can
 * never produce a half-assembled call.
 */
export type ProviderEvent =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "tool_calls"; calls: AssembledToolCall[] }
  /** What the wire needs to continue the response's reasoning later; stored with the response. */
  | { type: "continuation"; continuation: Continuation[] }
  | { type: "usage"; usage: Usage }
  | { type: "done"; finishReason: "stop" | "tool_calls" | "length" | "content_filter" | "cancelled" }
  | { type: "error"; error: ProviderError };

export interface StreamOptions {
  signal: AbortSignal;
}

export interface Provider {
  stream(request: ModelRequest, options: StreamOptions): AsyncIterable<ProviderEvent>;
  /** Model ids the endpoint lists at `/models`; rejects when unreachable. */
  listModels(options: StreamOptions): Promise<string[]>;
}
