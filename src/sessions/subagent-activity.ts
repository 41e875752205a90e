import type { SessionOutput } from "./types.js";

/**
 * What a subagent's session output adds to the progress of the call that started it: each tool
 * call it makes on its own line, and its answer as it streams. The rest (usage, notices, live
 * command output) stays in the child's own history.
 */
export function subagentActivity(output: SessionOutput): string | undefined {
  if (output.type !== "event") return undefined;
  const { event } = output;
  switch (event.type) {
    case "tool_call":
      return `\n→ ${event.title}\n`;
    case "tool_result":
      return event.status === "completed" ? undefined : `  (${event.status})\n`;
    case "assistant_message":
      return event.text || undefined;
    default:
      return undefined;
  }
}
