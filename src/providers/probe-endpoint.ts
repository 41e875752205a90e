import { createProvider } from "./create-provider.js";
import type { ModelRequest } from "./model-request.js";
import { displayUrl, ProviderRequestError } from "./provider-error.js";
import type { ModelEndpoint, Provider, ProviderError } from "./types.js";

/** What one streamed probe request showed. */
export type StreamProbe =
  | {
      ok: true;
      /** Text (or reasoning) arrived in at least one chunk before the end. */
      streamed: boolean;
      /** The model called the probe tool (tools request only). */
      called: boolean;
      /** A usage chunk arrived (`stream_options.include_usage`). */
      usage: boolean;
      finishReason: string;
    }
  | { ok: false; error: ProviderError };

/** Facts about an endpoint, for `interpreter doctor` to judge and word. */
export interface EndpointProbe {
  models: { ok: true; ids: string[] } | { ok: false; error: ProviderError };
  /** A plain streamed request; absent when the endpoint could not be reached at all. */
  stream?: StreamProbe;
  /** One tiny request with a tool definition; absent when the plain request already failed. */
  tools?: StreamProbe;
}

export interface ProbeEndpointOptions {
  endpoint: ModelEndpoint;
  /** Bound on each request (the model list and both streams), default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Only the model list (no model is configured to send requests to). */
  listOnly?: boolean;
  /** Replaces the provider (tests of the judging code use the real one against a loopback server). */
  provider?: Provider;
}

export const PROBE_TOOL = "doctor_ping";

const PLAIN: ModelRequest = {
  system: [],
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "This is a connection check. Reply with the single word: ok" }],
    },
  ],
  tools: [],
};

const WITH_TOOL: ModelRequest = {
  system: [],
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: `This is a connection check. Call the ${PROBE_TOOL} tool once.` }],
    },
  ],
  tools: [
    {
      type: "function",
      name: PROBE_TOOL,
      description: "Answers a connection check. Takes no arguments.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    },
  ],
};

/**
 * Checks an endpoint on its wire the way a session uses it: the model list, one streamed
 * answer, one request carrying a tool. No retries (a health check reports what happens now), each
 * step bounded by `timeoutMs`. Stops early when the endpoint is unreachable or rejects the key.
 * Never throws.
 */
export async function probeEndpoint(options: ProbeEndpointOptions): Promise<EndpointProbe> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const endpoint: ModelEndpoint = { ...options.endpoint, maxRetries: 0, streamIdleTimeoutMs: timeoutMs };
  const provider = options.provider ?? createProvider(endpoint);
  const bounded = () =>
    AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]);

  let models: EndpointProbe["models"];
  try {
    models = { ok: true, ids: await provider.listModels({ signal: bounded() }) };
  } catch (error) {
    models = { ok: false, error: asProviderError(error, endpoint, timeoutMs) };
  }
  if (options.listOnly) return { models };
  if (!models.ok && (models.error.code === "network" || models.error.code === "auth")) return { models };

  const stream = await probeStream(provider, PLAIN, bounded(), { endpoint, timeoutMs });
  if (!stream.ok && ["network", "auth", "timeout", "not_found"].includes(stream.error.code)) {
    return { models, stream };
  }
  const tools = await probeStream(provider, WITH_TOOL, bounded(), { endpoint, timeoutMs });
  return { models, stream, tools };
}

async function probeStream(
  provider: Provider,
  request: ModelRequest,
  signal: AbortSignal,
  context: { endpoint: ModelEndpoint; timeoutMs: number },
): Promise<StreamProbe> {
  let streamed = false;
  let called = false;
  let usage = false;
  for await (const event of provider.stream(request, { signal })) {
    switch (event.type) {
      case "text":
      case "reasoning":
        if (event.text) streamed = true;
        break;
      case "tool_calls":
        called = event.calls.some((call) => call.name === PROBE_TOOL);
        break;
      case "usage":
        usage = true;
        break;
      case "error":
        return { ok: false, error: event.error };
      case "done":
        if (event.finishReason === "cancelled") {
          return { ok: false, error: timedOut(context.endpoint, context.timeoutMs) };
        }
        return { ok: true, streamed, called, usage, finishReason: event.finishReason };
      default:
        break;
    }
  }
  return {
    ok: false,
    error: { code: "protocol", message: "the stream ended without a result", retryable: false },
  };
}

function asProviderError(error: unknown, endpoint: ModelEndpoint, timeoutMs: number): ProviderError {
  if (error instanceof ProviderRequestError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
      retryable: error.retryable,
    };
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return timedOut(endpoint, timeoutMs);
  }
  return {
    code: "protocol",
    message: error instanceof Error ? error.message : String(error),
    retryable: false,
  };
}

function timedOut(endpoint: ModelEndpoint, timeoutMs: number): ProviderError {
  return {
    code: "timeout",
    message: `${endpoint.providerId} at ${displayUrl(endpoint.baseUrl)} did not answer within ${timeoutMs / 1000} s`,
    retryable: true,
  };
}
