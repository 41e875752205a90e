import type { ErrorBodyFetch } from "./error-body-fetch.js";
import type { Failure } from "./provider-error.js";

export type OpenAIModule = typeof import("openai");

/** Sorts whatever the SDK or fetch threw into a `Failure`. */
export function toFailure(
  error: unknown,
  { sdk, errorBodies }: { sdk: OpenAIModule; errorBodies: ErrorBodyFetch },
): Failure {
  if (error instanceof sdk.APIConnectionTimeoutError)
    return { kind: "network", detail: "the connection timed out" };
  if (error instanceof sdk.APIConnectionError) {
    return {
      kind: "network",
      detail: networkDetail(error) ?? `connection failed (${innermostMessage(error)})`,
    };
  }
  if (error instanceof sdk.APIError) {
    if (typeof error.status === "number") {
      const body = errorBodies.bodyOf(error.headers) ?? error.message;
      return {
        kind: "http",
        status: error.status,
        body,
        ...(error.headers ? { headers: error.headers } : {}),
      };
    }
    // `{"error": {...}}` inside the stream: its `code` is often the upstream HTTP status.
    const code = Number((error.error as { code?: unknown } | undefined)?.code);
    const body = JSON.stringify({ error: error.error ?? error.message });
    return { kind: "in_stream", body, ...(code >= 400 && code < 600 ? { status: code } : {}) };
  }
  if (error instanceof SyntaxError)
    return { kind: "protocol", detail: `unparseable chunk (${error.message})` };
  const detail = networkDetail(error);
  if (detail)
    return { kind: "network", detail: `connection lost mid-response: ${detail}`, midResponse: true };
  return { kind: "protocol", detail: innermostMessage(error) };
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
  UND_ERR_SOCKET: "the server closed the connection",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "timed out waiting for headers",
  UND_ERR_BODY_TIMEOUT: "timed out waiting for data",
};

/** Walks the `cause` chain (SDK error → fetch TypeError → system error) for a known code. */
function networkDetail(error: unknown): string | undefined {
  for (const link of causeChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
  }
  return undefined;
}

/** The root cause's message, with any `user:password@` in URLs removed (fetch quotes the URL). */
function innermostMessage(error: unknown): string {
  const chain = causeChain(error).filter((link) => link instanceof Error && link.message);
  const message = (chain.at(-1) as Error | undefined)?.message ?? String(error);
  return message.replace(/\/\/[^/\s@]*@/g, "//");
}

function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  for (let current = error; current && typeof current === "object" && chain.length < 6; ) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}
