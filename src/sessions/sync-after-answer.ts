import type { Store } from "../store/types.js";

/**
 * Makes a finished turn power-loss durable once its answer is out (a timer, so the
 * `session/prompt` response is written first and no prompt waits on an fsync). Its events are
 * already committed and survive a crash. Never throws: it runs outside any request, where an
 * exception would end the daemon. A failed sync is recorded as a warning; when even that
 * cannot be written, the session's next write fails the next prompt with the store's error.
 */
export function syncAfterAnswer(store: Store, warn: (text: string) => void): void {
  setTimeout(() => {
    try {
      store.sync();
    } catch (error) {
      try {
        warn(
          `This turn could not be flushed to disk: ${error instanceof Error ? error.message : String(error)}`,
        );
      } catch {
        // Reported by the next write, as said above.
      }
    }
  }, 0);
}
