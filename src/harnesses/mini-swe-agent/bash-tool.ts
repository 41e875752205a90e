import { constants } from "node:os";
import { z } from "zod";
import { fence } from "../../tools/markdown-fence.js";
import type { Tool } from "../../tools/types.js";
import { formatObservation, formatTimeout } from "./observation.js";

/** mini-swe-agent's `LocalEnvironmentConfig.timeout` (seconds). */
export const COMMAND_TIMEOUT_MS = 30_000;

const Args = z.looseObject({ command: z.string() });
type Args = z.infer<typeof Args>;

/**
 * The one action mini-swe-agent has: run a command in a fresh subshell (`subprocess.run(...,
 * shell=True, stderr=STDOUT)`) and answer with the observation template. Never sent as a tool
 * schema; the harness parses it out of a fenced bash block. The schema is mini-swe-agent v2's
 * `BASH_TOOL`, kept so calls render in other harnesses' terms.
 */
export function bashTool(): Tool<Args> {
  return {
    name: "bash",
    description: "Run one bash command",
    kind: "execute",
    capability: "exec",
    parameters: {
      type: "object",
      properties: { command: { type: "string", description: "The bash command to run" } },
      required: ["command"],
    },
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: ctx.cwd }),
    async execute(args, ctx) {
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs: COMMAND_TIMEOUT_MS,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const display = [{ type: "text" as const, text: fence(result.output) }];
      if (result.timedOut) {
        return { output: formatTimeout({ ...result, command: args.command }), isError: true, display };
      }
      // Python reports a process killed by a signal as the negative signal number.
      const returncode =
        result.exitCode ??
        -((result.signal && constants.signals[result.signal as keyof typeof constants.signals]) || 1);
      return { output: formatObservation({ ...result, returncode }), isError: returncode !== 0, display };
    },
  };
}
