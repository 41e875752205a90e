import { type Failure, failureCode } from "./provider-error.js";
import { backoffDelayMs, RETRY_AFTER_CAP_MS, RETRYABLE_STATUSES, retryAfterMs } from "./retry.js";

/** How long to wait before retrying `failure`; undefined when it must not be retried. */
export function retryDelayMs(failure: Failure, attempt: number, random: () => number): number | undefined {
  if (failure.kind === "network" || failure.kind === "timeout") return backoffDelayMs({ attempt, random });
  if (failure.kind !== "http" && failure.kind !== "in_stream") return undefined;
  const code = failureCode(failure);
  if (failure.status === undefined || !RETRYABLE_STATUSES.has(failure.status)) return undefined;
  if (code !== "rate_limited" && code !== "server") return undefined;
  const asked = failure.kind === "http" ? retryAfterMs(failure.headers) : undefined;
  if (asked === undefined) return backoffDelayMs({ attempt, random });
  return asked > RETRY_AFTER_CAP_MS ? undefined : asked;
}

/** Short words for the `retry` event. */
export function retryReason(failure: Failure): string {
  switch (failure.kind) {
    case "http":
      return failure.status === 429 ? "rate limited (HTTP 429)" : `server error (HTTP ${failure.status})`;
    case "in_stream":
      return `server error in stream (${failure.status})`;
    case "timeout":
      return "no data from the server (idle timeout)";
    case "network":
      return failure.midResponse ? failure.detail : `cannot reach the server: ${failure.detail}`;
    default:
      return failure.detail;
  }
}
