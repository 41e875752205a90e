import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { formatTaskOutput, isKimiCliTask } from "../tasks.js";
import { taskOutputSchema } from "../tool-schemas.js";
import description from "./task-output.md";

const Args = z.object({
  task_id: z.string(),
  block: z.boolean().default(false),
  timeout: z.number().int().min(0).max(3600).default(30),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `TaskOutput`: a snapshot (`retrieval_status: not_ready` while it runs), or with
 * `block` a wait of up to `timeout` seconds (`timeout` if it still runs); the task's fields, where
 * its log is and the last 32 KiB of it.
 */
export function taskOutputTool(): Tool<Args> {
  return {
    name: "TaskOutput",
    description,
    kind: "read",
    capability: "other",
    parameters: taskOutputSchema,
    schema: Args,
    preview: async (args) => ({ title: `Output of ${args.task_id}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const task = ctx.background.get(args.task_id);
      if (!isKimiCliTask(task)) return kimiError(`Task not found: ${args.task_id}`);
      if (args.block && task.status === "running") {
        await task.next({ waitMs: args.timeout * 1000, signal: ctx.signal });
      }
      const ended = task.status !== "running";
      const retrieval = ended ? "success" : args.block ? "timeout" : "not_ready";
      // Seen here, its end is not told again.
      if (ended) {
        task.silence();
        await task.ended();
      }
      return kimiResult({
        message: !args.block && !ended ? "Task snapshot retrieved." : "Task output retrieved.",
        output: await formatTaskOutput(task, retrieval),
      });
    },
  };
}
