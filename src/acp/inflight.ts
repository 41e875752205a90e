/**
 * Work still running for requests (prompt turns), so that shutdown can cancel sessions and then
 * let each cancelled turn record its end before the database closes.
 */
export interface Inflight {
  /** Returns `work` unchanged after noting it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves once everything tracked has settled, or after `timeoutMs`, whichever comes first. */
  settled(timeoutMs: number): Promise<void>;
}

export function createInflight(): Inflight {
  const pending = new Set<Promise<void>>();
  return {
    track(work) {
      const done = work.then(
        () => undefined,
        () => undefined,
      );
      pending.add(done);
      void done.then(() => pending.delete(done));
      return work;
    },
    async settled(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.all(pending), timeout]);
      clearTimeout(timer);
    },
  };
}
