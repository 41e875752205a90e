import type { OpenAI } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { createToolCallAssembler } from "./assemble-tool-calls.js";
import type { ErrorBodyFetch } from "./error-body-fetch.js";
import type { Failure } from "./provider-error.js";
import { readChunk } from "./read-chunk.js";
import { type OpenAIModule, toFailure } from "./to-failure.js";
import type { AssembledToolCall, ProviderEvent, Usage } from "./types.js";

/** How long a stream may stay open after its `finish_reason` before we take the answer as whole. */
const AFTER_FINISH_MS = 5_000;

export type AttemptOutcome =
  | { kind: "complete"; calls: AssembledToolCall[]; usage?: Usage; finishReason?: string }
  /** `emitted`: text or reasoning already went out, so the request must not be repeated. */
  | { kind: "failed"; failure: Failure; emitted: boolean }
  | { kind: "cancelled" };

export interface AttemptOptions {
  sdk: OpenAIModule;
  client: OpenAI;
  errorBodies: ErrorBodyFetch;
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
  const { client, signal, idleTimeoutMs } = options;
  const controller = new AbortController();
  const cancel = () => controller.abort();
  signal.addEventListener("abort", cancel, { once: true });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // The clock only runs while we wait on the server, not while the consumer handles our events.
  // After `finish_reason` only usage and `[DONE]` are due, so a stream left open ends sooner.
  const arm = () => {
    clearTimeout(timer);
    const wait = finishReason === undefined ? idleTimeoutMs : Math.min(idleTimeoutMs, AFTER_FINISH_MS);
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
  const complete = (): AttemptOutcome => ({
    kind: "complete",
    calls: assembler.calls(),
    ...(usage ? { usage } : {}),
    ...(finishReason ? { finishReason } : {}),
  });
  const interrupted = (): AttemptOutcome | undefined => {
    if (signal.aborted) return { kind: "cancelled" };
    // Some proxies never close a finished stream: the answer is whole, only `[DONE]` is missing.
    if (timedOut && finishReason !== undefined) return complete();
    if (timedOut) return { kind: "failed", failure: { kind: "timeout", idleMs: idleTimeoutMs }, emitted };
    return undefined;
  };

  try {
    arm();
    const { data, response } = await client.chat.completions
      .create(options.body as unknown as ChatCompletionCreateParamsStreaming, {
        signal: controller.signal,
        maxRetries: 0,
        // Backstop only: the idle timer above is what fires first.
        timeout: Math.min(idleTimeoutMs * 2, 2 ** 31 - 1),
      })
      .withResponse();
    // Typed loosely on purpose: servers add fields and break the SDK's types (see readChunk).
    for await (const chunk of data as AsyncIterable<unknown>) {
      disarm();
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
    // The SDK ends iteration quietly when its request is aborted, so check why we stopped.
    const stopped = interrupted();
    if (stopped) return stopped;
    if (chunks === 0) {
      const type = response.headers.get("content-type") ?? "none";
      return {
        kind: "failed",
        failure: { kind: "protocol", detail: `no stream chunks (content-type ${type})` },
        emitted,
      };
    }
    return complete();
  } catch (error) {
    return interrupted() ?? { kind: "failed", failure: toFailure(error, options), emitted };
  } finally {
    disarm();
    signal.removeEventListener("abort", cancel);
    // Releases the connection when the consumer stopped iterating early; a no-op after completion.
    controller.abort();
  }
}
