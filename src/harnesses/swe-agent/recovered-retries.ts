import type { HistoryEvent } from "../../store/events.js";

/**
 * SWE-agent asks again after a reply it cannot use with a temporary history (the reply plus
 * the correction); once a later reply is accepted, neither is part of the history the model
 * sees again. Drops each corrected reply and its correction once any reply came after it.
 */
export function dropRecoveredRetries(history: readonly HistoryEvent[]): HistoryEvent[] {
  const lastReply = history.findLastIndex((e) => e.type === "assistant_message" && e.text !== "");
  const dropped = new Set<string>();
  history.forEach((event, index) => {
    if (event.type === "format_error" && index < lastReply) dropped.add(`${event.turnId}:${event.step}`);
  });
  if (dropped.size === 0) return [...history];
  return history.filter(
    (e) =>
      !(
        (e.type === "format_error" || e.type === "assistant_message") &&
        dropped.has(`${e.turnId}:${e.step}`)
      ),
  );
}
