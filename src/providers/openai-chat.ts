import { randomBytes } from "node:crypto";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { chatReader } from "./chat-reader.js";
import { chatBody } from "./chat-wire.js";
import type { ModelRequest } from "./model-request.js";
import { listModelsWith, openAIClient } from "./openai-client.js";
import { rejectsStreamOptions } from "./provider-error.js";
import { type ProviderDeps, providerSettings } from "./provider-settings.js";
import { withRetries } from "./retry-loop.js";
import { sdkAttempt } from "./sdk-attempt.js";
import type { ModelEndpoint, Provider, StreamOptions } from "./types.js";

export interface ChatProviderDeps extends ProviderDeps {
  /** Id for a tool call the server sent without one (default `call_<random>`). */
  newId?: () => string;
}

/**
 * A provider for any OpenAI-compatible `/chat/completions` endpoint, through the official SDK
 * (one client, one keep-alive pool per provider). Retries are ours: they must know whether
 * output was already shown.
 */
export function createChatProvider(endpoint: ModelEndpoint, deps: ChatProviderDeps = {}): Provider {
  const settings = providerSettings(endpoint, deps);
  const client = openAIClient(endpoint);
  // Flipped for this instance once the endpoint rejects `stream_options`.
  let askForUsage = endpoint.includeUsage !== false;
  const newId = deps.newId ?? (() => `call_${randomBytes(12).toString("hex")}`);

  return {
    stream(request: ModelRequest, { signal }: StreamOptions) {
      return withRetries({
        ...settings,
        endpoint,
        signal,
        attempt: () => {
          const body = requestBody(request, endpoint, askForUsage);
          return async function* (attemptSignal) {
            const sdk = await client();
            return yield* sdkAttempt({
              client: sdk,
              open: (signal) => sdk.sdk.chat.completions.create(body, { signal }).withResponse(),
              reader: chatReader(newId),
              signal: attemptSignal,
              idleTimeoutMs: settings.idleTimeoutMs,
            });
          };
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
      return listModelsWith({ client, endpoint, signal, timeoutMs: settings.listModelsTimeoutMs });
    },
  };
}

function requestBody(
  request: ModelRequest,
  endpoint: ModelEndpoint,
  askForUsage: boolean,
): ChatCompletionCreateParamsStreaming {
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
    ...endpoint.extraBody,
  } as ChatCompletionCreateParamsStreaming;
}
