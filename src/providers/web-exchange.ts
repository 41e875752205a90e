import type { IncomingMessage } from "node:http";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";

// The web tools' one HTTP exchange (a page fetch, a search API call) over plain `node:http(s)`.
// It lives here because this layer owns the daemon's outbound HTTP; what may be reached is the
// caller's policy, passed in as `lookup`: Node connects to the address that function returns,
// so a name checked there cannot resolve to another address between the check and the connect
// (DNS rebinding). Redirects are not followed here: each hop is the caller's decision and check.

export interface WebExchangeRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** Aborts the exchange (the turn's signal, joined with the caller's time limit). */
  signal: AbortSignal;
  /** Decoded body bytes kept; a longer body is cut there and marked `overLimit`. */
  maxBytes: number;
  /**
   * Resolves the URL's host name and decides which addresses may be used (may call back with
   * an error to refuse). Unset: the system resolver. Not consulted for an IP-literal host:
   * callers check those themselves.
   */
  lookup?: LookupFunction;
}

export interface WebExchangeReply {
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The body went past `maxBytes` and was cut there. */
  overLimit: boolean;
}

/**
 * One request and its whole (capped, decompressed) body. Rejects on network errors, on
 * `lookup`'s refusal (with the error `lookup` gave) and on abort; never follows a redirect.
 */
export async function webExchange(request: WebExchangeRequest): Promise<WebExchangeReply> {
  const { url } = request;
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`unsupported URL scheme ${url.protocol}`);
  const response = await send(request);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = [value].flat().join(", ");
  }
  const { body, overLimit } = await readCapped(decoded(response), request.maxBytes, request.signal);
  response.destroy();
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    headers,
    body,
    overLimit,
  };
}

function send(request: WebExchangeRequest): Promise<IncomingMessage> {
  const http =
    request.url.protocol === "https:"
      ? process.getBuiltinModule("node:https")
      : process.getBuiltinModule("node:http");
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      request.url,
      {
        method: request.method,
        headers: request.headers,
        signal: request.signal,
        // A pooled socket would skip `lookup` on reuse; each exchange connects (and checks) anew.
        agent: false,
        ...(request.lookup ? { lookup: request.lookup } : {}),
      },
      resolve,
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

/** The body as the server meant it: gzip, deflate and brotli undone (the cap counts decoded bytes). */
function decoded(response: IncomingMessage): Readable {
  const zlib = process.getBuiltinModule("node:zlib");
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

async function readCapped(
  stream: Readable,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ body: Buffer; overLimit: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stop = () => stream.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
  signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes > maxBytes) {
        stream.destroy();
        return { body: Buffer.concat(chunks).subarray(0, maxBytes), overLimit: true };
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
  return { body: Buffer.concat(chunks), overLimit: false };
}
