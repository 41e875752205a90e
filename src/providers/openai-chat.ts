import { randomBytes } from "node:crypto";
import type { Agent } from "node:http";
import { chatBody } from "./chat-wire.js";
import { keepAliveAgent } from "./http-client.js";
import { listModels } from "./list-models.js";
import type { ModelRequest } from "./model-request.js";
import { rejectsStreamOptions } from "./provider-error.js";
import { sleepUnlessAborted } from "./retry.js";
import { withRetries } from "./retry-loop.js";
import { streamAttempt } from "./stream-attempt.js";
import type { ModelEndpoint, Provider, StreamOptions } from "./types.js";

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

  return {
    stream(request: ModelRequest, { signal }: StreamOptions) {
      return withRetries({
        endpoint,
        signal,
        maxRetries,
        sleep,
        random,
        attempt: () => {
          pool ??= keepAliveAgent(endpoint.baseUrl);
          const body = requestBody(request, endpoint, askForUsage);
          return (attemptSignal) =>
            streamAttempt({
              endpoint,
              agent: pool as Agent,
              body,
              signal: attemptSignal,
              idleTimeoutMs,
              newId,
            });
        },
        // Servers that reject `stream_options`: asked again at once without it, for good.
        adjust: (failure) => {
          if (!askForUsage || !rejectsStreamOptions(failure)) return false;
          askForUsage = false;
          return true;
        },
      });
    },

    listModels({ signal }: StreamOptions) {
      // Plain node:http, not the SDK: discovery runs after every daemon's first session/new.
      return listModels({ endpoint, signal, timeoutMs: LIST_MODELS_TIMEOUT_MS });
    },
  };
}

function requestBody(request: ModelRequest, endpoint: ModelEndpoint, askForUsage: boolean) {
  const { model, reasoningBack } = endpoint;
  const { messages, tools, ...rest } = chatBody(request, {
    model,
    ...(reasoningBack ? { reasoningBack } : {}),
  });
  return {
    model,
    messages,
    ...(tools ? { tools } : {}),
    stream: true,
    ...(askForUsage ? { stream_options: { include_usage: true } } : {}),
    ...rest,
  };
}
