/** Statuses worth another attempt: rate limits and transient server faults (529 = overloaded). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

/**
 * A server asking us to wait longer than this is out of quota rather than briefly busy: we report
 * the error at once instead of leaving the editor silent for minutes.
 */
export const RETRY_AFTER_CAP_MS = 60_000;

export interface BackoffOptions {
  /** 1 for the first retry. */
  attempt: number;
  random: () => number;
  baseMs?: number;
  capMs?: number;
}

/** Exponential backoff with "equal jitter": between half and all of `base * 2^(attempt-1)`, capped. */
export function backoffDelayMs({ attempt, random, baseMs = 500, capMs = 30_000 }: BackoffOptions): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The wait a response asks for: OpenAI's `retry-after-ms`, else `Retry-After` as seconds or an
 * HTTP date. Undefined when absent or unparseable.
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const millis = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(millis) && millis >= 0) return Math.round(millis);
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, resolving early (never rejecting) when `signal` aborts; callers re-check the signal. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
