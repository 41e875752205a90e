import type Anthropic from "@anthropic-ai/sdk";
import { sdkFailure } from "./messages-failure.js";
import { createMessagesReader } from "./messages-stream.js";
import type { Failure } from "./provider-error.js";
import type { AttemptOutcome } from "./retry-loop.js";
import type { ProviderEvent } from "./types.js";

/** How long a stream may stay open after its stop reason before we take the answer as whole. */
const AFTER_FINISH_MS = 5_000;

export interface MessagesAttemptOptions {
  /** The provider's client (the SDK loads on first use). */
  client: Promise<{ client: Anthropic; sdk: typeof import("@anthropic-ai/sdk") }>;
  body: Record<string, unknown>;
  /** The caller's signal; aborting it ends the attempt with `cancelled`. */
  signal: AbortSignal;
  idleTimeoutMs: number;
}

/**
 * One request to `/v1/messages`: yields text and reasoning as they arrive, the thinking blocks
 * as one `continuation` once the answer is whole, and returns how it ended. Never throws. The
 * SDK neither retries nor times out here: both need to know what reached the editor.
 */
export async function* messagesAttempt(
  options: MessagesAttemptOptions,
): AsyncGenerator<ProviderEvent, AttemptOutcome> {
  const { signal, idleTimeoutMs } = options;
  const controller = new AbortController();
  const cancel = () => controller.abort();
  signal.addEventListener("abort", cancel, { once: true });
  const reader = createMessagesReader();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // The clock runs only while we wait on the server, not while the consumer handles our events.
  const arm = () => {
    clearTimeout(timer);
    const ending = reader.finished();
    timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      ending ? Math.min(idleTimeoutMs, AFTER_FINISH_MS) : idleTimeoutMs,
    );
  };
  const disarm = () => clearTimeout(timer);
  let emitted = false;
  let events = 0;
  let finished = false;
  let sdk: typeof import("@anthropic-ai/sdk") | undefined;

  const complete = (): AttemptOutcome => {
    const { calls, usage, finishReason } = reader.result();
    return {
      kind: "complete",
      calls,
      ...(usage ? { usage } : {}),
      ...(finishReason ? { finishReason } : {}),
    };
  };
  const interrupted = (): AttemptOutcome | undefined => {
    if (signal.aborted) return { kind: "cancelled" };
    // A proxy that never closes a finished stream: only `message_stop` is missing.
    if (timedOut && reader.finished()) return complete();
    if (timedOut) return { kind: "failed", failure: { kind: "timeout", idleMs: idleTimeoutMs }, emitted };
    return undefined;
  };

  try {
    arm();
    const loaded = await options.client;
    sdk = loaded.sdk;
    const stream = await loaded.client.messages.create(
      { ...options.body, stream: true } as unknown as Anthropic.MessageCreateParamsStreaming,
      { signal: controller.signal },
    );
    for await (const event of stream) {
      disarm();
      events++;
      for (const out of reader.read(event)) {
        emitted = true;
        yield out;
      }
      if (signal.aborted) break;
      arm();
    }
    // The SDK ends its iteration quietly on abort, so the reason is ours to tell.
    const stopped = interrupted();
    if (stopped) return stopped;
    const result = reader.result();
    if (!result.stopped) {
      const failure: Failure =
        events === 0
          ? { kind: "protocol", detail: "no Messages stream events" }
          : { kind: "network", detail: "the stream ended before message_stop", midResponse: true };
      return { kind: "failed", failure, emitted };
    }
    finished = true;
    if (result.continuation.length > 0) yield { type: "continuation", continuation: result.continuation };
    return complete();
  } catch (error) {
    return (
      interrupted() ?? {
        kind: "failed",
        failure: sdkFailure(error, { sdk, midResponse: events > 0 }),
        emitted,
      }
    );
  } finally {
    disarm();
    signal.removeEventListener("abort", cancel);
    // Drops the connection when the answer did not end well or the consumer stopped early.
    if (!finished) controller.abort();
  }
}
