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
  let value: unknown;
  try {
    value = JSON.parse(row.data);
  } catch {
    return unreadable(row, "its data is not valid JSON");
  }
  const known = knownEvent(value);
  if (known) return { seq: row.seq, at: row.at, event: known };
  const parsed = HistoryEvent.safeParse(value);
  if (!parsed.success) return unreadable(row, z.prettifyError(parsed.error).replace(/\n/g, " "));
  return { seq: row.seq, at: row.at, event: parsed.data };
}

function unreadable(row: EventRow, reason: string): StoredEvent {
  return {
    seq: row.seq,
    at: row.at,
    event: {
      type: "notice",
      severity: "error",
      text: `History event #${row.seq} (${row.type}) could not be read and was skipped: ${reason}`,
    },
  };
}
