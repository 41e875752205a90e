import type OpenAI from "openai";
import { networkDetail } from "./http-client.js";
import type { OpenAIClient } from "./openai-client.js";
import type { Failure } from "./provider-error.js";

/**
 * What the SDK threw, sorted into our `Failure` so messages read as they do for every wire: an
 * HTTP status with the server's own body, an `{"error": ...}` inside the stream, a network
 * fault named by its system code, an unparseable chunk.
 */
export function sdkFailure(error: unknown, client: OpenAIClient, midResponse: boolean): Failure {
  const { APIError, APIConnectionError } = client.sdk.constructor as typeof OpenAI;
  if (error instanceof APIConnectionError) return networkFailure(error.cause ?? error, midResponse);
  if (error instanceof APIError) {
    if (typeof error.status === "number") {
      const body = client.errorBody(error.headers) ?? JSON.stringify({ error: error.error ?? error.message });
      return {
        kind: "http",
        status: error.status,
        body,
        ...(error.headers ? { headers: error.headers } : {}),
      };
    }
    // The SDK throws an `{"error": ...}` chunk as an APIError without a status; its `code` is often the upstream HTTP status.
    const code = Number((error.error as { code?: unknown } | undefined)?.code);
    return {
      kind: "in_stream",
      body: JSON.stringify({ error: error.error ?? error.message }),
      ...(code >= 400 && code < 600 ? { status: code } : {}),
    };
  }
  if (error instanceof SyntaxError)
    return { kind: "protocol", detail: `unparseable chunk (${error.message})` };
  return networkFailure(error, midResponse);
}

function networkFailure(error: unknown, midResponse: boolean): Failure {
  const detail = networkDetail(error);
  if (detail && midResponse)
    return { kind: "network", detail: `connection lost mid-response: ${detail}`, midResponse };
  if (detail) return { kind: "network", detail };
  const message = (error as Error)?.message ?? String(error);
  if (midResponse)
    return { kind: "network", detail: `connection lost mid-response (${message})`, midResponse };
  return { kind: "network", detail: `connection failed (${message})` };
}
