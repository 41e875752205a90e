import { randomBytes } from "node:crypto";
import type { Agent } from "node:http";
import { keepAliveAgent } from "./http-client.js";
import { listModels } from "./list-models.js";
import { describeFailure, type Failure, rejectsStreamOptions } from "./provider-error.js";
import { sleepUnlessAborted } from "./retry.js";
import { retryDelayMs, retryReason } from "./retry-policy.js";
import { streamAttempt } from "./stream-attempt.js";
import type { ChatRequest, ModelEndpoint, Provider, ProviderEvent, StreamOptions } from "./types.js";

export interface ChatProviderDeps {
  /** Backoff wait; must resolve (not reject) promptly when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Backoff jitter source (default `Math.random`). */
  random?: () => number;
  /** Id for a tool call the server sent without one (default `call_<random>`). */
  newId?: () => string;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
const LIST_MODELS_TIMEOUT_MS = 5_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A provider for any OpenAI-compatible `/chat/completions` endpoint, over plain HTTP with one
 * keep-alive pool per provider. Retries are ours: they must know whether output was already
 * shown.
 */
export function createChatProvider(endpoint: ModelEndpoint, deps: ChatProviderDeps = {}): Provider {
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? sleepUnlessAborted;
  const maxRetries = endpoint.maxRetries ?? DEFAULT_MAX_RETRIES;
  // 0, negative or infinite means "never"; Node fires longer timers immediately, so clamp.
  const idle = endpoint.streamIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idleTimeoutMs = idle > 0 && idle < MAX_TIMER_MS ? idle : MAX_TIMER_MS;
  // Flipped for this instance once the endpoint rejects `stream_options`.
  let askForUsage = endpoint.includeUsage !== false;
  let pool: Agent | undefined;
  const newId = deps.newId ?? (() => `call_${randomBytes(12).toString("hex")}`);

  async function* run(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    pool ??= keepAliveAgent(endpoint.baseUrl);
    for (let retries = 0; ; ) {
      if (signal.aborted) return yield { type: "done", finishReason: "cancelled" };
      const body = requestBody(request, endpoint.model, askForUsage);
      const outcome = yield* streamAttempt({ endpoint, agent: pool, body, signal, idleTimeoutMs, newId });
      if (outcome.kind === "cancelled") return yield { type: "done", finishReason: "cancelled" };
      if (outcome.kind === "complete") {
        if (outcome.calls.length > 0) yield { type: "tool_calls", calls: outcome.calls };
        if (outcome.usage) yield { type: "usage", usage: outcome.usage };
        return yield {
          type: "done",
          finishReason: finishReasonOf(outcome.finishReason, outcome.calls.length),
        };
      }
      const { failure, emitted } = outcome;
      if (askForUsage && !emitted && rejectsStreamOptions(failure)) {
        askForUsage = false;
        continue;
      }
      const delayMs =
        emitted || retries >= maxRetries ? undefined : retryDelayMs(failure, retries + 1, random);
      if (delayMs === undefined)
        return yield { type: "error", error: describeFailure({ failure, endpoint, retries }) };
      retries++;
      yield { type: "retry", attempt: retries, delayMs, reason: retryReason(failure) };
      await sleep(delayMs, signal);
    }
  }

  return {
    async *stream(request: ChatRequest, { signal }: StreamOptions) {
      try {
        yield* run(request, signal);
      } catch (error) {
        // Only a bug gets here (or a base URL that is not a URL); the contract forbids throwing.
        if (signal.aborted) return yield { type: "done", finishReason: "cancelled" };
        const failure: Failure = {
          kind: "protocol",
          detail: `internal error: ${(error as Error)?.message ?? error}`,
        };
        yield { type: "error", error: describeFailure({ failure, endpoint }) };
      }
    },

    listModels({ signal }: StreamOptions) {
      // Plain node:http, not the SDK: discovery runs after every daemon's first session/new.
      return listModels({ endpoint, signal, timeoutMs: LIST_MODELS_TIMEOUT_MS });
    },
  };
}

function requestBody(request: ChatRequest, model: string, askForUsage: boolean): Record<string, unknown> {
  return {
    model,
    messages: request.messages,
    ...(request.tools.length > 0 ? { tools: request.tools } : {}),
    stream: true,
    ...(askForUsage ? { stream_options: { include_usage: true } } : {}),
    ...request.knobs,
  };
}

function finishReasonOf(reason: string | undefined, calls: number) {
  // Cut by max_tokens in the middle of a call: the session compacts and asks again.
  if (reason === "length") return reason;
  if (calls > 0) return "tool_calls" as const;
  if (reason === "content_filter") return reason;
  return "stop" as const;
}
