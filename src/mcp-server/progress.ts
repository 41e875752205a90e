import type { RunEvent } from "../acp/run-events.js";

/**
 * What one run said, folded for an MCP answer: the final message is the text after the last
 * tool call (earlier text was narration), and each event gets a one-line progress message.
 */
export function createAnswer() {
  let last = "";
  let afterTool = false;
  const refused: string[] = [];
  return {
    onEvent(event: RunEvent): void {
      if (event.type === "text") {
        if (afterTool) last = "";
        afterTool = false;
        last += event.text;
      } else if (event.type === "tool_call") afterTool = true;
      else if (event.type === "rejected") refused.push(event.title);
    },
    final(): string {
      return last;
    },
    refused(): string[] {
      return refused;
    },
  };
}

/** One line per event worth showing a waiting client; undefined for the rest. */
export function progressLine(event: RunEvent): string | undefined {
  switch (event.type) {
    case "tool_call":
      return `running: ${event.title}`;
    case "tool_done":
      return `${event.ok ? "done" : "failed"}: ${event.callId}`;
    case "rejected":
      return `refused: ${event.title}`;
    case "notice":
      return `${event.severity}: ${event.text}`;
    case "plan":
      return `plan: ${event.entries.map((e) => `[${e.status}] ${e.content}`).join("; ")}`;
    default:
      return undefined;
  }
}
