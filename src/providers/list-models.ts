import type { IncomingMessage } from "node:http";
import { describeFailure, type Failure, ProviderRequestError } from "./provider-error.js";
import type { ModelEndpoint } from "./types.js";

export interface ListModelsOptions {
  endpoint: ModelEndpoint;
  /** The caller's signal; when it aborts, the listing rejects with its reason. */
  signal: AbortSignal;
  timeoutMs: number;
}

/** Error bodies can be whole HTML pages; the message only needs the start. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** OpenRouter lists hundreds of models; anything far beyond that is not a model list. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;
const MAX_REDIRECTS = 3;

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host name not found (DNS)",
  EAI_AGAIN: "host name lookup failed (DNS)",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed",
};

interface Reply {
  status: number;
  body: string;
  headers: IncomingMessage["headers"];
}

/**
 * `GET <baseUrl>/models` over plain `node:http(s)`: the daemon lists models right after
 * `session/new`, and loading the OpenAI SDK and fetch for that one GET cost ~20 MB of idle RSS.
 * Resolves to the listed ids; rejects with a `ProviderRequestError` naming the endpoint (never the
 * key), or with the caller's abort reason.
 */
export async function listModels({ endpoint, signal, timeoutMs }: ListModelsOptions): Promise<string[]> {
  const fail = (failure: Failure) => new ProviderRequestError(describeFailure({ failure, endpoint }));
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  let reply: Reply;
  try {
    let url = modelsUrl(endpoint);
    if (url.username || url.password)
      throw fail({ kind: "network", detail: "connection failed (the base URL includes credentials)" });
    for (let hops = 0; ; hops++) {
      reply = await get(url, headersFor(endpoint), both);
      const location = reply.headers.location;
      if (reply.status < 300 || reply.status >= 400 || !location || hops >= MAX_REDIRECTS) break;
      const next = new URL(location, url);
      // The key goes to the endpoint's own origin only, as fetch does.
      if (next.origin !== url.origin) break;
      url = next;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) throw fail({ kind: "timeout", idleMs: timeoutMs });
    if (error instanceof ProviderRequestError) throw error;
    throw fail({ kind: "network", detail: networkDetail(error) });
  }
  if (reply.status >= 300) {
    // Only a rate limit reads the headers (Retry-After); `Headers` is built for it alone.
    const headers = reply.status === 429 ? { headers: new Headers(flatHeaders(reply.headers)) } : {};
    throw fail({ kind: "http", status: reply.status, body: reply.body, ...headers });
  }
  let page: unknown;
  try {
    page = JSON.parse(reply.body);
  } catch {
    throw fail({ kind: "protocol", detail: "the model list is not JSON" });
  }
  const data = (page as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw fail({ kind: "protocol", detail: "the model list has no `data` array" });
  return data
    .map((model) => (model as { id?: unknown })?.id)
    .filter((id): id is string => typeof id === "string");
}

function modelsUrl(endpoint: ModelEndpoint): URL {
  const url = new URL(endpoint.baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/models`;
  for (const [name, value] of Object.entries(endpoint.queryParams ?? {})) url.searchParams.set(name, value);
  return url;
}

function headersFor(endpoint: ModelEndpoint): Record<string, string> {
  const custom = endpoint.headers ?? {};
  const hasAuth = Object.keys(custom).some((name) => name.toLowerCase() === "authorization");
  return {
    accept: "application/json",
    ...(endpoint.apiKey && !hasAuth ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    ...custom,
  };
}

function get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<Reply> {
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`unsupported URL scheme ${url.protocol}`);
  // Loaded on use (TLS only for https). Not `import()`: code restored from the start-up snapshot
  // has no dynamic-import callback, and a static import would put http into every daemon's heap.
  const http =
    url.protocol === "https:"
      ? process.getBuiltinModule("node:https")
      : process.getBuiltinModule("node:http");
  return new Promise((resolve, reject) => {
    // No agent: the socket closes with the reply instead of idling in the daemon.
    const request = http.get(url, { headers, signal, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      const limit = status >= 300 ? MAX_ERROR_BODY_BYTES : MAX_LIST_BYTES;
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        if (bytes >= limit) return;
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes >= limit) {
          if (status < 300) request.destroy(new Error("the model list is too large"));
          else finish();
        }
      });
      response.on("end", finish);
      response.on("error", reject);
      function finish() {
        response.destroy();
        resolve({ status, body: Buffer.concat(chunks).toString("utf8"), headers: response.headers });
      }
    });
    request.on("error", reject);
  });
}

function flatHeaders(headers: IncomingMessage["headers"]): [string, string][] {
  return Object.entries(headers).map(([name, value]) => [name, [value ?? ""].flat().join(", ")]);
}

function networkDetail(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
  return `connection failed (${(error as Error)?.message ?? String(error)})`;
}
