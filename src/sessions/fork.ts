import type { HistoryEvent } from "../store/events.js";

/**
 * The history a fork starts from: everything committed so far, less the turn still running
 * (that turn goes on in the source; the fork's copy would only show it cut). A turn a crash cut
 * is copied as it is, and shows interrupted in the fork as in the source.
 */
export function forkedHistory(history: readonly HistoryEvent[], runningTurn?: string): HistoryEvent[] {
  if (runningTurn === undefined) return [...history];
  return history.filter((event) => !("turnId" in event) || event.turnId !== runningTurn);
}

/** The fork's title: the source's, marked, so the two stay apart in a session list. */
export function forkTitle(title: string | null): string | null {
  return title === null ? null : `${title} (fork)`;
}
