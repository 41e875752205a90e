import { z } from "zod";
import { fence } from "../../../../tools/markdown-fence.js";
import type { ExecResult, Tool, ToolContext, ToolResult } from "../../../../tools/types.js";
import { formatDuration, toolUseError } from "../format.js";
import { persistLargeOutput } from "../persisted-output.js";
import { bashSchema } from "../tool-schemas.js";
import description from "./bash.md";

/** Claude Code's default and maximum `timeout` (ms). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;

export const BACKGROUND_UNSUPPORTED =
  "run_in_background is not supported here: commands run in the foreground until they finish or time out. Run the command again without run_in_background, with a timeout that fits (up to 600000 ms).";

const Args = z.looseObject({
  command: z.string().min(1),
  timeout: z.number().positive().nullish(),
  description: z.string().nullish(),
  run_in_background: z.boolean().nullish(),
  /** Accepted and ignored: whether a command leaves the sandbox is the permission settings' call. */
  dangerouslyDisableSandbox: z.boolean().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code 2.1.44 `Bash`. The result is the output with leading blank lines and trailing
 * whitespace removed (empty when there is none); a failing command starts with `Exit code N`
 * and shows stderr before stdout; output above 30 000 characters is saved to a file in the
 * session's scratch folder and shown as a `<persisted-output>` preview; a timeout adds `Command
 * timed out after …` (exit 143); an interrupted one ends with `<error>Command was aborted
 * before completion</error>`.
 *
 * Each call runs in a fresh shell in the session's cwd: unlike Claude Code's persistent shell,
 * a `cd` does not carry over (the description says so). `run_in_background` goes to
 * `background` where the profile has the task tools to read and stop such a command, and is
 * refused where it has not.
 */
export function bashTool(options: {
  scratchDir: string;
  description?: string;
  background?: (args: { command: string; description?: string | null }, ctx: ToolContext) => ToolResult;
}): Tool<Args> {
  let saved = 0;
  return {
    name: "Bash",
    description: options.description ?? description,
    kind: "execute",
    capability: "exec",
    parameters: bashSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    // A refused background command runs nothing, so nobody is asked to approve it.
    access: (args, ctx) =>
      args.run_in_background && !options.background
        ? { type: "none" }
        : { type: "exec", command: args.command, cwd: ctx.cwd },
    async execute(args, ctx) {
      if (args.run_in_background) {
        if (options.background) return options.background(args, ctx);
        return { output: toolUseError(BACKGROUND_UNSUPPORTED), isError: true };
      }
      const timeoutMs = Math.min(args.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const failed = result.timedOut || result.aborted || result.exitCode !== 0;
      const output = await persistLargeOutput({
        text: bashOutputText(result),
        fs: ctx.fs,
        dir: options.scratchDir,
        name: `bash-${Date.now().toString(36)}-${++saved}`,
      });
      return {
        output: formatBashResult(result, timeoutMs, output),
        isError: failed,
        display: [{ type: "text", text: fence(result.output) }],
      };
    },
  };
}

/**
 * The output part of a result: stderr before stdout for a failed command (as 2.1.44 shows
 * `Exit code 3\nerr\n\nline1\nline2`), the combined output in arrival order otherwise.
 */
export function bashOutputText(result: ExecResult): string {
  const tidy = (text: string) => text.replace(/^(\s*\n)+/, "").trimEnd();
  const failed = result.exitCode !== 0 && !result.timedOut && !result.aborted;
  if (!failed || !result.streams) return tidy(result.output);
  return [tidy(result.streams.stderr), tidy(result.streams.stdout)].filter(Boolean).join("\n\n");
}

/** The text Claude Code's Bash hands back for a finished (or killed) command. */
export function formatBashResult(
  result: ExecResult,
  timeoutMs: number,
  body = bashOutputText(result),
): string {
  const parts: string[] = [];
  if (result.timedOut) {
    parts.push("Exit code 143", body, `Command timed out after ${formatDuration(timeoutMs)}`);
  } else if (result.aborted) {
    parts.push(body, "<error>Command was aborted before completion</error>");
  } else if (result.exitCode !== 0) {
    parts.push(`Exit code ${result.exitCode ?? 1}`, body);
  } else {
    parts.push(body);
  }
  return parts.filter(Boolean).join("\n");
}
