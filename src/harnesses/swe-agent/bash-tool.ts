import { z } from "zod";
import { fence } from "../../tools/markdown-fence.js";
import type { Tool } from "../../tools/types.js";
import { EXECUTION_TIMEOUT_S, formatObservation, formatTimeout } from "./observation.js";

const Args = z.looseObject({ command: z.string() });
type Args = z.infer<typeof Args>;

/**
 * The action SWE-agent runs: the command from the reply's code block, with stdout and stderr
 * merged and no exit code shown, answered with the step template. Never sent as a tool schema
 * (the harness parses it out of the reply); the schema is SWE-agent's `bash` tool, kept so
 * the call reads the same under other harnesses. Each command runs in a fresh shell, as
 * upstream Open Interpreter runs SWE-agent's actions.
 */
export function bashTool(): Tool<Args> {
  return {
    name: "bash",
    description: "runs the given command directly in bash",
    kind: "execute",
    capability: "exec",
    parameters: {
      type: "object",
      properties: { command: { type: "string", description: "The bash command to execute." } },
      required: ["command"],
    },
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: ctx.cwd }),
    async execute(args, ctx) {
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs: EXECUTION_TIMEOUT_S * 1000,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const display = [{ type: "text" as const, text: fence(result.output) }];
      if (result.timedOut) return { output: formatTimeout(args.command), isError: true, display };
      const failed = result.exitCode !== 0;
      return { output: formatObservation(result.output, result.droppedBytes), isError: failed, display };
    },
  };
}
