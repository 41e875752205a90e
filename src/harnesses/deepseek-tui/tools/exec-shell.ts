import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool } from "../../../tools/types.js";
import { failed, forContext } from "../tool-result.js";
import { execShellSchema } from "../tool-schemas.js";
import description from "./exec-shell.md";
import { resolvePath } from "./resolve-path.js";
import { capStream, summarizeOutput } from "./shell-output.js";
import { startShellTask } from "./shell-tasks.js";

const Args = z.looseObject({
  command: z.string(),
  timeout_ms: z.number().int().optional(),
  background: z.boolean().optional(),
  interactive: z.boolean().optional(),
  stdin: z.string().optional(),
  cwd: z.string().optional(),
  tty: z.boolean().optional(),
  combined_output: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

const TIMEOUT_HINT =
  "Foreground exec_shell is for bounded commands. The timed-out process was killed; rerun long work with task_shell_start or exec_shell with background: true, then poll with task_shell_wait or exec_shell_wait.";

/** Why a run mode is refused: terminal input (exec_shell_interact, PTYs) is pending. */
const NO_INTERACTIVE =
  "interactive, tty and stdin runs are not available in this harness; run the command without them";

/**
 * CodeWhale `exec_shell` (0.8.44 `tools/shell.rs`); `background` starts a task for
 * `exec_shell_wait`. In the foreground: 120 s by default, 600 s at
 * most; stdout alone, or with `STDERR:` after it, `(no output)` for silence; a failure, timeout or
 * cancel says so above both streams. Each stream is capped at 30,000 bytes (head and tail), then
 * the engine compacts a long result around its first lines.
 */
export function execShellTool(options: { model: string }): Tool<Args> {
  return {
    name: "exec_shell",
    description: description.trimEnd(),
    kind: "execute",
    capability: "exec",
    parameters: execShellSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({
      type: "exec",
      command: args.command,
      cwd: resolvePath(args.cwd ?? ".", ctx.cwd),
    }),
    async execute(args, ctx) {
      if (args.interactive || args.tty || args.stdin !== undefined) return failed(NO_INTERACTIVE);
      if (args.background) {
        const task = startShellTask({
          command: args.command,
          cwd: resolvePath(args.cwd ?? ".", ctx.cwd),
          ctx,
        });
        return { output: `Background task started: ${task.id}` };
      }
      const timeout = Math.min(args.timeout_ms ?? 120_000, 600_000);
      const result = await ctx.exec.run({
        command: args.command,
        cwd: resolvePath(args.cwd ?? ".", ctx.cwd),
        timeoutMs: timeout,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const stdout = capStream(result.streams?.stdout ?? result.output);
      const stderr = capStream(result.streams?.stderr ?? "");
      const both = `STDOUT:\n${stdout}\n\nSTDERR:\n${stderr}`;
      let output: string;
      const ok = result.exitCode === 0 && !result.timedOut && !result.aborted;
      if (ok)
        output = !stdout && !stderr ? "(no output)" : stderr ? `${stdout}\n\nSTDERR:\n${stderr}` : stdout;
      else if (result.aborted) output = `Command canceled; process killed.\n\n${both}`;
      else if (result.timedOut)
        output = `Command timed out after ${timeout}ms; process killed.\n\n${TIMEOUT_HINT}\n\n${both}`;
      else
        output = `Command failed (exit code: ${result.exitCode === null ? "None" : `Some(${result.exitCode})`})\n\n${both}`;
      const summary = summarizeOutput(stderr) || summarizeOutput(stdout);
      return {
        output: forContext({ model: options.model, tool: "exec_shell", output, summary }),
        ...(ok ? {} : { isError: true }),
        display: [{ type: "text", text: fence(result.output) }],
      };
    },
  };
}
