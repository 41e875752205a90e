import { randomBytes } from "node:crypto";
import path from "node:path";
import type { BackgroundProcess } from "../../tools/exec/background-processes.js";
import { readOutputTail } from "../../tools/exec/read-output-tail.js";
import type { ToolContext } from "../../tools/types.js";
import type { BackgroundEndedEvent } from "../shared/history-steps.js";

/** TaskOutput shows the last 32 KiB of a task's log and points at 300-line ReadFile pages. */
const PREVIEW_BYTES = 32 << 10;
const READ_HINT_LINES = 300;
/** `[background]` defaults: a notification quotes the last 20 lines, at most 3,000 characters. */
const TAIL_LINES = 20;
const TAIL_CHARS = 3000;

/** A task this harness's Shell started (`bash-` and 8 base-36 characters, `background/ids.py`). */
export function isKimiCliTask(process: BackgroundProcess | undefined): process is BackgroundProcess {
  return process?.owner === "kimi-cli";
}

export async function startTask(options: {
  ctx: ToolContext;
  command: string;
  description: string;
  timeoutS: number;
  scratchDir: string;
}): Promise<BackgroundProcess> {
  const { ctx } = options;
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  const fresh = () => `bash-${[...randomBytes(8)].map((byte) => alphabet[byte % 36]).join("")}`;
  const taken = new Set(ctx.background.list().map((p) => p.id));
  let id = fresh();
  while (taken.has(id)) id = fresh();
  const process = ctx.background.start({
    exec: ctx.exec,
    command: options.command,
    cwd: ctx.cwd,
    signal: ctx.sessionSignal,
    id: () => id,
    description: options.description,
    owner: "kimi-cli",
    ...(ctx.callId ? { callId: ctx.callId } : {}),
    timeoutMs: options.timeoutS * 1000,
    outputFile: path.join(options.scratchDir, "tasks", id, "output.log"),
    notify: true,
  });
  await process.running();
  return process;
}

/** 1.49.0's statuses: a timed-out task is a failed one with `timed_out` set. */
function status(process: BackgroundProcess): string {
  return process.status === "timed_out" ? "failed" : process.status;
}

function exitCode(process: BackgroundProcess): number | undefined {
  if (!process.exit) return undefined;
  return process.exit.exitCode ?? (process.status === "killed" ? -9 : undefined);
}

/** `format_task` (`background/summary.py`). */
export function formatTask(process: BackgroundProcess, includeCommand = true): string {
  const lines = [
    `task_id: ${process.id}`,
    "kind: bash",
    `status: ${status(process)}`,
    `description: ${process.description ?? ""}`,
  ];
  if (includeCommand) lines.push(`command: ${process.command}`);
  const code = exitCode(process);
  if (code !== undefined) lines.push(`exit_code: ${code}`);
  return lines.join("\n");
}

/** `format_task_list`: a count, then each task numbered. */
export function formatTaskList(processes: BackgroundProcess[], activeOnly: boolean): string {
  const header = activeOnly ? "active_background_tasks" : "background_tasks";
  if (processes.length === 0) return `${header}: 0\n[no tasks]`;
  const lines = [`${header}: ${processes.length}`, ""];
  for (const [i, process] of processes.entries()) lines.push(`[${i + 1}]`, formatTask(process), "");
  return lines.join("\n").trimEnd();
}

/** `_format_task_output` (`tools/background/__init__.py`): the task, where its log is, then its last 32 KiB. */
export async function formatTaskOutput(process: BackgroundProcess, retrieval: string): Promise<string> {
  const file = process.outputFile ?? "";
  const tail = process.outputFile
    ? await readOutputTail(process.outputFile, PREVIEW_BYTES).catch(() => ({ text: "", size: 0, start: 0 }))
    : { text: "", size: 0, start: 0 };
  const available = tail.size > 0;
  const timedOut = process.status === "timed_out";
  const lines = [
    `retrieval_status: ${retrieval}`,
    `task_id: ${process.id}`,
    "kind: bash",
    `status: ${status(process)}`,
    `description: ${process.description ?? ""}`,
    `command: ${process.command}`,
    `interrupted: ${process.status === "killed"}`,
    `timed_out: ${timedOut}`,
    `terminal_reason: ${timedOut ? "timed_out" : status(process)}`,
  ];
  const code = exitCode(process);
  if (code !== undefined) lines.push(`exit_code: ${code}`);
  lines.push(
    "",
    `output_path: ${file}`,
    `output_size_bytes: ${tail.size}`,
    `output_preview_bytes: ${tail.size - tail.start}`,
    `output_truncated: ${tail.start > 0}`,
    "",
    `full_output_available: ${available}`,
    "full_output_tool: ReadFile",
    available
      ? `full_output_hint: Use ReadFile(path="${file}", line_offset=1, n_lines=${READ_HINT_LINES}) to inspect the full log. Increase line_offset to continue paging through the file.`
      : "full_output_hint: No output file is currently available for this task.",
  );
  let output = tail.text.replace(/\n+$/, "") || "[no output available]";
  if (tail.start > 0) output = `[Truncated. Full output: ${file}]\n\n${output}`;
  return [...lines, "", "[output]", output].join("\n");
}

const ENDS = {
  completed: { severity: "success", title: "completed" },
  timed_out: { severity: "error", title: "timed out" },
  failed: { severity: "error", title: "failed" },
  killed: { severity: "warning", title: "stopped" },
} as const;

/**
 * The user message 1.49.0 adds when a background task has ended (`notifications/llm.py`,
 * `background/manager.py`): a `<notification>` with its title, severity and body, then a
 * `<task-notification>` with the last 20 lines (3,000 characters) of its output.
 */
export function taskNotification(event: BackgroundEndedEvent): string | undefined {
  if (event.harness !== "kimi-cli") return undefined;
  const end = ENDS[event.status];
  const state = event.status === "timed_out" ? "failed" : event.status;
  const duration = `Duration: ${elapsed(event.durationMs / 1000)}`;
  const body = [
    `Task ID: ${event.id}`,
    `Status: ${state} (${duration})`,
    `Description: ${event.description ?? ""}`,
  ];
  if (event.status === "timed_out") body.push("Terminal reason: timed_out");
  if (event.exitCode !== null) body.push(`Exit code: ${event.exitCode}`);
  const lines = [
    `<notification id="task:${event.id}" category="task" type="task.${event.status}" source_kind="background_task" source_id="${event.id}">`,
    `Title: Background task ${end.title}: ${event.description ?? ""}`,
    `Severity: ${end.severity}`,
    ...body,
    "<task-notification>",
    `Task ID: ${event.id}`,
    "Task Type: bash",
    `Description: ${event.description ?? ""}`,
    `Status: ${state}`,
  ];
  if (event.exitCode !== null) lines.push(`Exit code: ${event.exitCode}`);
  const tail = event.outputTail
    .split("\n")
    .filter((line, i, all) => i < all.length - 1 || line)
    .slice(-TAIL_LINES)
    .join("\n")
    .slice(-TAIL_CHARS);
  if (tail) lines.push("Output tail:", tail);
  lines.push("</task-notification>", "</notification>");
  return lines.join("\n");
}

/** `format_elapsed`: `<1s`, `5s`, `1m 30s`, `1h 1m 1s`. */
function elapsed(seconds: number): string {
  if (seconds < 1) return "<1s";
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
