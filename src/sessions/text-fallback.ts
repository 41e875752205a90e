import { findHarness } from "../harnesses/harness-list.js";
import type { Harness, HarnessEntry } from "../harnesses/types.js";
import type { HistoryEvent } from "../store/events.js";
import { TurnError } from "./types.js";

/** The harness a session falls back to when the endpoint has no native tool calling. */
const TEXT_PROTOCOL_FALLBACK = "hermes";

/**
 * The text-protocol harness a failed turn is retried with, once: only when the endpoint refused
 * the `tools` field and the harness that failed used it. Undefined: the error stands.
 */
export function textFallback(o: {
  error: unknown;
  harness: Harness;
  attempt: number;
  harnesses: readonly HarnessEntry[];
}): HarnessEntry | undefined {
  const unsupported = o.error instanceof TurnError && o.error.code === "tools_unsupported";
  if (!unsupported || o.attempt > 0 || o.harness.parse) return undefined;
  return findHarness([...o.harnesses], TEXT_PROTOCOL_FALLBACK);
}

/** What the history records of the switch, the user's notice included. */
export function fallbackEvents(fallback: string, model: string): HistoryEvent[] {
  const reason = `the endpoint rejected native tool calls for ${model}`;
  return [
    { type: "harness_changed", harness: fallback, reason },
    { type: "notice", severity: "warning", text: `Switched to the \`${fallback}\` harness: ${reason}.` },
  ];
}
