import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { BackgroundProcess } from "../../../tools/exec/background-processes.js";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool, ToolContext } from "../../../tools/types.js";
import { failed, forContext } from "../tool-result.js";
import { execShellCancelSchema, execShellWaitSchema } from "../tool-schemas.js";
import cancelDescription from "./exec-shell-cancel.md";
import waitDescription from "./exec-shell-wait.md";
import { capStream } from "./shell-output.js";

const OWNER = "deepseek-tui";

/**
 * Starts `command` as one of CodeWhale's background shell tasks (`shell_` and eight hex digits),
 * for the session's life; `exec_shell_wait` and `exec_shell_cancel` find it by that id.
 */
export function startShellTask(options: {
  command: string;
  cwd: string;
  ctx: ToolContext;
}): BackgroundProcess {
  const { ctx } = options;
  return ctx.background.start({
    exec: ctx.exec,
    command: options.command,
    cwd: options.cwd,
    signal: ctx.sessionSignal,
    id: (taken) => {
      let id: string;
      do id = `shell_${randomBytes(4).toString("hex")}`;
      while (taken(id));
      return id;
    },
    owner: OWNER,
    ...(ctx.callId ? { callId: ctx.callId } : {}),
  });
}

const WaitArgs = z.looseObject({
  task_id: z.string().optional(),
  id: z.string().optional(),
  timeout_ms: z.number().int().optional(),
  wait: z.boolean().optional(),
});
const CancelArgs = z.looseObject({
  task_id: z.string().optional(),
  id: z.string().optional(),
  all: z.boolean().optional(),
});

const QUIET: Record<BackgroundProcess["status"], (p: BackgroundProcess) => string> = {
  running: () => "Background task running (no new output).",
  completed: () => "(no new output)",
  failed: (p) =>
    `Command failed (exit code: ${p.exit?.exitCode == null ? "None" : `Some(${p.exit.exitCode})`})`,
  timed_out: () => "Command timed out (no new output).",
  killed: () => "Command killed (no new output).",
};

const ownTask = (ctx: ToolContext, id: string | undefined) => {
  const task = id ? ctx.background.get(id) : undefined;
  return task?.owner === OWNER ? task : undefined;
};

/**
 * CodeWhale's `exec_shell_wait` and its alias `exec_wait` (0.8.44 `tools/shell.rs` `ShellWaitTool`):
 * the output since the last look, waiting up to `timeout_ms` (1 s to 600 s, 30 s by default) for
 * the end unless `wait` is false; silence is told by the task's status; a cancelled turn stops
 * the wait and says the task runs on. Output is one stream here (stdout and stderr together).
 */
export function shellWaitTool(options: {
  name: "exec_shell_wait" | "exec_wait";
  model: string;
}): Tool<z.infer<typeof WaitArgs>> {
  return {
    name: options.name,
    description: waitDescription.trimEnd(),
    kind: "execute",
    capability: "other",
    parameters: execShellWaitSchema,
    schema: WaitArgs,
    preview: async (args) => ({ title: `${options.name} ${args.task_id ?? args.id ?? ""}` }),
    // The command was approved when it started; waiting on it asks nothing more.
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const id = args.task_id ?? args.id;
      if (id === undefined) return failed(`Tool '${options.name}' is missing required field 'task_id'`);
      const task = ownTask(ctx, id);
      if (!task) return failed(`Task ${id} not found`);
      const waitMs = args.wait === false ? 0 : Math.min(Math.max(args.timeout_ms ?? 30_000, 1000), 600_000);
      const chunk = await task.next({ waitMs, signal: ctx.signal, onOutput: ctx.onProgress });
      if (task.status !== "running") task.silence();
      const text = capStream(chunk.output.text);
      let output = text || QUIET[task.status](task);
      if (ctx.signal.aborted && task.status === "running")
        output = `Wait canceled; background shell task ${id} is still running.\n\n${output}`;
      return {
        output: forContext({ model: options.model, tool: options.name, output }),
        ...(task.status === "completed" || task.status === "running" ? {} : { isError: true }),
        display: [{ type: "text", text: fence(chunk.output.text) }],
      };
    },
  };
}

/** CodeWhale's `exec_shell_cancel`: stops one task, or with `all` every running one, and names them. */
export function shellCancelTool(): Tool<z.infer<typeof CancelArgs>> {
  return {
    name: "exec_shell_cancel",
    description: cancelDescription.trimEnd(),
    kind: "execute",
    capability: "other",
    parameters: execShellCancelSchema,
    schema: CancelArgs,
    preview: async (args) => ({
      title: args.all ? "exec_shell_cancel all" : `exec_shell_cancel ${args.task_id ?? args.id ?? ""}`,
    }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (args.all) {
        const running = ctx.background.list().filter((p) => p.owner === OWNER && p.status === "running");
        if (running.length === 0) return { output: "No running background commands." };
        for (const p of running) p.silence();
        await Promise.all(running.map((p) => ctx.background.kill(p.id, "exec_shell_cancel")));
        const ids = running.map((p) => p.id);
        return {
          output: `Canceled ${ids.length} background command${ids.length === 1 ? "" : "s"}: ${ids.join(", ")}`,
        };
      }
      const id = args.task_id ?? args.id;
      if (id === undefined) return failed("Tool 'exec_shell_cancel' is missing required field 'task_id'");
      const task = ownTask(ctx, id);
      if (!task) return failed(`Task ${id} not found`);
      task.silence();
      await ctx.background.kill(task.id, "exec_shell_cancel");
      return { output: `Canceled background command: ${task.id}` };
    },
  };
}
