import type { BackgroundEndedEvent } from "../shared/history-steps.js";
import { wallTime } from "./tool-result.js";

/** Title, severity and closing words of each end, as Kimi Code 2.1.0 words them. */
const ENDS = {
  completed: { severity: "info", words: "completed." },
  failed: { severity: "warning", words: "failed." },
  timed_out: { severity: "warning", words: "timed out." },
  killed: { severity: "warning", words: "was killed." },
} as const;

/**
 * The user message Kimi Code 2.1.0 appends when a background task has ended: a `<notification>`
 * with the task's id and status in its attributes, a title, a severity, the task's wall time, one
 * sentence, and (when it printed anything) the log to Read. Tasks stopped with TaskStop or
 * collected by WaitFor are not told (no event is recorded for them).
 */
export function taskNotification(event: BackgroundEndedEvent): string {
  const end = ENDS[event.status];
  const lines = [
    `<notification id="task:${event.id}:${event.status}" category="task" type="task.${event.status}" source_kind="background_task" source_id="${event.id}">`,
    `Title: Background process ${event.status}`,
    `Severity: ${end.severity}`,
    wallTime(event.durationMs).trimEnd(),
    `${event.description || event.command} ${end.words}`,
  ];
  if (event.outputFile && event.outputBytes > 0) {
    lines.push(
      `<output-file path="${event.outputFile}" bytes="${event.outputBytes}">`,
      `Read the output file to retrieve the result: ${event.outputFile}`,
      "</output-file>",
    );
  }
  lines.push("</notification>");
  return lines.join("\n");
}
