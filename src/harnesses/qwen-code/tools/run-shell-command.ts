import path from "node:path";
import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { ExecResult, Tool } from "../../../tools/types.js";
import { signalNumber } from "../../shared/gemini-core/signal-number.js";
import { stripAnsi } from "../../shared/gemini-core/strip-ansi.js";
import { startQwenBackground } from "../background-shell.js";
import description from "../descriptions/run-shell-command.md";
import { runShellCommandSchema } from "../tool-schemas.js";
import { SHELL_PREVIEW_CHARS, truncateToolOutput } from "../truncate.js";
import { failure } from "./qwen-paths.js";

const Args = z.looseObject({
  command: z.string(),
  is_background: z.boolean().optional(),
  timeout: z.number().optional(),
  description: z.string().optional(),
  directory: z.string().optional(),
});
type Args = z.infer<typeof Args>;

/** Qwen Code's default and maximum shell timeouts. */
export const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;

/**
 * Qwen Code `run_shell_command` (QwenLM/qwen-code `packages/core/src/tools/shell.ts`): the seven
 * `Command:`/`Directory:`/`Output:`/`Error:`/`Exit Code:`/`Signal:`/`Process Group PGID:` lines,
 * 2-minute default timeout, output over 25 000 characters or 1 000 lines spilled to a file with a
 * 4 000-character preview (the preview is not cut by lines). `is_background` starts a shell that
 * runs for the session (`background-shell.ts`); its end is told with the next prompt.
 */
export function runShellCommandTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "run_shell_command",
    description: description.trimEnd(),
    kind: "execute",
    capability: "exec",
    parameters: runShellCommandSchema(),
    schema: Args,
    preview: async (args) => ({
      title: args.description ? `${args.command} (${args.description})` : args.command,
    }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: args.directory || ctx.cwd }),
    async execute(args, ctx) {
      const invalid = validate(args, ctx.roots.length > 0 ? ctx.roots : [ctx.cwd]);
      if (invalid) return failure(invalid);
      if (args.is_background) {
        const output = await startQwenBackground({
          command: args.command,
          cwd: args.directory || ctx.cwd,
          scratchDir: options.scratchDir,
          ctx,
        });
        return { output };
      }
      const timeoutMs = args.timeout ?? DEFAULT_TIMEOUT_MS;
      const result = await ctx.exec.run({
        command: args.command,
        cwd: args.directory || ctx.cwd,
        timeoutMs,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const truncated = await truncateToolOutput({
        content: formatShellResult(args, result, timeoutMs),
        toolName: "run_shell_command",
        dir: options.scratchDir,
        fs: ctx.fs,
        previewChars: SHELL_PREVIEW_CHARS,
        previewLines: Number.POSITIVE_INFINITY,
      });
      return {
        output: truncated.content,
        isError: result.exitCode !== 0,
        display: [{ type: "text", text: fence(result.output) }],
      };
    },
  };
}

/** The text Qwen Code's shell tool returns; there is no process group id, so PGID is `(none)`. */
export function formatShellResult(args: Args, result: ExecResult, timeoutMs: number): string {
  const output = stripAnsi(result.output).trim();
  if (result.timedOut) {
    return `Command timed out after ${timeoutMs}ms before it could complete.${
      output
        ? ` Below is the output before it timed out:\n${output}`
        : " There was no output before it timed out."
    }`;
  }
  if (result.aborted) {
    return `Command was cancelled by user before it could complete.${
      output
        ? ` Below is the output before it was cancelled:\n${output}`
        : " There was no output before it was cancelled."
    }`;
  }
  return [
    `Command: ${args.command}`,
    `Directory: ${args.directory || "(root)"}`,
    `Output: ${output || "(empty)"}`,
    "Error: (none)",
    `Exit Code: ${result.exitCode ?? "(none)"}`,
    `Signal: ${result.signal ? signalNumber(result.signal) : "(none)"}`,
    "Process Group PGID: (none)",
  ].join("\n");
}

function validate(args: Args, roots: string[]): string | undefined {
  if (!args.command.trim()) return "Command cannot be empty.";
  if (args.timeout !== undefined) {
    if (!Number.isInteger(args.timeout)) return "Timeout must be an integer number of milliseconds.";
    if (args.timeout <= 0) return "Timeout must be a positive number.";
    if (args.timeout > MAX_TIMEOUT_MS) return "Timeout cannot exceed 600000ms (10 minutes).";
  }
  if (args.directory) {
    if (!path.isAbsolute(args.directory)) return "Directory must be an absolute path.";
    if (!roots.some((root) => args.directory!.startsWith(root))) {
      return `Directory '${args.directory}' is not within any of the registered workspace directories.`;
    }
  }
  return undefined;
}
