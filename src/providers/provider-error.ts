import type { Wire } from "./model-request.js";
import { retryAfterMs } from "./retry.js";
import { serverMessage } from "./server-message.js";
import type { ModelEndpoint, ProviderError, ProviderErrorCode } from "./types.js";

/** What went wrong with one request, before it is worded for the user. */
export type Failure =
  /** The endpoint answered with an HTTP error status; `body` is the (bounded) raw body. */
  | { kind: "http"; status: number; body: string; headers?: Headers }
  /** An `{"error": ...}` object inside an otherwise successful stream (OpenRouter and gateways). */
  | { kind: "in_stream"; status?: number; body: string }
  /** `midResponse`: the connection worked but broke while the answer streamed. */
  | { kind: "network"; detail: string; midResponse?: boolean }
  | { kind: "timeout"; idleMs: number }
  | { kind: "protocol"; detail: string };

const TOOLS_UNSUPPORTED =
  /does not support (tools|tool|function)|tools? param(eter)?s? (requires|is not supported|are not supported)|unsupported param(eter)?:? ['"`]?tools|(tools?|function) (calling|use|calls?) (is |are )?not supported|(tools|functions) (is|are) not supported|enable-auto-tool-choice/i;
const CONTEXT_LENGTH =
  /context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long|reduce the length|input (is )?too long|input tokens exceed|context.{0,20}overflow/i;
const SECRET_NAME = /key|token|auth|secret|cookie|sig|pass/i;
const STREAM_OPTIONS = /stream_options|include_usage/i;

const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  "rate_limited",
  "server",
  "network",
  "timeout",
]);

/** Thrown by `listModels`; streams never throw and carry the same data in an `error` event. */
export class ProviderRequestError extends Error {
  readonly code: ProviderErrorCode;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(error: ProviderError) {
    super(error.message);
    this.name = "ProviderRequestError";
    this.code = error.code;
    this.status = error.status;
    this.retryable = error.retryable;
  }
}

/** True when a 400/422 complains about `stream_options` (servers that reject usage reporting). */
export function rejectsStreamOptions(failure: Failure): boolean {
  return (
    failure.kind === "http" &&
    (failure.status === 400 || failure.status === 422) &&
    STREAM_OPTIONS.test(failure.body)
  );
}

export interface DescribeOptions {
  failure: Failure;
  endpoint: ModelEndpoint;
  /** Retries already spent, mentioned so the user knows we did not give up at once. */
  retries?: number;
}

/** Words a failure for the editor: names endpoint, model and status; never contains a secret. */
export function describeFailure({ failure, endpoint, retries = 0 }: DescribeOptions): ProviderError {
  const model = endpoint.model ? ` (model '${endpoint.model}')` : "";
  const where = `${endpoint.providerId} at ${displayUrl(endpoint.baseUrl)}${model}`;
  const after = retries > 0 ? ` (gave up after ${retries} ${retries === 1 ? "retry" : "retries"})` : "";
  const { code, status, text } = explain(failure, endpoint.model, endpoint.wire ?? "chat");
  const message =
    failure.kind === "network" && !failure.midResponse
      ? `Cannot reach ${where}: ${text}${after}. Is the server running and the base URL right?`
      : `${where}${status === undefined ? "" : ` returned HTTP ${status}`}: ${text}${after}`;
  return {
    code,
    message: redact(message, endpoint),
    ...(status === undefined ? {} : { status }),
    retryable: RETRYABLE_CODES.has(code),
  };
}

const WIRE_NAMES: Record<Wire, string> = {
  chat: "chat-completions",
  responses: "Responses",
  messages: "Messages",
};

function explain(
  failure: Failure,
  model: string,
  wire: Wire = "chat",
): { code: ProviderErrorCode; status?: number; text: string } {
  switch (failure.kind) {
    case "network":
      return { code: "network", text: failure.detail };
    case "timeout":
      return { code: "timeout", text: `no data for ${formatMs(failure.idleMs)} (stream idle timeout)` };
    case "protocol":
      return {
        code: "protocol",
        text: `the response is not a ${WIRE_NAMES[wire]} stream: ${failure.detail}`,
      };
    case "in_stream": {
      const said = serverMessage(failure.body);
      const unnumbered = CONTEXT_LENGTH.test(said) ? "context_length" : "server";
      const code = failure.status === undefined ? unnumbered : codeFor(failure.status, said);
      return { code, text: `error in the middle of the stream: ${said || "no details"}` };
    }
    case "http": {
      const said = serverMessage(failure.body);
      const code = codeFor(failure.status, said);
      const wait = code === "rate_limited" ? retryAfterMs(failure.headers) : undefined;
      const asks = wait === undefined ? "" : `; it asks to wait ${formatMs(wait)}`;
      const suffix = said ? `. Server said: ${said}` : "";
      return { code, status: failure.status, text: `${headline(code, model)}${asks}${suffix}` };
    }
  }
}

/** The error code a failure maps to; retry decisions use it too, so a 500 that is really "tools unsupported" (llama.cpp) is not retried. */
export function failureCode(failure: Failure): ProviderErrorCode {
  return explain(failure, "").code;
}

function codeFor(status: number, said: string): ProviderErrorCode {
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  // A body too large for the server: only a shorter conversation fixes it, as compaction does.
  if (status === 413) return "context_length";
  // Some servers answer these deterministic complaints with a 500; retrying them is pointless.
  if (TOOLS_UNSUPPORTED.test(said)) return "tools_unsupported";
  if (CONTEXT_LENGTH.test(said)) return "context_length";
  return status >= 500 ? "server" : "bad_request";
}

function headline(code: ProviderErrorCode, model: string): string {
  switch (code) {
    case "auth":
      return "the API key was rejected; check the key configured for this provider";
    case "not_found":
      return `model '${model}' not found or wrong base URL`;
    case "rate_limited":
      return "rate limited by the server";
    case "server":
      return "the server failed";
    case "tools_unsupported":
      return "this model or server does not accept tool definitions (native tool calling is unsupported)";
    case "context_length":
      return "the conversation is longer than the model's context window";
    default:
      return "the request was rejected";
  }
}

/** The base URL without credentials, query or trailing slash. */
export function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return baseUrl.replace(/\/\/[^/@]*@/, "//");
  }
}

/** Servers sometimes echo credentials in error text; nothing secret may reach the editor. */
function redact(text: string, endpoint: ModelEndpoint): string {
  const secrets = [endpoint.apiKey];
  for (const [name, value] of [
    ...Object.entries(endpoint.headers ?? {}),
    ...Object.entries(endpoint.queryParams ?? {}),
  ]) {
    if (SECRET_NAME.test(name)) secrets.push(value, value.replace(/^(Bearer|Basic)\s+/i, ""));
  }
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) out = out.split(secret).join("[redacted]");
  }
  return out;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
