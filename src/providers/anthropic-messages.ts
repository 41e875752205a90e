import type Anthropic from "@anthropic-ai/sdk";
import { endpointFetch } from "./endpoint-fetch.js";
import { messagesAttempt } from "./messages-attempt.js";
import { sdkFailure } from "./messages-failure.js";
import { messagesBaseUrl, messagesBody } from "./messages-wire.js";
import type { ModelRequest } from "./model-request.js";
import { describeFailure, ProviderRequestError } from "./provider-error.js";
import { type ProviderDeps, providerSettings } from "./provider-settings.js";
import { withRetries } from "./retry-loop.js";
import type { ModelEndpoint, Provider, StreamOptions } from "./types.js";

type Sdk = typeof import("@anthropic-ai/sdk");
interface Loaded {
  client: Anthropic;
  sdk: Sdk;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * The API version Claude Code and pi send, and the one Anthropic-compatible endpoints document;
 * the SDK would send its own newer date, which those endpoints do not know.
 */
const API_VERSION = "2023-06-01";
/** The SDK would log to `console`, and stdout is the protocol. */
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A provider for Anthropic's Messages API and the endpoints that copy it (Moonshot, DeepSeek,
 * Z.AI, MiniMax), through the official SDK. The SDK is loaded on the first request, never at
 * start; its retries and timeout are off, ours know what the editor already saw.
 */
export function createMessagesProvider(endpoint: ModelEndpoint, deps: ProviderDeps = {}): Provider {
  const { idleTimeoutMs, listModelsTimeoutMs, ...retry } = providerSettings(endpoint, deps);
  let loaded: Promise<Loaded> | undefined;
  // A failed load (a broken install) is not kept: the next request tries again.
  const client = () => {
    loaded ??= loadClient(endpoint).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const options = {
    model: endpoint.model,
    thinkingBudget: endpoint.thinkingBudget,
    extraBody: endpoint.extraBody,
  };

  return {
    stream(request: ModelRequest, { signal }: StreamOptions) {
      return withRetries({
        ...retry,
        endpoint,
        signal,
        attempt: () => {
          const body = messagesBody(request, options);
          return (attemptSignal) =>
            messagesAttempt({ client: client(), body, signal: attemptSignal, idleTimeoutMs });
        },
      });
    },

    async listModels({ signal }: StreamOptions) {
      let sdk: Sdk | undefined;
      try {
        const ready = await client();
        sdk = ready.sdk;
        const both = AbortSignal.any([signal, AbortSignal.timeout(listModelsTimeoutMs)]);
        const ids: string[] = [];
        for await (const model of ready.client.models.list({ limit: 1000 }, { signal: both }))
          ids.push(model.id);
        return ids;
      } catch (error) {
        const failure = sdkFailure(error, { sdk, midResponse: false });
        throw new ProviderRequestError(describeFailure({ failure, endpoint }));
      }
    },
  };
}

async function loadClient(endpoint: ModelEndpoint): Promise<Loaded> {
  const [sdk, fetch] = await Promise.all([import("@anthropic-ai/sdk"), endpointFetch()]);
  const key = endpoint.apiKey ?? "";
  const bearer = endpoint.authStyle === "bearer";
  const client = new sdk.default({
    baseURL: messagesBaseUrl(endpoint.baseUrl),
    // A credential is always passed, "" for none: without one the SDK looks for Anthropic
    // profiles on disk and would send their token to whatever endpoint this is.
    ...(bearer && key ? { authToken: key } : { apiKey: key }),
    defaultHeaders: { "anthropic-version": API_VERSION, ...authHeaders(key, bearer), ...endpoint.headers },
    ...(endpoint.queryParams ? { defaultQuery: endpoint.queryParams } : {}),
    maxRetries: 0,
    // Our idle timer governs; the SDK's would cut long answers and only covers the headers.
    timeout: MAX_TIMER_MS,
    fetch,
    logger: SILENT,
    logLevel: "off",
    openTelemetry: false,
  });
  return { client, sdk };
}

/**
 * This SDK sends any key as `Authorization: Bearer`; Anthropic's own API and most compatible
 * endpoints take it as `x-api-key` (`null` removes the SDK's header).
 */
function authHeaders(key: string, bearer: boolean): Record<string, string | null> {
  if (bearer && key) return {};
  return key && !bearer ? { "x-api-key": key, authorization: null } : { authorization: null };
}
