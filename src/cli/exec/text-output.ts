import type { RunEvent } from "../../acp/run-once.js";

export interface TextOutputOptions {
  /** Progress: tool lines, intermediate messages, reasoning, notices. */
  stderr: (text: string) => void;
}

/**
 * The human output of `exec`: progress goes to stderr as it happens; the answer (the last
 * message, after the last tool call) is kept for stdout, written once the turn has ended so a
 * script reading stdout gets only the answer.
 */
export function createTextOutput(options: TextOutputOptions) {
  const { stderr } = options;
  let text = "";
  let thinking = false;
  const titles = new Map<string, string>();
  const rejected = new Set<string>();
  const errors = new Set<string>();
  /** A message followed by a tool call was not the answer: it becomes progress. */
  const demote = () => {
    if (text.trim()) stderr(`${text.trim()}\n`);
    text = "";
  };
  const endThought = () => {
    if (thinking) stderr("\n");
    thinking = false;
  };
  return {
    onEvent(e: RunEvent): void {
      switch (e.type) {
        case "text":
          endThought();
          text += e.text;
          return;
        case "thought":
          if (!thinking) stderr("thinking: ");
          thinking = true;
          stderr(e.text.replace(/\n+/g, " "));
          return;
        case "notice":
          endThought();
          if (e.severity === "error") errors.add(e.text.trim());
          stderr(`${e.severity}: ${e.text}\n`);
          return;
        case "tool_call":
          endThought();
          demote();
          titles.set(e.callId, e.title);
          stderr(`▸ ${e.title}\n`);
          return;
        case "rejected":
          rejected.add(e.callId);
          stderr(`✗ needs approval, rejected: ${e.title} (see --mode / --full-auto)\n`);
          return;
        case "tool_done":
          if (rejected.has(e.callId)) return;
          stderr(`${e.ok ? "✓" : "✗"} ${titles.get(e.callId) ?? e.callId}\n`);
          return;
        case "plan":
          endThought();
          demote();
          for (const entry of e.entries)
            stderr(`  ${entry.status === "completed" ? "☑" : "☐"} ${entry.content}\n`);
          return;
        case "tool_output":
          return;
      }
    },
    /** Whether this error was already printed as a notice (the turn's failure is told once). */
    told(error: string): boolean {
      return errors.has(error.trim());
    },
    /** The answer, once the turn is over (empty when the model said nothing after its last call). */
    answer(): string {
      endThought();
      return text.trim();
    },
  };
}
