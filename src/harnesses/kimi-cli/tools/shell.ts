import { constants } from "node:os";
import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool } from "../../../tools/types.js";
import { kimiError, ResultBuilder } from "../result-builder.js";
import { fillSlots } from "../slots.js";
import { formatTask, startTask } from "../tasks.js";
import { shellSchema } from "../tool-schemas.js";
import description from "./shell.md";

const MAX_FOREGROUND_TIMEOUT = 5 * 60;
const MAX_BACKGROUND_TIMEOUT = 24 * 60 * 60;

const Args = z
  .object({
    command: z.string(),
    timeout: z.number().int().min(1).max(MAX_BACKGROUND_TIMEOUT).default(60),
    run_in_background: z.boolean().default(false),
    description: z.string().default(""),
  })
  .superRefine((args, issues) => {
    if (args.run_in_background && !args.description.trim())
      issues.addIssue({ code: "custom", message: "description is required when run_in_background is true" });
    if (!args.run_in_background && args.timeout > MAX_FOREGROUND_TIMEOUT)
      issues.addIssue({
        code: "custom",
        message: `timeout must be <= ${MAX_FOREGROUND_TIMEOUT}s for foreground commands; use run_in_background=true for longer timeouts (up to ${MAX_BACKGROUND_TIMEOUT}s)`,
      });
  });
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `Shell` (`tools/shell/__init__.py`): a fresh `bash -c` per call with stdin
 * closed, stdout and stderr into one 50 000 / 2 000 character builder, killed at `timeout`
 * (60 s unless given, at most 300 s in the foreground). `run_in_background` starts a task
 * (`timeout` up to a day) and answers with its fields and 1.49.0's next steps; its end comes
 * back as a notification (tasks.ts).
 */
export function shellTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "Shell",
    description: fillSlots(description, { SHELL: "bash (`/bin/bash`)" }),
    kind: "execute",
    capability: "exec",
    parameters: shellSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: ctx.cwd }),
    async execute(args, ctx) {
      if (!args.command) return kimiError("Command cannot be empty.");
      if (args.run_in_background) {
        const task = await startTask({
          ctx,
          command: args.command,
          description: args.description.trim(),
          timeoutS: args.timeout,
          scratchDir: options.scratchDir,
        });
        const builder = new ResultBuilder();
        builder.write(
          [
            formatTask(task),
            "automatic_notification: true",
            "next_step: You will be automatically notified when it completes.",
            "next_step: Use TaskOutput with this task_id for a non-blocking status/output snapshot. Only set block=true when you intentionally want to wait.",
            "next_step: Use TaskStop only if the task must be cancelled.",
            "human_shell_hint: For users in the interactive shell, the only task-management slash command is /task. Do not suggest /task list, /task output, /task stop, or /tasks.",
          ].join("\n"),
        );
        return builder.ok("Background task started");
      }
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs: args.timeout * 1000,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const builder = new ResultBuilder();
      builder.write(result.output);
      const display = [{ type: "text" as const, text: fence(result.output) }];
      if (result.timedOut)
        return { ...builder.error(`Command killed by timeout (${args.timeout}s)`), display };
      const code = result.exitCode ?? signalCode(result.signal);
      if (code === 0) return { ...builder.ok("Command executed successfully."), display };
      return { ...builder.error(`Command failed with exit code: ${code}.`), display };
    },
  };
}

/** Python's `returncode` for a process a signal ended: the signal's number, negated. */
function signalCode(signal: string | null): number {
  const number = signal ? constants.signals[signal as keyof typeof constants.signals] : undefined;
  return number === undefined ? 1 : -number;
}
