import type OpenAI from "openai";
import { endpointFetch } from "./endpoint-fetch.js";
import { MAX_ERROR_BODY_BYTES } from "./http-client.js";
import { describeFailure, type Failure, ProviderRequestError } from "./provider-error.js";
import { sdkFailure } from "./sdk-failure.js";
import type { ModelEndpoint } from "./types.js";

const MAX_TIMER_MS = 2 ** 31 - 1;
/** The SDK refuses to start without a key; local servers take any. Never sent (see below). */
const NO_KEY = "no-key";

/** The SDK client of one provider, and the raw error bodies its fetch kept. */
export interface OpenAIClient {
  sdk: OpenAI;
  /**
   * The body of an error response as the server sent it (bounded), found by the `headers` of
   * the SDK's `APIError`. The SDK keeps only `error` of a JSON body; vLLM and FastAPI put their
   * message elsewhere.
   */
  errorBody(headers: Headers | undefined): string | undefined;
}

/**
 * Loads the SDK (and the fetch). Always through `import()` on first use: neither belongs in the
 * start-up snapshot or on the path to `initialize` (scripts/build.mjs keeps them external).
 */
export async function loadModules() {
  const [sdk, baseFetch] = await Promise.all([import("openai"), endpointFetch()]);
  return { OpenAI: sdk.default, baseFetch };
}

/**
 * One lazily built client per provider instance: our retries (`maxRetries: 0`, only we know
 * whether output was shown), our idle timer instead of the SDK's timeout, our headers, query
 * and key, over `endpointFetch` (keep-alive, proxies from the environment).
 */
export function openAIClient(endpoint: ModelEndpoint): () => Promise<OpenAIClient> {
  let client: Promise<OpenAIClient> | undefined;
  return () => {
    // A failed load (a package missing) is tried again by the next request, not kept.
    client ??= build(endpoint).catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
}

async function build(endpoint: ModelEndpoint): Promise<OpenAIClient> {
  const { OpenAI, baseFetch } = await loadModules();
  const bodies = new WeakMap<Headers, string>();
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    refuseCredentials(url);
    const response = await baseFetch(url, init);
    if (response.ok) return response;
    const text = await boundedText(response, MAX_ERROR_BODY_BYTES);
    // Statuses that may not carry a body (304) keep none.
    const empty = [204, 205, 304].includes(response.status);
    const copy = new Response(empty ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    bodies.set(copy.headers, text);
    return copy;
  };
  const custom = endpoint.headers ?? {};
  const hasAuth = Object.keys(custom).some((name) => name.toLowerCase() === "authorization");
  const sdk = new OpenAI({
    apiKey: endpoint.apiKey || NO_KEY,
    baseURL: endpoint.baseUrl.replace(/\/+$/, ""),
    // Explicit, so the SDK does not read OPENAI_ORG_ID / OPENAI_PROJECT_ID from our environment.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: MAX_TIMER_MS,
    // The SDK logs to `console`, and stdout is the protocol.
    logLevel: "off",
    fetch,
    // Without a key no Authorization header goes out at all, as servers with auth off expect.
    defaultHeaders: { ...(endpoint.apiKey || hasAuth ? {} : { Authorization: null }), ...custom },
    ...(endpoint.queryParams && Object.keys(endpoint.queryParams).length > 0
      ? { defaultQuery: endpoint.queryParams }
      : {}),
  });
  return { sdk, errorBody: (headers) => (headers ? bodies.get(headers) : undefined) };
}

/** A key in the URL would end up in logs and error messages; the SDK carries it as a header. */
function refuseCredentials(url: string | URL | Request): void {
  const parsed = new URL(typeof url === "string" || url instanceof URL ? url : url.url);
  if (parsed.username || parsed.password)
    throw new Error("the base URL includes credentials; put the key in api_key instead");
}

async function boundedText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < limit) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.length;
    }
  } catch {
    // A body cut off mid-way still tells us the status; keep what arrived.
  } finally {
    void reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

/**
 * `GET <baseUrl>/models` through the provider's client. Discovery runs right after the first
 * session/new, so going through the same client and fetch pool leaves both warm for the first
 * prompt (its connection included) instead of paying for them at its first token.
 */
export async function listModelsWith(options: {
  client: () => Promise<OpenAIClient>;
  endpoint: ModelEndpoint;
  signal: AbortSignal;
  timeoutMs: number;
}): Promise<string[]> {
  const { endpoint } = options;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  let client: OpenAIClient | undefined;
  let body: unknown;
  try {
    client = await options.client();
    // The raw body: the SDK's pages read anything that is not a list as an empty one.
    body = await client.sdk.get("/models", { signal });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    const failure: Failure = client
      ? sdkFailure(error, client, false)
      : { kind: "protocol", detail: `internal error: ${(error as Error)?.message ?? error}` };
    throw new ProviderRequestError(describeFailure({ failure, endpoint }));
  }
  const fail = (detail: string) =>
    new ProviderRequestError(describeFailure({ failure: { kind: "protocol", detail }, endpoint }));
  if (typeof body !== "object" || body === null) throw fail("the model list is not JSON");
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) throw fail("the model list has no `data` array");
  return data.flatMap((model) => (typeof model?.id === "string" ? [model.id as string] : []));
}
