import type { BackgroundEndedEvent } from "../shared/history-steps.js";
import { failureReason, qwenStatus } from "./background-shell.js";

/** 0.24.4's bounds: the summary's command label, the command as quoted, the quoted output. */
const LABEL_CHARS = 80;
const COMMAND_CHARS = 500;
const TAIL_BYTES = 8192;

/**
 * The `<task-notification>` Qwen Code 0.24.4 gives the model when a background shell has ended
 * (in its interactive and ACP modes; headless `-p` sends none): id, kind, status, a summary, the
 * command, cwd, pid, exit code or failure, the end of the output and the output file.
 */
export function taskNotification(event: BackgroundEndedEvent): string {
  const status = qwenStatus(event.status);
  const words = status === "completed" ? "completed" : status === "failed" ? "failed" : "was cancelled";
  const command = controlFree(event.command, false);
  const quoted = command.length <= COMMAND_CHARS ? command : `${command.slice(0, COMMAND_CHARS - 3)}...`;
  const parts = [
    "<task-notification>",
    `<task-id>${xml(event.id)}</task-id>`,
    "<kind>shell</kind>",
    `<status>${status}</status>`,
    `<summary>Shell command "${xml(label(event.command))}" ${words}.</summary>`,
    command.length <= COMMAND_CHARS
      ? `<command>${xml(quoted)}</command>`
      : `<command truncated="true">${xml(quoted)}</command>`,
    `<cwd>${xml(controlFree(event.cwd, false))}</cwd>`,
  ];
  if (event.pid !== undefined) parts.push(`<pid>${event.pid}</pid>`);
  if (status === "completed") parts.push(`<exit-code>${event.exitCode ?? 0}</exit-code>`);
  if (status === "failed") parts.push(`<result>${xml(failureReason(event))}</result>`);
  const tail = controlFree(event.outputTail, true).trimEnd();
  if (tail) {
    const truncated = event.outputBytes > TAIL_BYTES;
    parts.push(`<output-tail truncated="${truncated}">${xml(tail)}</output-tail>`);
  }
  parts.push(`<output-file>${xml(event.outputFile ?? "")}</output-file>`, "</task-notification>");
  return parts.join("\n");
}

function label(command: string): string {
  const normalized = controlFree(command, false).replace(/\s+/g, " ").trim();
  const points = [...normalized];
  return points.length <= LABEL_CHARS ? normalized : `${points.slice(0, LABEL_CHARS - 3).join("")}...`;
}

/** Drops control characters (keeping tabs, and line breaks in output), C1 codes and bidi controls. */
function controlFree(text: string, output: boolean): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    const kept = code === 9 || (output && (code === 10 || code === 13));
    if (!kept && (code < 32 || (code >= 128 && code <= 159))) continue;
    if (/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(char)) continue;
    out += char;
  }
  return out;
}

function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
