import { z } from "zod";
import { HistoryEvent, type StoredEvent } from "./events.js";
import { knownEvent } from "./known-event.js";

/** An `events` row as SQLite returns it. `data` holds the whole event as JSON. */
export interface EventRow {
  seq: number;
  at: string;
  type: string;
  data: string;
}

/**
 * Validates one stored event. A row that cannot be read (a bug or a hand-edited database)
 * becomes an error notice at the same position, so one bad row never hides the rest of a
 * session's history and a replay shows where the gap is.
 */
export function toStoredEvent(row: EventRow): StoredEvent {
  const event = readEvent(row.data);
  return { seq: row.seq, at: row.at, event: typeof event === "string" ? unreadable(row, event) : event };
}

/** The event stored as `data`, or why it cannot be read. */
export function readEvent(data: string): HistoryEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return "its data is not valid JSON";
  }
  const known = knownEvent(value);
  if (known) return known;
  const parsed = HistoryEvent.safeParse(value);
  return parsed.success ? parsed.data : z.prettifyError(parsed.error).replace(/\n/g, " ");
}

/** The notice that stands in for the unreadable row `row`. */
export function unreadable(row: Pick<EventRow, "seq" | "type">, reason: string): HistoryEvent {
  return {
    type: "notice",
    severity: "error",
    text: `History event #${row.seq} (${row.type}) could not be read and was skipped: ${reason}`,
  };
}
