import { networkDetail } from "./http-client.js";
import type { Failure } from "./provider-error.js";

/**
 * The HTTP status an in-stream `error` event stands for (its `error.type`), so the retry policy
 * treats an `overloaded_error` mid-stream like the 529 it would have been before the stream.
 */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export interface SdkFailureOptions {
  /** The SDK module, for its error classes; undefined when it did not even load. */
  sdk: typeof import("@anthropic-ai/sdk") | undefined;
  /** Events had arrived: a broken connection broke an answer. */
  midResponse: boolean;
}

/** What the SDK threw for one request, sorted into our `Failure`. */
export function sdkFailure(error: unknown, { sdk, midResponse }: SdkFailureOptions): Failure {
  if (error instanceof SyntaxError)
    return { kind: "protocol", detail: `unparseable event (${error.message})` };
  if (sdk && error instanceof sdk.APIError && !(error instanceof sdk.APIConnectionError)) {
    if (typeof error.status === "number") {
      // A body that was not JSON (a proxy's HTML page) is only in the message, after the status.
      const body =
        error.error !== undefined ? JSON.stringify(error.error) : error.message.replace(/^\d{3} /, "");
      return {
        kind: "http",
        status: error.status,
        body,
        ...(error.headers ? { headers: error.headers } : {}),
      };
    }
    // An `event: error` inside a stream that had started well.
    const body =
      typeof error.error === "string"
        ? error.error
        : JSON.stringify(error.error ?? { message: error.message });
    const status = STATUS_OF_TYPE[error.type ?? ""];
    return { kind: "in_stream", body, ...(status ? { status } : {}) };
  }
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const detail = networkDetail(cause) ?? describe(cause);
  if (midResponse) return { kind: "network", detail: `connection lost mid-response: ${detail}`, midResponse };
  return { kind: "network", detail };
}

function describe(error: unknown): string {
  const message = (error as Error | null)?.message ?? String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? `${message} (${code})` : message;
}
