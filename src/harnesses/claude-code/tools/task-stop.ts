import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { taskStopSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./task-stop.md";

const Args = z.looseObject({
  task_id: z.string().optional(),
  shell_id: z.string().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code 2.1.44 `TaskStop` (`shell_id` is its older name for `task_id`): kills a running
 * background shell with its process tree and answers with 2.1.44's JSON; a stopped task is never
 * announced later. Unknown ids, tasks no longer running and a missing id are `<tool_use_error>`s.
 */
export function taskStopTool(): Tool<Args> {
  return {
    name: "TaskStop",
    description,
    kind: "execute",
    capability: "other",
    parameters: taskStopSchema,
    schema: Args,
    preview: async (args) => ({ title: `Stop ${args.task_id ?? args.shell_id ?? "a task"}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const id = args.task_id ?? args.shell_id;
      if (!id) return { output: toolUseError("Missing required parameter: task_id"), isError: true };
      const task = ctx.background.get(id);
      if (!task) return { output: toolUseError(`No task found with ID: ${id}`), isError: true };
      if (task.status !== "running") {
        return { output: toolUseError(`Task ${id} is not running (status: ${task.status})`), isError: true };
      }
      task.silence();
      await ctx.background.kill(id, "stopped");
      const output = JSON.stringify({
        message: `Successfully stopped task: ${id} (${task.command})`,
        task_id: id,
        task_type: "local_bash",
        command: task.command,
      });
      return { output };
    },
  };
}
