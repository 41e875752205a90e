import type { HistoryEvent } from "../../store/events.js";
import type { ParsedReply } from "../types.js";
import { parseErrorText } from "./observations.js";
import { parseResponse } from "./parse-response.js";

/**
 * Whether the model has been asked to confirm it is done: the last batch of this turn said
 * `task_complete` (Terminus 2's `_pending_completion`; a reply it could not read leaves it as
 * it was, a batch without the flag clears it, and so does a new prompt).
 */
export function pendingCompletion(history: readonly HistoryEvent[]): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.type === "user_message") return false;
    if (event.type !== "tool_call") continue;
    if (event.harness !== "terminus-2" || event.name !== "terminal") return false;
    try {
      return (JSON.parse(event.arguments) as { task_complete?: unknown }).task_complete === true;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * A reply is one JSON object: its commands become one `terminal` call. A reply that cannot be
 * read gets the parser's errors back; a second `task_complete` in a row ends the turn.
 */
export function parseReply(
  text: string,
  options: { newId(): string; history?: readonly HistoryEvent[] },
): ParsedReply {
  const result = parseResponse(text);
  if (result.error) return { calls: [], formatError: parseErrorText(result.error, result.warning) };
  if (result.isTaskComplete && pendingCompletion(options.history ?? [])) return { calls: [] };
  const args = {
    commands: result.commands,
    task_complete: result.isTaskComplete,
    ...(result.warning ? { warning: result.warning } : {}),
  };
  return { calls: [{ id: options.newId(), name: "terminal", arguments: JSON.stringify(args) }] };
}
