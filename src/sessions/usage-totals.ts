import type { HistoryEvent } from "../store/events.js";

/** Token totals of a session's model requests, from its `usage` events. */
export function usageTotals(history: HistoryEvent[]) {
  const totals = { requests: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
  for (const e of history) {
    if (e.type !== "usage") continue;
    totals.requests++;
    totals.inputTokens += e.inputTokens;
    totals.outputTokens += e.outputTokens;
    totals.cachedInputTokens += e.cachedInputTokens ?? 0;
    totals.reasoningTokens += e.reasoningTokens ?? 0;
  }
  return totals;
}
