import { z } from "zod";
import { type BackgroundProcess, firstEnded } from "../../../tools/exec/background-processes.js";
import { readOutputTail } from "../../../tools/exec/read-output-tail.js";
import type { Tool } from "../../../tools/types.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { taskOutputSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./task-output.md";

/** 2.1.44's cap on the output one TaskOutput shows (`TASK_MAX_OUTPUT_LENGTH` default). */
export const TASK_OUTPUT_MAX_CHARS = 32_000;
/** Output files up to this size are read whole; past it only their end can be shown anyway. */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

const Args = z.looseObject({
  // An empty id is answered by the tool, in 2.1.44's words, not by the schema.
  task_id: z.string().default(""),
  block: z.boolean().default(true),
  timeout: z.number().min(0).max(600_000).default(30_000),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code 2.1.44 `TaskOutput` for background shells: `<retrieval_status>`, `<task_id>`,
 * `<task_type>`, `<status>`, `<exit_code>` (when it exited) and `<output>` (all it printed so far,
 * its last 32 000 characters behind a `[Truncated. Full output: …]` line), separated by blank
 * lines. `block` waits up to `timeout` ms for the end: `success` when it came, `timeout` when
 * not; without `block` a running task is `not_ready`. Subagent tasks (`local_agent`, their
 * transcript as output) come with subagents: their lookup goes where the shell lookup is.
 */
export function taskOutputTool(): Tool<Args> {
  return {
    name: "TaskOutput",
    description,
    kind: "read",
    capability: "other",
    parameters: taskOutputSchema,
    schema: Args,
    preview: async (args) => ({ title: `Output of ${args.task_id || "a task"}` }),
    // The command was approved when it started; reading its output asks nothing more.
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!args.task_id) return { output: toolUseError("Task ID is required"), isError: true };
      const task = ctx.background.get(args.task_id);
      if (!task) return { output: toolUseError(`No task found with ID: ${args.task_id}`), isError: true };
      if (args.block && !task.exit) await firstEnded([task], args.timeout, ctx.signal);
      const retrieval = task.exit ? "success" : args.block ? "timeout" : "not_ready";
      return { output: await taskOutputText(retrieval, task) };
    },
  };
}

export async function taskOutputText(retrieval: string, task: BackgroundProcess): Promise<string> {
  const sections = [
    `<retrieval_status>${retrieval}</retrieval_status>`,
    `<task_id>${task.id}</task_id>`,
    "<task_type>local_bash</task_type>",
    `<status>${task.status}</status>`,
  ];
  const code = task.status === "killed" ? null : task.exit?.exitCode;
  if (code !== undefined && code !== null) sections.push(`<exit_code>${code}</exit_code>`);
  const output = task.outputFile ? await capped(task.outputFile) : "";
  if (output.trim()) sections.push(`<output>\n${output.trimEnd()}\n</output>`);
  return sections.join("\n\n");
}

/** The file's text, or its end behind 2.1.44's `[Truncated. Full output: …]` line. */
async function capped(file: string): Promise<string> {
  const { text, start } = await readOutputTail(file, READ_WHOLE_BYTES);
  if (start === 0 && text.length <= TASK_OUTPUT_MAX_CHARS) return text;
  const header = `[Truncated. Full output: ${file}]\n\n`;
  return header + text.slice(-(TASK_OUTPUT_MAX_CHARS - header.length));
}
