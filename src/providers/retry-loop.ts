import { describeFailure, type Failure } from "./provider-error.js";
import { sleepUnlessAborted } from "./retry.js";
import { retryDelayMs, retryReason } from "./retry-policy.js";
import type { AssembledToolCall, ModelEndpoint, ProviderEvent, Usage } from "./types.js";

/** How one request to the endpoint ended. */
export type AttemptOutcome =
  | { kind: "complete"; calls: AssembledToolCall[]; usage?: Usage; finishReason?: string }
  /** `emitted`: text or reasoning already went out, so the request must not be repeated. */
  | { kind: "failed"; failure: Failure; emitted: boolean }
  | { kind: "cancelled" };

/**
 * One request on the wire: yields `text` / `reasoning` (and `continuation`) as they arrive and
 * returns how it ended. Never throws; tool calls are only returned, so a retried request can
 * never have shown half of them.
 */
export type Attempt = (signal: AbortSignal) => AsyncGenerator<ProviderEvent, AttemptOutcome>;

export interface RetryLoopOptions {
  endpoint: ModelEndpoint;
  signal: AbortSignal;
  /** A fresh attempt each time (the body may change between attempts). */
  attempt: () => Attempt;
  /** Called with a failure before it is retried or reported; true means "try again at once, unchanged count". */
  adjust?: (failure: Failure) => boolean;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  maxRetries: number;
}

/**
 * Retries are ours, not an SDK's: only we know whether output already reached the editor (then
 * a repeat would show it twice). Ends with exactly one `done` or `error` event, never throws.
 */
export async function* withRetries(options: RetryLoopOptions): AsyncGenerator<ProviderEvent> {
  const { endpoint, signal, maxRetries } = options;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? sleepUnlessAborted;
  try {
    for (let retries = 0; ; ) {
      if (signal.aborted) return yield { type: "done", finishReason: "cancelled" };
      const outcome = yield* options.attempt()(signal);
      if (outcome.kind === "cancelled") return yield { type: "done", finishReason: "cancelled" };
      if (outcome.kind === "complete") {
        if (outcome.calls.length > 0) yield { type: "tool_calls", calls: outcome.calls };
        if (outcome.usage) yield { type: "usage", usage: outcome.usage };
        return yield {
          type: "done",
          finishReason: finishReasonOf(outcome.finishReason, outcome.calls.length),
        };
      }
      const { failure, emitted } = outcome;
      if (!emitted && options.adjust?.(failure)) continue;
      const delayMs =
        emitted || retries >= maxRetries ? undefined : retryDelayMs(failure, retries + 1, random);
      if (delayMs === undefined)
        return yield { type: "error", error: describeFailure({ failure, endpoint, retries }) };
      retries++;
      yield { type: "retry", attempt: retries, delayMs, reason: retryReason(failure) };
      await sleep(delayMs, signal);
    }
  } catch (error) {
    // Only a bug gets here (or a base URL that is not a URL); the contract forbids throwing.
    if (signal.aborted) return yield { type: "done", finishReason: "cancelled" };
    const failure: Failure = {
      kind: "protocol",
      detail: `internal error: ${(error as Error)?.message ?? error}`,
    };
    yield { type: "error", error: describeFailure({ failure, endpoint }) };
  }
}

function finishReasonOf(reason: string | undefined, calls: number) {
  // Cut by max_tokens in the middle of a call: the session compacts and asks again.
  if (reason === "length") return reason;
  if (calls > 0) return "tool_calls" as const;
  if (reason === "content_filter") return reason;
  return "stop" as const;
}
