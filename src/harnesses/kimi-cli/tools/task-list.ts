import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { kimiResult } from "../result-builder.js";
import { formatTaskList, isKimiCliTask } from "../tasks.js";
import { taskListSchema } from "../tool-schemas.js";
import description from "./task-list.md";

const Args = z.object({
  active_only: z.boolean().default(true),
  limit: z.number().int().min(1).max(100).default(20),
});
type Args = z.infer<typeof Args>;

/** Kimi CLI 1.49.0 `TaskList`: the session's Shell tasks (running ones unless `active_only=false`), numbered. */
export function taskListTool(): Tool<Args> {
  return {
    name: "TaskList",
    description,
    kind: "read",
    capability: "other",
    parameters: taskListSchema,
    schema: Args,
    preview: async () => ({ title: "List background tasks" }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const tasks = ctx.background
        .list()
        .filter(isKimiCliTask)
        .filter((task) => !args.active_only || task.status === "running")
        .slice(0, args.limit);
      return kimiResult({ message: "Task list retrieved.", output: formatTaskList(tasks, args.active_only) });
    },
  };
}
