import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { formatTask, isKimiCliTask } from "../tasks.js";
import { taskStopSchema } from "../tool-schemas.js";
import description from "./task-stop.md";

const Args = z.object({ task_id: z.string(), reason: z.string().default("Stopped by TaskStop") });
type Args = z.infer<typeof Args>;

/** Kimi CLI 1.49.0 `TaskStop`: refused in plan mode; kills the task's process tree and answers with its fields. */
export function taskStopTool(): Tool<Args> {
  return {
    name: "TaskStop",
    description,
    kind: "execute",
    capability: "other",
    parameters: taskStopSchema,
    schema: Args,
    preview: async (args) => ({ title: `Stop background task ${args.task_id}` }),
    access: (args) => ({ type: "tool", key: "TaskStop", label: `Stop background task \`${args.task_id}\`` }),
    async execute(args, ctx) {
      if (ctx.plan?.active()) return kimiError("TaskStop is not available in plan mode.");
      const task = ctx.background.get(args.task_id);
      if (!isKimiCliTask(task)) return kimiError(`Task not found: ${args.task_id}`);
      if (task.status === "running")
        await ctx.background.kill(task.id, args.reason.trim() || "Stopped by TaskStop");
      return kimiResult({ message: "Task stop requested.", output: formatTask(task) });
    },
  };
}
