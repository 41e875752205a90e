import type { ProviderEvent } from "./types.js";

/**
 * The words the editor gets while a request is retried, so a rate-limited or flaky endpoint
 * shows why the answer is late instead of leaving the editor silent through the backoff.
 */
export function retryNotice(event: Extract<ProviderEvent, { type: "retry" }>): string {
  const reason = event.reason.charAt(0).toUpperCase() + event.reason.slice(1);
  const wait = event.delayMs < 1000 ? `${event.delayMs} ms` : `${Math.round(event.delayMs / 100) / 10} s`;
  return `${reason}; retrying in ${wait} (retry ${event.attempt}).`;
}
