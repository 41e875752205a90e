import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { DEFAULT_STOP_REASON, isKimiTask, runtime } from "../task-text.js";
import { taskStopSchema } from "../tool-schemas.js";
import description from "./task-stop.md";

const Args = z.object({ task_id: z.string(), reason: z.string().default(DEFAULT_STOP_REASON) });
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `TaskStop`: kills a running task with its process tree; its end is then never
 * announced. A task that already ended is answered with its state, not as an error.
 */
export function taskStopTool(): Tool<Args> {
  return {
    name: "TaskStop",
    description,
    kind: "execute",
    capability: "other",
    parameters: taskStopSchema,
    schema: Args,
    preview: async (args) => ({ title: `Stop ${args.task_id}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const task = ctx.background.get(args.task_id);
      if (!task || !isKimiTask(task)) return { output: `Task not found: ${args.task_id}`, isError: true };
      if (task.status === "running") {
        task.silence();
        await ctx.background.kill(task.id, args.reason);
      }
      const reason = task.stopReason ?? args.reason;
      return {
        output: [runtime(task), `task_id: ${task.id}`, `status: ${task.status}`, `reason: ${reason}`].join(
          "\n",
        ),
      };
    },
  };
}
