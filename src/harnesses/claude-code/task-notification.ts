import type { BackgroundEndedEvent } from "../shared/history-steps.js";

/**
 * The user message Claude Code 2.1.44 sends when a background shell has ended: a
 * `<task-notification>` with the task's id, output file, status and a one-line summary naming
 * its description, then where to read the output. A task stopped with TaskStop is never told
 * (no event is recorded for it); one killed otherwise is not told either.
 */
export function taskNotification(event: BackgroundEndedEvent): string | undefined {
  if (event.status === "killed") return undefined;
  const file = event.outputFile ?? "";
  const label = event.description || event.command;
  const code = event.exitCode;
  const status = event.status === "completed" ? "completed" : "failed";
  const how =
    status === "completed"
      ? `completed${code !== null ? ` (exit code ${code})` : ""}`
      : `failed${code !== null ? ` with exit code ${code}` : ""}`;
  return [
    "<task-notification>",
    `<task-id>${event.id}</task-id>`,
    `<output-file>${file}</output-file>`,
    `<status>${status}</status>`,
    `<summary>Background command "${label}" ${how}</summary>`,
    "</task-notification>",
    `Read the output file to retrieve the result: ${file}`,
  ].join("\n");
}
