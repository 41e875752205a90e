import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { ModelRequest } from "./model-request.js";
import { listModelsWith, openAIClient } from "./openai-client.js";
import { type ProviderDeps, providerSettings } from "./provider-settings.js";
import { responsesReader } from "./responses-reader.js";
import { responsesBody } from "./responses-wire.js";
import { withRetries } from "./retry-loop.js";
import { sdkAttempt } from "./sdk-attempt.js";
import type { ModelEndpoint, Provider, StreamOptions } from "./types.js";

/**
 * A provider for OpenAI's `/responses` endpoint (and servers that speak it), through the
 * official SDK. Stateless (`store: false`): reasoning continues through the encrypted items the
 * stream returns as a `continuation` event.
 */
export function createResponsesProvider(endpoint: ModelEndpoint, deps: ProviderDeps = {}): Provider {
  const settings = providerSettings(endpoint, deps);
  const client = openAIClient(endpoint);
  return {
    stream(request: ModelRequest, { signal }: StreamOptions) {
      return withRetries({
        ...settings,
        endpoint,
        signal,
        attempt: () => {
          const body = {
            ...responsesBody(request, {
              model: endpoint.model,
              ...(endpoint.reasoning ? { reasoning: endpoint.reasoning } : {}),
            }),
            stream: true,
            ...endpoint.extraBody,
          } as ResponseCreateParamsStreaming;
          return async function* (attemptSignal) {
            const sdk = await client();
            return yield* sdkAttempt({
              client: sdk,
              open: (signal) => sdk.sdk.responses.create(body, { signal }).withResponse(),
              reader: responsesReader(),
              signal: attemptSignal,
              idleTimeoutMs: settings.idleTimeoutMs,
            });
          };
        },
      });
    },

    listModels({ signal }: StreamOptions) {
      return listModelsWith({ client, endpoint, signal, timeoutMs: settings.listModelsTimeoutMs });
    },
  };
}
