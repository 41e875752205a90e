/**
 * A session's work, one item at a time in arrival order. `cancel()` skips everything queued so
 * far; an item's own signal (one `$/cancel_request`) skips that item and, while it still waits,
 * answers at once: it has sent nothing to the editor yet.
 */
export class TurnQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private epoch = 0;

  run<T>(work: () => Promise<T>, cancelled: T, signal?: AbortSignal): Promise<T> {
    const epoch = this.epoch;
    let started = false;
    const run = this.tail.then(() => {
      if (epoch !== this.epoch || signal?.aborted) return cancelled;
      started = true;
      return work();
    });
    this.tail = run.catch(() => undefined);
    if (!signal) return run;
    return new Promise<T>((resolve, reject) => {
      const withdraw = () => {
        if (!started) resolve(cancelled);
      };
      if (signal.aborted) withdraw();
      signal.addEventListener("abort", withdraw, { once: true });
      run.then(resolve, reject).finally(() => signal.removeEventListener("abort", withdraw));
    });
  }

  /** Everything queued until now answers its `cancelled` value instead of running. */
  cancel(): void {
    this.epoch++;
  }
}

/**
 * Waits for `promise` unless `signal` aborts first (a slow MCP server start must not hold up a
 * cancel); true when the signal won. Never rejects.
 */
export function abortedBefore(promise: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(true);
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve(signal.aborted);
    };
    signal.addEventListener("abort", done, { once: true });
    promise.then(done, done);
  });
}
