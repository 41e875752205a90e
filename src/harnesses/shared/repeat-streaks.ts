import type { HistoryEvent } from "../../store/events.js";

/** One call that repeats the call before it: how many identical calls in a row it makes. */
export interface RepeatStreak {
  streak: number;
  name: string;
  /** Its arguments as compact JSON with object keys sorted (both Kimi agents' dedupe key). */
  canonicalArgs: string;
}

/**
 * The streak of identical calls (same tool, same arguments with keys sorted) each call of the
 * history closes, counted in order within one turn: the count both Kimi agents' dedupe ladders
 * read (Kimi CLI `soul/toolset.py`, Kimi Code `toolDedupeService.ts`). Computed from the history
 * alone, so it needs no session state and survives a reload.
 */
export function repeatStreaks(history: readonly HistoryEvent[]): Map<string, RepeatStreak> {
  const streaks = new Map<string, RepeatStreak>();
  let turn = "";
  let lastKey = "";
  let streak = 0;
  for (const call of history) {
    if (call.type !== "tool_call") continue;
    const canonicalArgs = canonical(call.arguments);
    const key = `${call.name} ${canonicalArgs}`;
    if (call.turnId !== turn) {
      turn = call.turnId;
      lastKey = "";
      streak = 0;
    }
    streak = key === lastKey ? streak + 1 : 1;
    lastKey = key;
    streaks.set(call.callId, { streak, name: call.name, canonicalArgs });
  }
  return streaks;
}

function canonical(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw || "{}")));
  } catch {
    return raw;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}
