import type { HistoryEvent } from "../store/events.js";
import type { SessionOutput } from "./types.js";

/**
 * Turns stored history into what the editor should see on `session/load`. A turn without a
 * `turn_ended` that is not running now was cut by a crash or kill: it is shown as
 * interrupted, with its unfinished tool calls, instead of silently stopping.
 */
export function replayOutputs(history: HistoryEvent[], runningTurnId?: string): SessionOutput[] {
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
  for (const event of history) {
    if (event.type === "turn_started") {
      closeTurn();
      openTurn = event.turnId;
    } else if (event.type === "turn_ended") {
      openTurn = undefined;
      openCalls = [];
    } else if (event.type === "tool_call") {
      openCalls.push(event.callId);
    } else if (event.type === "tool_result") {
      openCalls = openCalls.filter((id) => id !== event.callId);
    }
    outputs.push({ type: "event", event });
  }
  closeTurn();
  return outputs;
}
