import { sleepUnlessAborted } from "./retry.js";
import type { ModelEndpoint } from "./types.js";

export interface ProviderDeps {
  /** Backoff wait; must resolve (not reject) promptly when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Backoff jitter source (default `Math.random`). */
  random?: () => number;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
const LIST_MODELS_TIMEOUT_MS = 5_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What every wire's provider takes from the endpoint and its deps for the retry loop. */
export function providerSettings(endpoint: ModelEndpoint, deps: ProviderDeps) {
  // 0, negative or infinite means "never"; Node fires longer timers immediately, so clamp.
  const idle = endpoint.streamIdleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return {
    maxRetries: endpoint.maxRetries ?? DEFAULT_MAX_RETRIES,
    sleep: deps.sleep ?? sleepUnlessAborted,
    random: deps.random ?? Math.random,
    idleTimeoutMs: idle > 0 && idle < MAX_TIMER_MS ? idle : MAX_TIMER_MS,
    listModelsTimeoutMs: LIST_MODELS_TIMEOUT_MS,
  };
}
