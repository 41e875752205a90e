import type { Agent } from "node:http";
import { createToolCallAssembler } from "./assemble-tool-calls.js";
import {
  endpointHeaders,
  endpointUrl,
  MAX_ERROR_BODY_BYTES,
  networkDetail,
  readText,
  send,
  toHeaders,
} from "./http-client.js";
import type { Failure } from "./provider-error.js";
import { readChunk } from "./read-chunk.js";
import type { AttemptOutcome } from "./retry-loop.js";
import { serverEvents } from "./sse.js";
import type { ModelEndpoint, ProviderEvent, Usage } from "./types.js";

/** How long a stream may stay open after its `finish_reason` before we take the answer as whole. */
const AFTER_FINISH_MS = 5_000;

export interface AttemptOptions {
  endpoint: ModelEndpoint;
  /** The provider's keep-alive pool. */
  agent: Agent;
  body: Record<string, unknown>;
  /** The caller's signal; aborting it ends the attempt with `cancelled`. */
  signal: AbortSignal;
  idleTimeoutMs: number;
  newId: () => string;
}

/**
 * One HTTP request: yields `text` / `reasoning` as they arrive and returns how it ended. Never
 * throws. Tool calls are only returned, never yielded, so the caller emits them once the whole
 * response is known to be complete.
 */
export async function* streamAttempt(options: AttemptOptions): AsyncGenerator<ProviderEvent, AttemptOutcome> {
  const { endpoint, signal, idleTimeoutMs } = options;
  const controller = new AbortController();
  const cancel = () => controller.abort();
  signal.addEventListener("abort", cancel, { once: true });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // The clock only runs while we wait on the server, not while the consumer handles our events.
  // After `finish_reason` only usage and `[DONE]` are due, so a stream left open ends sooner.
  const arm = () => {
    clearTimeout(timer);
    const ending = finishReason !== undefined || sawDone;
    const wait = ending ? Math.min(idleTimeoutMs, AFTER_FINISH_MS) : idleTimeoutMs;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, wait);
  };
  const disarm = () => clearTimeout(timer);

  const assembler = createToolCallAssembler({ newId: options.newId });
  let emitted = false;
  let chunks = 0;
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  let responded = false;
  /** `[DONE]` arrived: what follows is ignored, read only so the connection can be reused. */
  let sawDone = false;
  let finished = false;
  const complete = (): AttemptOutcome => ({
    kind: "complete",
    calls: assembler.calls(),
    ...(usage ? { usage } : {}),
    ...(finishReason ? { finishReason } : {}),
  });
  const interrupted = (): AttemptOutcome | undefined => {
    if (signal.aborted) return { kind: "cancelled" };
    // Some proxies never close a finished stream: the answer is whole, only `[DONE]` is missing.
    if (timedOut && (finishReason !== undefined || sawDone)) return complete();
    if (timedOut) return { kind: "failed", failure: { kind: "timeout", idleMs: idleTimeoutMs }, emitted };
    return undefined;
  };

  try {
    arm();
    const response = await send(endpointUrl(endpoint, "chat/completions"), {
      method: "POST",
      headers: endpointHeaders(endpoint, { "content-type": "application/json", accept: "text/event-stream" }),
      body: JSON.stringify(options.body),
      signal: controller.signal,
      agent: options.agent,
    });
    responded = true;
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const body = await readText(response, MAX_ERROR_BODY_BYTES);
      return (
        interrupted() ?? { kind: "failed", failure: httpFailure(status, body, response.headers), emitted }
      );
    }
    for await (const event of serverEvents(response)) {
      disarm();
      if (sawDone || event.data.startsWith("[DONE]")) {
        sawDone = true;
        arm();
        continue;
      }
      // Read loosely on purpose: servers add fields and send odd types (see readChunk).
      const chunk: unknown = JSON.parse(event.data);
      const error = (chunk as { error?: unknown } | null)?.error;
      if (event.event === "error" || error !== undefined) {
        return { kind: "failed", failure: inStreamFailure(error ?? chunk), emitted };
      }
      chunks++;
      const parts = readChunk(chunk);
      for (const delta of parts.toolCalls) assembler.add(delta);
      if (parts.usage) usage = parts.usage;
      if (parts.finishReason) finishReason = parts.finishReason;
      if (parts.reasoning) {
        emitted = true;
        yield { type: "reasoning", text: parts.reasoning };
      }
      if (parts.text) {
        emitted = true;
        yield { type: "text", text: parts.text };
      }
      if (signal.aborted) break;
      arm();
    }
    const stopped = interrupted();
    if (stopped) return stopped;
    if (chunks === 0) {
      const type = response.headers["content-type"] ?? "none";
      return {
        kind: "failed",
        failure: { kind: "protocol", detail: `no stream chunks (content-type ${type})` },
        emitted,
      };
    }
    finished = true;
    return complete();
  } catch (error) {
    return interrupted() ?? { kind: "failed", failure: thrownFailure(error, responded), emitted };
  } finally {
    disarm();
    signal.removeEventListener("abort", cancel);
    // Drops the connection when the answer did not end well or the consumer stopped early.
    if (!finished) controller.abort();
  }
}

function httpFailure(status: number, body: string, headers: Parameters<typeof toHeaders>[0]): Failure {
  return { kind: "http", status, body, headers: toHeaders(headers) };
}

/** `{"error": {...}}` inside the stream: its `code` is often the upstream HTTP status. */
function inStreamFailure(error: unknown): Failure {
  const code = Number((error as { code?: unknown } | null)?.code);
  const body = JSON.stringify({ error });
  return { kind: "in_stream", body, ...(code >= 400 && code < 600 ? { status: code } : {}) };
}

/** What a failed request or a broken stream threw, sorted into a `Failure`. */
function thrownFailure(error: unknown, midResponse: boolean): Failure {
  if (error instanceof SyntaxError)
    return { kind: "protocol", detail: `unparseable chunk (${error.message})` };
  const detail = networkDetail(error);
  if (detail && midResponse)
    return { kind: "network", detail: `connection lost mid-response: ${detail}`, midResponse };
  if (detail) return { kind: "network", detail };
  return { kind: "network", detail: `connection failed (${(error as Error)?.message ?? String(error)})` };
}
