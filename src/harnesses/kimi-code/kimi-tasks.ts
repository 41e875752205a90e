import { randomBytes } from "node:crypto";
import path from "node:path";
import type { BackgroundProcess } from "../../tools/exec/background-processes.js";
import type { ToolContext } from "../../tools/types.js";

/** Kimi Code 2.1.0's time limit for a background command when the call gives none. */
export const BACKGROUND_TIMEOUT_S = 600;

/** `bash-` and 8 base-36 characters, as 2.1.0 names its shell tasks. */
export function kimiTaskId(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  return `bash-${[...randomBytes(8)].map((byte) => alphabet[byte % alphabet.length]).join("")}`;
}

/**
 * Starts `command` as a Kimi Code task: it lives for the session (unless `timeoutMs` ends it),
 * its output goes to `<scratch>/tasks/<id>/output.log` (2.1.0's `agents/main/tasks/<id>/`), and
 * its end is told to the model unless a tool reports it first.
 */
export async function startKimiTask(options: {
  command: string;
  cwd: string;
  description: string;
  timeoutMs?: number;
  scratchDir: string;
  ctx: ToolContext;
}): Promise<BackgroundProcess> {
  const { ctx } = options;
  const taken = new Set(ctx.background.list().map((p) => p.id));
  let id: string;
  do id = kimiTaskId();
  while (taken.has(id));
  const process = ctx.background.start({
    exec: ctx.exec,
    command: options.command,
    cwd: options.cwd,
    signal: ctx.sessionSignal,
    id: () => id,
    description: options.description,
    owner: "kimi-code",
    ...(ctx.callId ? { callId: ctx.callId } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    outputFile: path.join(options.scratchDir, "tasks", id, "output.log"),
    notify: true,
  });
  await process.running();
  return process;
}

/** What 2.1.0's Bash answers for a task it started (or moved) to the background. */
export function startedText(process: BackgroundProcess, moved?: { output: string }): string {
  const lines = [
    `task_id: ${process.id}`,
    `pid: ${process.pid ?? ""}`,
    `description: ${process.description ?? ""}`,
    "status: running",
    "automatic_notification: true",
  ];
  if (moved) {
    lines.push(
      "next_step: The task now runs in the background. You will be automatically notified when it completes — do NOT wait, poll, or call TaskOutput on it; continue with your current work.",
      "human_shell_hint: The task is visible in the background-task panel.",
    );
    return moved.output ? `${lines.join("\n")}\n\nforeground_output:\n${moved.output}` : lines.join("\n");
  }
  lines.push(
    "next_step: The completion arrives automatically in a later turn — do NOT wait, poll, or call TaskOutput on it; continue with your current work.",
    "next_step: Use TaskStop only if the task must be cancelled.",
    "human_shell_hint: The task is visible in the background-task panel.",
  );
  return lines.join("\n");
}
