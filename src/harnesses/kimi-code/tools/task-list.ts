import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { isKimiTask, taskList } from "../task-text.js";
import { taskListSchema } from "../tool-schemas.js";
import description from "./task-list.md";

const Args = z.object({
  active_only: z.boolean().default(true),
  limit: z.number().int().min(1).max(100).default(20),
});
type Args = z.infer<typeof Args>;

/** Kimi Code 2.1.0 `TaskList`: the session's tasks, oldest first, only running ones unless asked. */
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
        .filter((p) => isKimiTask(p) && (!args.active_only || p.status === "running"))
        .slice(0, args.limit);
      return { output: taskList(tasks, args.active_only) };
    },
  };
}
