import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { ModelEndpoint } from "./types.js";

// Discovery beside the model wire (a server's own description of its models, the probe of local
// servers) over plain `node:http(s)`, so none of it needs a model SDK loaded. Each request has
// its own connection (no pool): local servers close a
// connection right after their answer without saying so, and a pooled socket would then fail
// the next request with ECONNRESET.

/** Error bodies can be whole HTML pages; a message only needs the start. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

export interface SendOptions {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** Resolves with the response once its headers arrived; rejects on network errors and abort. */
export function send(url: URL, options: SendOptions): Promise<IncomingMessage> {
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return Promise.reject(new Error(`unsupported URL scheme ${url.protocol}`));
  if (url.username || url.password)
    return Promise.reject(new Error("the base URL includes credentials; put the key in api_key instead"));
  const http = transport(url.protocol);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: options.method,
        headers: options.headers,
        signal: options.signal,
        agent: false,
      },
      resolve,
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The body as text, at most `limit` bytes of it (then the response is dropped). */
export async function readText(response: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes >= limit) break;
    }
  } catch {
    // A body cut off mid-way still tells us the status; keep what arrived.
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

/** The endpoint's URL for `route`, with its configured query parameters. */
export function endpointUrl(endpoint: ModelEndpoint, route: string): URL {
  const url = new URL(endpoint.baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${route}`;
  for (const [name, value] of Object.entries(endpoint.queryParams ?? {})) url.searchParams.set(name, value);
  return url;
}

/** The key as a bearer token unless the configured headers carry their own Authorization. */
export function endpointHeaders(
  endpoint: ModelEndpoint,
  extra: Record<string, string>,
): Record<string, string> {
  const custom = endpoint.headers ?? {};
  const hasAuth = Object.keys(custom).some((name) => name.toLowerCase() === "authorization");
  return {
    ...extra,
    ...(endpoint.apiKey && !hasAuth ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    ...custom,
  };
}

/** Response headers as a fetch `Headers` (what `retryAfterMs` reads). */
export function toHeaders(headers: IncomingHttpHeaders): Headers {
  return new Headers(Object.entries(headers).map(([name, value]) => [name, [value ?? ""].flat().join(", ")]));
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host name not found (DNS)",
  EAI_AGAIN: "host name lookup failed (DNS)",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed",
  ECONNABORTED: "connection aborted",
  ERR_STREAM_PREMATURE_CLOSE: "the server closed the connection",
  // undici (the SDK's fetch)
  UND_ERR_SOCKET: "the server closed the connection",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "no response headers in time",
  UND_ERR_BODY_TIMEOUT: "no data in time",
};

/** Words for a system error code found on the error or its causes, e.g. `connection refused (ECONNREFUSED)`. */
export function networkDetail(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
    // fetch never connects to the ports browsers block (the Fetch standard's "bad ports").
    if ((current as { message?: unknown }).message === "bad port")
      return "fetch refuses this port (one of the ports browsers block); run the server on another port";
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function transport(protocol: string) {
  // Loaded on use (TLS only for https). Not `import()`: code restored from the start-up
  // snapshot has no dynamic-import callback, and a static import would put http into every
  // daemon's heap before its first request.
  return protocol === "https:"
    ? process.getBuiltinModule("node:https")
    : process.getBuiltinModule("node:http");
}
