import { performance } from "node:perf_hooks";
import { z } from "zod";
import { firstEnded } from "../../../tools/exec/background-processes.js";
import type { Tool } from "../../../tools/types.js";
import { isKimiTask, taskList, taskWithOutput } from "../task-text.js";
import { waitForSchema } from "../tool-schemas.js";
import description from "./wait-for.md";

const Args = z.object({ timeout: z.number().int().positive().max(600), task_id: z.string().optional() });
type Args = z.infer<typeof Args>;

const TIMED_OUT =
  "The wait ended before the task finished — a timeout is not an error. Call WaitFor again to keep waiting, or continue with other work; completion also arrives via automatic notification.";
const NOTHING_RUNNING =
  "No background tasks are running, so there is nothing to wait for. Finished tasks report back via automatic notification.";

/**
 * Kimi Code 2.1.0 `WaitFor`: waits up to `timeout` seconds for the task (or, without
 * `task_id`, the first running task) to end. A task it returns is collected: no notification
 * follows. A timeout is an ordinary result listing what still runs.
 */
export function waitForTool(): Tool<Args> {
  return {
    name: "WaitFor",
    description,
    kind: "other",
    capability: "other",
    parameters: waitForSchema,
    schema: Args,
    preview: async (args) => ({ title: `Wait for ${args.task_id ?? "a background task"}` }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const timeoutMs = args.timeout * 1000;
      const head = (status: string, waited: number) => [
        `wait_status: ${status}`,
        ...(args.task_id !== undefined ? [`task_id: ${args.task_id}`] : []),
        `waited_ms: ${Math.round(waited)}`,
        `timeout_ms: ${timeoutMs}`,
      ];
      let targets = ctx.background.list().filter(isKimiTask);
      if (args.task_id !== undefined) {
        const task = ctx.background.get(args.task_id);
        if (!task || !isKimiTask(task)) return { output: `Task not found: ${args.task_id}`, isError: true };
        targets = [task];
      } else {
        targets = targets.filter((p) => p.status === "running");
        if (targets.length === 0)
          return { output: `${head("no_tasks", 0).join("\n")}\n\n${NOTHING_RUNNING}` };
      }
      const started = performance.now();
      const ended = await firstEnded(targets, timeoutMs, ctx.signal);
      const waited = performance.now() - started;
      if (!ended) {
        const running = targets.filter((p) => p.status === "running");
        return {
          output: `${[...head("timed_out", waited), TIMED_OUT].join("\n")}\n\n[still_running]\n${taskList(running, true)}`,
        };
      }
      ended.silence();
      const lines = [
        `wait_status: completed`,
        `task_id: ${ended.id}`,
        `waited_ms: ${Math.round(waited)}`,
        `timeout_ms: ${timeoutMs}`,
      ];
      return { output: `${lines.join("\n")}\n\n[finished]\n${await taskWithOutput(ended)}` };
    },
  };
}
