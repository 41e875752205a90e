import type { OpenAIClient } from "./openai-client.js";
import type { Failure } from "./provider-error.js";
import type { AttemptOutcome } from "./retry-loop.js";
import { sdkFailure } from "./sdk-failure.js";
import type { ProviderEvent } from "./types.js";

/** How long a stream may stay open after its answer ended before we take the answer as whole. */
const AFTER_FINISH_MS = 5_000;

/** A wire's reading of its stream events (Chat chunks, Responses events). */
export interface StreamReader<T> {
  /** What one event shows now (text, reasoning, continuation); a failure ends the attempt. */
  read(event: T): { show: ProviderEvent[]; failure?: Failure };
  /** The answer is whole except for the end of the stream (a finish reason arrived). */
  ending(): boolean;
  /** The outcome of a stream that ended, or stalled after `ending()`; `contentType` of the response. */
  complete(contentType: string): AttemptOutcome;
}

export interface SdkAttemptOptions<T> {
  client: OpenAIClient;
  /** Starts the request; resolves once the response headers arrived. */
  open(signal: AbortSignal): Promise<{ data: AsyncIterable<T>; response: Response }>;
  reader: StreamReader<T>;
  /** The caller's signal; aborting it ends the attempt with `cancelled`. */
  signal: AbortSignal;
  idleTimeoutMs: number;
}

/**
 * One streamed request through the SDK: yields what the reader shows as it arrives and returns
 * how it ended. Never throws. The idle clock only runs while we wait on the server, not while
 * the consumer handles our events; after the finish only the end is due, so it waits less.
 */
export async function* sdkAttempt<T>(
  options: SdkAttemptOptions<T>,
): AsyncGenerator<ProviderEvent, AttemptOutcome> {
  const { signal, idleTimeoutMs, reader } = options;
  // Aborted while the SDK was loading.
  if (signal.aborted) return { kind: "cancelled" };
  const controller = new AbortController();
  const cancel = () => controller.abort();
  signal.addEventListener("abort", cancel, { once: true });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    const wait = reader.ending() ? Math.min(idleTimeoutMs, AFTER_FINISH_MS) : idleTimeoutMs;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, wait);
  };
  const disarm = () => clearTimeout(timer);
  let emitted = false;
  let responded = false;
  let finished = false;
  let contentType = "none";
  const interrupted = (): AttemptOutcome | undefined => {
    if (signal.aborted) return { kind: "cancelled" };
    // Some proxies never close a finished stream: the answer is whole, only its end is missing.
    if (timedOut && reader.ending()) return reader.complete(contentType);
    if (timedOut) return { kind: "failed", failure: { kind: "timeout", idleMs: idleTimeoutMs }, emitted };
    return undefined;
  };

  try {
    arm();
    const { data, response } = await options.open(controller.signal);
    responded = true;
    contentType = response.headers.get("content-type") ?? "none";
    for await (const event of data) {
      disarm();
      const { show, failure } = reader.read(event);
      if (failure) return { kind: "failed", failure, emitted };
      for (const out of show) {
        if (out.type === "text" || out.type === "reasoning") emitted = true;
        yield out;
      }
      if (signal.aborted) break;
      arm();
    }
    // The SDK ends its iteration quietly when aborted: the abort tells why.
    const stopped = interrupted();
    if (stopped) return stopped;
    finished = true;
    return reader.complete(contentType);
  } catch (error) {
    return (
      interrupted() ?? { kind: "failed", failure: sdkFailure(error, options.client, responded), emitted }
    );
  } finally {
    disarm();
    signal.removeEventListener("abort", cancel);
    // Drops the connection when the answer did not end well or the consumer stopped early.
    if (!finished) controller.abort();
  }
}
