import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { isKimiTask, taskWithOutput } from "../task-text.js";
import { taskOutputSchema } from "../tool-schemas.js";
import description from "./task-output.md";

const Args = z.object({ task_id: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `TaskOutput`: never waits; `retrieval_status` is `not_ready` while the task
 * runs and `success` once it ended, then the task's lines and the last 32 KiB of its log.
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
      if (!task || !isKimiTask(task)) return { output: `Task not found: ${args.task_id}`, isError: true };
      const retrieval = `retrieval_status: ${task.exit ? "success" : "not_ready"}`;
      return { output: await taskWithOutput(task, [retrieval]) };
    },
  };
}
