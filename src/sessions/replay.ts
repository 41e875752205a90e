import type { HistoryEvent, HistoryEventOf } from "../store/events.js";
import type { SessionOutput } from "./types.js";

/**
 * Turns stored history into what the editor should see on `session/load`. A tool call whose
 * result is stored is shown once, finished (a long session is thousands of calls, and each
 * update costs the editor as much as it costs us). A turn without a `turn_ended` that is not
 * running now was cut by a crash or kill: it is shown as interrupted, with its unfinished
 * tool calls, instead of silently stopping.
 */
export function replayOutputs(history: readonly HistoryEvent[], runningTurnId?: string): SessionOutput[] {
  const results = pairResults(history);
  const outputs: SessionOutput[] = [];
  let openTurn: string | undefined;
  let openCalls: string[] = [];
  const closeTurn = () => {
    if (openTurn && openTurn !== runningTurnId) {
      outputs.push({ type: "interrupted", turnId: openTurn, openCallIds: openCalls });
    }
    openTurn = undefined;
    openCalls = [];
  };
  for (const [index, event] of history.entries()) {
    if (event.type === "turn_started") {
      closeTurn();
      openTurn = event.turnId;
    } else if (event.type === "turn_ended") {
      openTurn = undefined;
      openCalls = [];
    } else if (event.type === "tool_call") {
      const result = results.get(index);
      if (result) {
        outputs.push({ type: "finished_call", call: event, result });
        continue;
      }
      openCalls.push(event.callId);
    } else if (event.type === "tool_result") {
      if (results.has(index)) continue; // shown with its call
      openCalls = openCalls.filter((id) => id !== event.callId);
    }
    outputs.push({ type: "event", event });
  }
  closeTurn();
  return outputs;
}

/**
 * Each call's result, keyed by both events' positions: the first result with the call's id
 * before the id is used again or the turn ends (some models reuse ids from turn to turn).
 */
function pairResults(history: readonly HistoryEvent[]): Map<number, HistoryEventOf<"tool_result">> {
  const paired = new Map<number, HistoryEventOf<"tool_result">>();
  let open = new Map<string, number>();
  for (const [index, event] of history.entries()) {
    if (event.type === "turn_started") open = new Map();
    else if (event.type === "tool_call") open.set(event.callId, index);
    else if (event.type === "tool_result") {
      const call = open.get(event.callId);
      if (call === undefined) continue;
      open.delete(event.callId);
      paired.set(call, event);
      paired.set(index, event);
    }
  }
  return paired;
}

/**
 * `history` in groups of at least `size` events (but whole turns), each cut just before a
 * `turn_started`. Replaying group by group shows exactly what one pass shows: a call pairs only
 * with results of its own turn, and an unfinished turn is closed by the next turn's start.
 */
export function* turnGroups(history: Iterable<HistoryEvent>, size: number): Generator<HistoryEvent[]> {
  let group: HistoryEvent[] = [];
  for (const event of history) {
    if (event.type === "turn_started" && group.length >= size) {
      yield group;
      group = [];
    }
    group.push(event);
  }
  if (group.length > 0) yield group;
}
