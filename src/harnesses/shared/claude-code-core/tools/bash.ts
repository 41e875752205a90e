import { z } from "zod";
import { fence } from "../../../../tools/markdown-fence.js";
import type { ExecResult, Tool } from "../../../../tools/types.js";
import { formatDuration, toolUseError, truncateBashOutput } from "../format.js";
import { bashSchema } from "../tool-schemas.js";
import description from "./bash.md";

/** Claude Code's default and maximum `timeout` (ms). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;

/** What a successful command with no output returns (Claude Code 2.x). */
export const EMPTY_OUTPUT = "(Bash completed with no output)";

export const BACKGROUND_UNSUPPORTED =
  "run_in_background is not supported here: commands run in the foreground until they finish or time out. Run the command again without run_in_background, with a timeout that fits (up to 600000 ms).";

const Args = z.looseObject({
  command: z.string().min(1),
  timeout: z.number().positive().nullish(),
  description: z.string().nullish(),
  run_in_background: z.boolean().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code `Bash`. The result is the combined output with leading blank lines and trailing
 * whitespace removed, cut after 30 000 characters with `... [N lines truncated] ...`; a failing
 * command starts with `Exit code N`; a timeout adds `Command timed out after …` (exit 143); an
 * interrupted one ends with `<error>Command was aborted before completion</error>`.
 *
 * Each call runs in a fresh shell in the session's cwd: unlike Claude Code's persistent shell,
 * a `cd` does not carry over (the description says so). Background runs are refused.
 */
export function bashTool(options: { description?: string } = {}): Tool<Args> {
  return {
    name: "Bash",
    description: options.description ?? description,
    kind: "execute",
    capability: "exec",
    parameters: bashSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) =>
      args.run_in_background ? { type: "none" } : { type: "exec", command: args.command, cwd: ctx.cwd },
    async execute(args, ctx) {
      if (args.run_in_background) return { output: toolUseError(BACKGROUND_UNSUPPORTED), isError: true };
      const timeoutMs = Math.min(args.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const failed = result.timedOut || result.aborted || result.exitCode !== 0;
      return {
        output: formatBashResult(result, timeoutMs),
        isError: failed,
        display: [{ type: "text", text: fence(result.output) }],
      };
    },
  };
}

/** The text Claude Code's Bash hands back for a finished (or killed) command. */
export function formatBashResult(result: ExecResult, timeoutMs: number): string {
  const extraLines = result.droppedBytes > 0 ? Math.max(0, result.totalLines - countLines(result.output)) : 0;
  const body = truncateBashOutput(result.output.replace(/^(\s*\n)+/, "").trimEnd(), extraLines);
  const parts: string[] = [];
  if (result.timedOut) {
    parts.push("Exit code 143", body, `Command timed out after ${formatDuration(timeoutMs)}`);
  } else if (result.aborted) {
    parts.push(body, "<error>Command was aborted before completion</error>");
  } else if (result.exitCode !== 0) {
    parts.push(`Exit code ${result.exitCode ?? 1}`, body);
  } else {
    parts.push(body || EMPTY_OUTPUT);
  }
  return parts.filter(Boolean).join("\n");
}

function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}
