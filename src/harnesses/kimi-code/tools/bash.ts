import { rm, stat } from "node:fs/promises";
import { constants } from "node:os";
import path from "node:path";
import { z } from "zod";
import type { BackgroundProcess } from "../../../tools/exec/background-processes.js";
import { readOutputTail } from "../../../tools/exec/read-output-tail.js";
import { fence } from "../../../tools/markdown-fence.js";
import type { ExecResult, Tool } from "../../../tools/types.js";
import { BACKGROUND_TIMEOUT_S, startedText, startKimiTask } from "../kimi-tasks.js";
import { OutputBuilder } from "../output-builder.js";
import { savedOutput } from "../saved-output.js";
import { bashSchema } from "../tool-schemas.js";
import description from "./bash.md";

export const DEFAULT_TIMEOUT_S = 60;

/** 2.1.0 checks only that a timeout is a positive integer: no upper bound at validation. */
const Args = z.object({
  command: z.string().min(1, "Command cannot be empty."),
  cwd: z.string().optional(),
  timeout: z.number().int().positive().optional(),
  description: z.string().optional(),
  run_in_background: z.boolean().optional(),
  disable_timeout: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `Bash` with its task tools on (kimi-code `agent/tools/os/bash/bashTool.ts`).
 * `run_in_background` starts a task (a `description` is required) that runs until it ends, its
 * own limit (600 s unless `timeout` or `disable_timeout` say otherwise) or TaskStop. A
 * foreground command that reaches its `timeout` (60 s by default) is not killed: it becomes such a
 * task and the call answers with what it printed so far. Otherwise the output goes through the
 * 50 000 / 2 000 character builder; an output over 50 000 characters becomes the saved-output
 * block that points at the task's whole log.
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
      const cwd = resolveCwd(args, ctx.cwd);
      const info = await stat(cwd).catch(() => undefined);
      if (!info?.isDirectory()) {
        // What upstream's `cd '<cwd>' && <command>` prints when the directory is missing.
        const output = `bash: line 1: cd: ${cwd}: ${info ? "Not a directory" : "No such file or directory"}\nCommand failed with exit code: 1.`;
        return { output, isError: true };
      }
      const task = { command: args.command, cwd, scratchDir: options.scratchDir, ctx };
      if (args.run_in_background === true) {
        if (!args.description)
          return { output: "description is required when run_in_background is true.", isError: true };
        const timeoutS = args.timeout ?? BACKGROUND_TIMEOUT_S;
        const process = await startKimiTask({
          ...task,
          description: args.description,
          ...(args.disable_timeout ? {} : { timeoutMs: timeoutS * 1000 }),
        });
        return { output: startedText(process) };
      }
      const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
      const process = await startKimiTask({ ...task, description: `Bash: ${args.command}` });
      const chunk = await process.next({
        waitMs: timeoutS * 1000,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      if (!chunk.exit && !ctx.signal.aborted) {
        return {
          output: startedText(process, { output: chunk.output.text }),
          display: [{ type: "text", text: fence(chunk.output.text) }],
        };
      }
      // Ended in the foreground (or cancelled there): never a task the model was told of.
      process.silence();
      if (!chunk.exit) await ctx.background.kill(process.id);
      ctx.background.forget(process.id);
      const result = process.exit as ExecResult;
      const built = formatBashResult(result, timeoutS);
      const saved = built.truncated
        ? await savedBlock(process, built.message, ctx.callId, options.scratchDir)
        : undefined;
      if (!saved && process.outputFile)
        await rm(path.dirname(process.outputFile), { recursive: true, force: true });
      const display = [{ type: "text" as const, text: fence(result.output) }];
      return { output: saved ?? built.output, isError: built.isError, display };
    },
  };
}

function resolveCwd(args: Args, cwd: string): string {
  return args.cwd ? path.resolve(cwd, args.cwd) : cwd;
}

/**
 * Upstream's `foregroundCompletionResult` for a command that ended in the foreground, with the
 * status line alone (`message`), which closes a saved-output block.
 */
export function formatBashResult(result: ExecResult, timeoutS: number) {
  const builder = new OutputBuilder();
  builder.write(result.output);
  const close = (message: string, ok = false) => ({
    ...(ok ? builder.ok(message) : builder.error(message)),
    message,
  });
  if (result.timedOut) return close(`Command killed by timeout (${timeoutS}s)`);
  if (result.aborted) return close("Interrupted by user");
  const exitCode = result.exitCode ?? signalExitCode(result.signal);
  if (exitCode === 0) return close("Command executed successfully.", true);
  if (builder.chars === 0) builder.write(`Process exited with code ${exitCode}`);
  return close(`Command failed with exit code: ${exitCode}.`);
}

/** A process killed by a signal reports as the shell would: 128 + the signal number. */
function signalExitCode(signal: string | null): number {
  const number = signal ? constants.signals[signal as keyof typeof constants.signals] : undefined;
  return number === undefined ? 1 : 128 + number;
}

/**
 * 2.1.0's block for a foreground output over 50 000 characters: the task's log is the saved
 * file, previewed head and tail, closed by the status line and the task's lines. Undefined when
 * the whole output fits and only long lines were cut: the builder's text goes as it is then.
 */
async function savedBlock(
  process: BackgroundProcess,
  message: string,
  callId: string | undefined,
  scratchDir: string,
): Promise<string | undefined> {
  const file = process.outputFile;
  // The whole log: the background table's file cap bounds it.
  const text = file
    ? (await readOutputTail(file, Number.MAX_SAFE_INTEGER).catch(() => undefined))?.text
    : undefined;
  if (!file || text === undefined) return undefined;
  const bytes = Buffer.byteLength(text);
  const suffix = [
    message,
    `task_id: ${process.id}`,
    `output_size_bytes: ${bytes}`,
    `next_step: Use TaskOutput(task_id="${process.id}") to query the task output.`,
  ].join("\n");
  return savedOutput({
    toolName: "Bash",
    callId: callId ?? "",
    text,
    scratchDir,
    savedAt: { outputPath: file, totalChars: text.length },
    suffix,
  });
}
