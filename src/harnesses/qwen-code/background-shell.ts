import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BackgroundProcess } from "../../tools/exec/background-processes.js";
import type { ToolContext } from "../../tools/types.js";

/**
 * Starts `command` as a Qwen Code 0.24.4 background shell: id `bg_` and 8 hex digits, output to
 * `<scratch>/background-shells/shell-<id>.output` (0.24.4's
 * `~/.qwen/tmp/<project>/background-shells/<session>/`) with a JSON status file beside it, kept
 * up to date until the shell ends or the session closes (`cancelled`). A trailing `&` is
 * dropped, as 0.24.4 drops it. Answers 0.24.4's launch text.
 */
export async function startQwenBackground(options: {
  command: string;
  cwd: string;
  scratchDir: string;
  ctx: ToolContext;
}): Promise<string> {
  const { ctx } = options;
  const taken = new Set(ctx.background.list().map((p) => p.id));
  let id: string;
  do id = `bg_${randomBytes(4).toString("hex")}`;
  while (taken.has(id));
  const outputFile = path.join(options.scratchDir, "background-shells", `shell-${id}.output`);
  await mkdir(path.dirname(outputFile), { recursive: true });
  const process = ctx.background.start({
    exec: ctx.exec,
    command: withoutTrailingAmpersand(options.command),
    cwd: options.cwd,
    signal: ctx.sessionSignal,
    id: () => id,
    owner: "qwen-code",
    ...(ctx.callId ? { callId: ctx.callId } : {}),
    outputFile,
    notify: true,
  });
  await process.running();
  // The end's write waits for the start's, so a shell that ends at once still ends up `completed`.
  const started = writeStatus(process);
  void started
    .then(() => process.ended())
    .then(() => writeStatus(process))
    .catch(() => undefined);
  await started;
  return [
    "Background shell started.",
    `id: ${id}`,
    ...(process.pid !== undefined ? [`pid: ${process.pid}`] : []),
    `output file: ${outputFile}`,
    `status file: ${statusFile(outputFile)}`,
    "To check whether this process is still running, Read the status file (status: running|completed|failed|cancelled). Do NOT infer liveness from the output file: programs often block-buffer stdout when not attached to a TTY, so an empty output file is normal while the process is alive (for live output, re-run with e.g. `python -u` or `stdbuf -oL`).",
    "To inspect: /tasks (text) or the interactive Background tasks dialog (focus the footer Background tasks pill, then Enter — detail view + live updates). Read the output file directly to view the captured output.",
  ].join("\n");
}

/** 0.24.4's states: a shell killed here (TaskStop-like stops, the session's close) is `cancelled`. */
export function qwenStatus(
  status: BackgroundProcess["status"],
): "running" | "completed" | "failed" | "cancelled" {
  if (status === "killed" || status === "timed_out") return "cancelled";
  return status;
}

/** Why a shell failed, in 0.24.4's words. */
export function failureReason(exit: { exitCode: number | null; signal?: string | null | undefined }): string {
  return exit.signal ? `terminated by signal ${exit.signal}` : `exited with code ${exit.exitCode}`;
}

function statusFile(outputFile: string): string {
  return `${outputFile.slice(0, -".output".length)}.status`;
}

/** The status file 0.24.4 keeps beside the output: pretty JSON, written whole (through a rename). */
async function writeStatus(process: BackgroundProcess): Promise<void> {
  if (!process.outputFile) return;
  const status = qwenStatus(process.status);
  const payload: Record<string, unknown> = {
    id: process.id,
    status,
    command: process.command,
    cwd: process.cwd,
    startTime: new Date(process.startedAt).toISOString(),
    updatedAt: new Date().toISOString(),
  };
  if (process.pid !== undefined) payload.pid = process.pid;
  if (process.endedAt !== undefined) payload.endTime = new Date(process.endedAt).toISOString();
  if (status === "completed") payload.exitCode = process.exit?.exitCode ?? 0;
  if (status === "failed" && process.exit) payload.error = failureReason(process.exit);
  const file = statusFile(process.outputFile);
  await writeFile(`${file}.tmp`, JSON.stringify(payload, null, 2), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

function withoutTrailingAmpersand(command: string): string {
  const trimmed = command.trimEnd();
  if (!trimmed.endsWith("&") || trimmed.endsWith("&&") || trimmed.endsWith("\\&")) return command;
  return trimmed.slice(0, -1).trimEnd();
}
