import type { BackgroundProcess } from "../../tools/exec/background-processes.js";
import { readOutputTail } from "../../tools/exec/read-output-tail.js";
import { wallTime } from "./tool-result.js";

/** Bytes of a task's output TaskOutput and WaitFor show: 2.1.0 keeps the last 32 KiB. */
export const TASK_PREVIEW_BYTES = 32_768;

/** Kimi Code 2.1.0's `stop_reason` when TaskStop is given none. */
export const DEFAULT_STOP_REASON = "Stopped by TaskStop";

const HINT_COMPLETE =
  "The preview above is the complete output. Use the Read tool with the output_path if you need to re-read the full log later (parameters: path, line_offset, n_lines; read about 300 lines per page).";
const hintTruncated = (bytes: number) =>
  `Only the last ${bytes} bytes are shown above. Use the Read tool with the output_path to page through the full log (parameters: path, line_offset, n_lines; read about 300 lines per page).`;

/** Whether the task is Kimi Code's to list and wait for: one its Bash started. */
export function isKimiTask(process: BackgroundProcess): boolean {
  return process.owner === "kimi-code";
}

/** How long the task has run (to its end, once ended), as the `Wall time:` line that heads its block. */
export function runtime(process: BackgroundProcess): string {
  return wallTime((process.endedAt ?? Date.now()) - process.startedAt).trimEnd();
}

/**
 * Kimi Code 2.1.0's lines for one task (TaskList, and the head of TaskOutput and WaitFor):
 * its runtime, id, description, status, what stopped it, its own time limit, command, pid, exit
 * code once ended (-1 when killed or timed out) and the call that started it. `extra` goes
 * right after the runtime line (TaskOutput's `retrieval_status`).
 */
export function taskLines(process: BackgroundProcess, extra: string[] = []): string[] {
  const lines = [runtime(process), ...extra, `task_id: ${process.id}`];
  if (process.description !== undefined) lines.push(`description: ${process.description}`);
  lines.push(`status: ${process.status}`, "detached: true");
  if (process.stopReason !== undefined) {
    lines.push(`stop_reason: ${process.stopReason}`, "terminal_notification_suppressed: true");
  }
  lines.push(
    `timeout_ms: ${process.timeoutMs ?? 0}`,
    "kind: process",
    `command: ${process.command}`,
    `pid: ${process.pid ?? ""}`,
  );
  if (process.exit) lines.push(`exit_code: ${exitCode(process)}`);
  if (process.callId !== undefined) lines.push(`parent_tool_call_id: ${process.callId}`);
  return lines;
}

export function exitCode(process: BackgroundProcess): number {
  if (process.status === "killed" || process.status === "timed_out") return -1;
  return process.exit?.exitCode ?? -1;
}

/** `active_background_tasks: N` (or `background_tasks: N`) and each task's lines, `---` between them. */
export function taskList(processes: BackgroundProcess[], activeOnly: boolean): string {
  const header = `${activeOnly ? "active_background_tasks" : "background_tasks"}: ${processes.length}`;
  if (processes.length === 0) return `${header}\nNo background tasks found.`;
  return [header, processes.map((p) => taskLines(p).join("\n")).join("\n---\n")].join("\n");
}

/**
 * A task with its output, as TaskOutput answers and WaitFor shows a finished task: the task's
 * lines, the output's size and where the whole log is, then the last 32 KiB of it.
 */
export async function taskWithOutput(process: BackgroundProcess, extra: string[] = []): Promise<string> {
  const lines = taskLines(process, extra);
  if (process.stopReason !== undefined) lines.push("terminal_reason: stopped");
  const file = process.outputFile;
  const tail = file ? await readOutputTail(file, TASK_PREVIEW_BYTES) : { text: "", size: 0, start: 0 };
  const preview = tail.size - tail.start;
  const truncated = tail.start > 0;
  if (file && tail.size > 0) lines.push(`output_path: ${file}`);
  lines.push(
    `output_size_bytes: ${tail.size}`,
    `output_preview_bytes: ${preview}`,
    `output_truncated: ${truncated}`,
    `full_output_available: ${tail.size > 0}`,
  );
  if (tail.size > 0) {
    lines.push(
      "full_output_tool: Read",
      `full_output_hint: ${truncated ? hintTruncated(preview) : HINT_COMPLETE}`,
    );
  }
  const body = tail.size > 0 ? tail.text : "[no output available]";
  const cut = truncated ? `[Truncated. Full output: ${file}]\n` : "";
  return `${lines.join("\n")}\n\n${cut}[output]\n${body}`;
}
