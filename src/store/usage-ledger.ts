import type { Database } from "better-sqlite3";

export type UsageGrouping = "model" | "harness" | "session";

export interface UsageQuery {
  /** ISO timestamp: only requests committed at or after it. */
  since?: string;
  by: UsageGrouping;
}

/** The model requests of one model, harness or session, summed from `usage` events. */
export interface UsageGroup {
  /** Model id, harness id or session id; `(unrecorded)` for rows older than the ledger. */
  key: string;
  /** The session's title, when grouping by session. */
  title?: string;
  requests: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Requests whose tokens were estimated (the endpoint sent no usage). */
  estimated: number;
  latencyMs: number;
  /** Requests that have a cost (their model had prices at the time). */
  priced: number;
  cost: number;
  currency?: string;
  first: string;
  last: string;
}

interface Row extends Omit<UsageGroup, "title" | "currency"> {
  title: string | null;
  currency: string | null;
}

const KEYS: Record<UsageGrouping, string> = {
  model: "COALESCE(json_extract(e.data, '$.model'), '(unrecorded)')",
  harness: "COALESCE(json_extract(e.data, '$.harness'), '(unrecorded)')",
  session: "e.session_id",
};

/**
 * Reads the ledger: `usage` events across all sessions, summed per model, harness or session,
 * most expensive (then most input) first. Costs are the ones stored with each request, at the
 * prices configured when it ran. `type = 'usage'` is a literal so SQLite uses the partial index
 * `events_usage_by_time`.
 */
export function usageLedger(db: Database): (query: UsageQuery) => UsageGroup[] {
  const statements = new Map(
    (Object.keys(KEYS) as UsageGrouping[]).map((by) => [
      by,
      db.prepare<{ since: string }, Row>(`
        SELECT ${KEYS[by]} AS key,
          ${by === "session" ? "MAX(s.title)" : "NULL"} AS title,
          COUNT(*) AS requests,
          TOTAL(json_extract(e.data, '$.inputTokens')) AS inputTokens,
          TOTAL(json_extract(e.data, '$.cachedInputTokens')) AS cachedInputTokens,
          TOTAL(json_extract(e.data, '$.outputTokens')) AS outputTokens,
          TOTAL(json_extract(e.data, '$.reasoningTokens')) AS reasoningTokens,
          COUNT(CASE WHEN json_extract(e.data, '$.estimated') THEN 1 END) AS estimated,
          TOTAL(json_extract(e.data, '$.latencyMs')) AS latencyMs,
          COUNT(json_extract(e.data, '$.cost')) AS priced,
          TOTAL(json_extract(e.data, '$.cost')) AS cost,
          MAX(json_extract(e.data, '$.currency')) AS currency,
          MIN(e.at) AS first,
          MAX(e.at) AS last
        FROM events e LEFT JOIN sessions s ON s.id = e.session_id
        WHERE e.type = 'usage' AND e.at >= @since
        GROUP BY key
        ORDER BY cost DESC, inputTokens DESC, key`),
    ]),
  );
  return (query) =>
    statements
      .get(query.by)!
      .all({ since: query.since ?? "" })
      .map(({ title, currency, ...row }) => ({
        ...row,
        ...(title === null ? {} : { title }),
        ...(currency === null ? {} : { currency }),
      }));
}
