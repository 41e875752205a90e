import type { DisplayContent, HistoryEvent, Location } from "./events.js";

/**
 * A fast path for reading back the events that make up nearly all of a long history (turn
 * bounds, messages, tool calls and results): plain checks that accept exactly what the
 * `HistoryEvent` schema accepts for these shapes and build the same value (unknown keys dropped,
 * defaults filled). Anything else, including every invalid row, returns undefined and goes
 * through the schema, which also words the error. Replaying 10,000 events spends a fraction of
 * the time zod needs (test/store-known-event.test.ts holds the two to the same results).
 */
export function knownEvent(value: unknown): HistoryEvent | undefined {
  if (!isRecord(value)) return undefined;
  const v = value;
  switch (v.type) {
    case "turn_started":
      return str(v.turnId) && int(v.pid) ? { type: v.type, turnId: v.turnId, pid: v.pid } : undefined;
    case "turn_ended":
      if (!str(v.turnId) || !(v.stopReason === null || STOP_REASONS.has(v.stopReason as string)))
        return undefined;
      if (v.error !== undefined && !str(v.error)) return undefined;
      return {
        type: v.type,
        turnId: v.turnId,
        stopReason: v.stopReason as never,
        ...(v.error === undefined ? {} : { error: v.error }),
      };
    case "user_message":
      if (!str(v.turnId) || !Array.isArray(v.content)) return undefined;
      if (!v.content.every((block) => isRecord(block) && str(block.type))) return undefined;
      return { type: v.type, turnId: v.turnId, content: v.content.map((block) => ({ ...block })) };
    case "assistant_message":
      if (!str(v.turnId) || !int(v.step) || !optStr(v.text) || !optStr(v.reasoning)) return undefined;
      // Opaque reasoning data: rare (one part per reasoning response) and nested, so the schema reads it.
      if (v.continuation !== undefined) return undefined;
      return {
        type: v.type,
        turnId: v.turnId,
        step: v.step,
        text: v.text ?? "",
        reasoning: v.reasoning ?? "",
      };
    case "tool_call": {
      if (!str(v.turnId) || !int(v.step) || !str(v.callId) || !str(v.name) || !str(v.harness))
        return undefined;
      if (!CAPABILITIES.has(v.capability as string) || !str(v.arguments) || !str(v.title)) return undefined;
      if (!KINDS.has(v.kind as string)) return undefined;
      const locations = list(v.locations, location);
      const display = list(v.display, displayContent);
      if (!locations || !display) return undefined;
      return {
        type: v.type,
        turnId: v.turnId,
        step: v.step,
        callId: v.callId,
        name: v.name,
        harness: v.harness,
        capability: v.capability as never,
        arguments: v.arguments,
        title: v.title,
        kind: v.kind as never,
        locations,
        display,
      };
    }
    case "tool_result": {
      if (!str(v.turnId) || !str(v.callId) || !RESULT_STATUSES.has(v.status as string) || !str(v.output))
        return undefined;
      // Images: rare and nested, so the schema reads them.
      if (v.parts !== undefined) return undefined;
      const display = list(v.display, displayContent);
      if (!display) return undefined;
      return {
        type: v.type,
        turnId: v.turnId,
        callId: v.callId,
        status: v.status as never,
        output: v.output,
        display,
      };
    }
    default:
      return undefined;
  }
}

const STOP_REASONS = new Set(["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]);
const RESULT_STATUSES = new Set(["completed", "failed", "rejected", "cancelled"]);
const CAPABILITIES = new Set(["exec", "patch", "edit", "write", "read", "search", "list", "plan", "other"]);
const KINDS = new Set([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
]);

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): value is string {
  return typeof value === "string";
}

function optStr(value: unknown): value is string | undefined {
  return value === undefined || typeof value === "string";
}

function int(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

/** An absent array defaults to empty; any element that does not fit fails the whole list. */
function list<T>(value: unknown, item: (entry: unknown) => T | undefined): T[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const out: T[] = [];
  for (const entry of value) {
    const checked = item(entry);
    if (checked === undefined) return undefined;
    out.push(checked);
  }
  return out;
}

function location(entry: unknown): Location | undefined {
  if (!isRecord(entry) || !str(entry.path)) return undefined;
  if (entry.line === undefined) return { path: entry.path };
  return int(entry.line) ? { path: entry.path, line: entry.line } : undefined;
}

function displayContent(entry: unknown): DisplayContent | undefined {
  if (!isRecord(entry)) return undefined;
  if (entry.type === "text") return str(entry.text) ? { type: "text", text: entry.text } : undefined;
  if (entry.type !== "diff" || !str(entry.path) || !str(entry.newText)) return undefined;
  if (!(entry.oldText === null || str(entry.oldText))) return undefined;
  return { type: "diff", path: entry.path, oldText: entry.oldText, newText: entry.newText };
}
