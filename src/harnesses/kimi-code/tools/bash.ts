import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import { constants } from "node:os";
import path from "node:path";
import { z } from "zod";
import { spillOutput } from "../../../tools/fs/spill-output.js";
import { fence } from "../../../tools/markdown-fence.js";
import type { ExecResult, Tool } from "../../../tools/types.js";
import { OutputBuilder } from "../output-builder.js";
import { bashSchema } from "../tool-schemas.js";
import description from "./bash.md";

export const DEFAULT_TIMEOUT_S = 60;
export const MAX_TIMEOUT_S = 300;
const MAX_BACKGROUND_TIMEOUT_S = 86_400;

/** Upstream's refusal when the task tools (TaskOutput, TaskStop) are not part of the surface. */
export const BACKGROUND_UNAVAILABLE =
  "Background execution is not available for this agent because TaskOutput and TaskStop are not enabled.";

const Args = z
  .object({
    command: z.string().min(1, "Command cannot be empty."),
    cwd: z.string().optional(),
    timeout: z.number().int().positive().optional(),
    description: z.string().optional(),
    run_in_background: z.boolean().optional(),
    disable_timeout: z.boolean().optional(),
  })
  .superRefine((args, ctx) => {
    const background = args.run_in_background === true;
    const cap = background ? MAX_BACKGROUND_TIMEOUT_S : MAX_TIMEOUT_S;
    if (args.timeout !== undefined && args.timeout > cap) {
      ctx.addIssue({
        code: "custom",
        path: ["timeout"],
        message: `timeout must be ≤ ${cap}s (${background ? "background" : "foreground"})`,
      });
    }
  });
type Args = z.infer<typeof Args>;

/**
 * Kimi Code `Bash` as Kimi Code runs it when its task tools are off (kimi-code
 * `agent/tools/os/bash/bashTool.ts`): foreground only, a timed-out command is killed, output
 * goes through the 50 000 / 2 000 character builder, and a cut output is saved whole to a log
 * the model can page with Read (`[Full output saved]` block).
 */
export function bashTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "Bash",
    description,
    kind: "execute",
    capability: "exec",
    parameters: bashSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: resolveCwd(args, ctx.cwd) }),
    async execute(args, ctx) {
      if (args.run_in_background === true) return { output: BACKGROUND_UNAVAILABLE, isError: true };
      const cwd = resolveCwd(args, ctx.cwd);
      const info = await stat(cwd).catch(() => undefined);
      if (!info?.isDirectory()) {
        // What upstream's `cd '<cwd>' && <command>` prints when the directory is missing.
        const output = `bash: line 1: cd: ${cwd}: ${info ? "Not a directory" : "No such file or directory"}\nCommand failed with exit code: 1.`;
        return { output, isError: true };
      }
      const timeoutS = Math.min(args.timeout ?? DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S);
      const result = await ctx.exec.run({
        command: args.command,
        cwd,
        timeoutMs: timeoutS * 1000,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const built = formatBashResult(result, timeoutS);
      let output = built.output;
      if (built.truncated) output += await saveFullOutput(result.output, options.scratchDir);
      return { output, isError: built.isError, display: [{ type: "text", text: fence(result.output) }] };
    },
  };
}

function resolveCwd(args: Args, cwd: string): string {
  return args.cwd ? path.resolve(cwd, args.cwd) : cwd;
}

/** Upstream's `foregroundCompletionResult`, minus the background branches. */
export function formatBashResult(result: ExecResult, timeoutS: number) {
  const builder = new OutputBuilder();
  builder.write(result.output);
  if (result.timedOut) return builder.error(`Command killed by timeout (${timeoutS}s)`);
  if (result.aborted) return builder.error("Interrupted by user");
  const exitCode = result.exitCode ?? signalExitCode(result.signal);
  if (exitCode === 0) return builder.ok("Command executed successfully.");
  if (builder.chars === 0) builder.write(`Process exited with code ${exitCode}`);
  return builder.error(`Command failed with exit code: ${exitCode}.`);
}

/** A process killed by a signal reports as the shell would: 128 + the signal number. */
function signalExitCode(signal: string | null): number {
  const number = signal ? constants.signals[signal as keyof typeof constants.signals] : undefined;
  return number === undefined ? 1 : 128 + number;
}

/** Kimi Code's `[Full output saved]` reference; `bash-` + 8 base-36 characters like its task ids. */
async function saveFullOutput(text: string, scratchDir: string): Promise<string> {
  const taskId = `bash-${taskSuffix()}`;
  const saved = await spillOutput({
    text,
    dir: path.join(scratchDir, "tasks", taskId),
    name: "output.log",
    maxBytes: -1,
  });
  if (!saved.spilled) return "";
  return (
    "\n\n[Full output saved]\n" +
    `task_id: ${taskId}\n` +
    `output_path: ${saved.path}\n` +
    `output_size_bytes: ${saved.totalBytes}\n` +
    "next_step: Use Read with output_path to page through the full log."
  );
}

function taskSuffix(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  return [...randomBytes(8)].map((byte) => alphabet[byte % alphabet.length]).join("");
}
