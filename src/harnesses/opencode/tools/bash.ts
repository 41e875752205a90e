import path from "node:path";
import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool } from "../../../tools/types.js";
import { saveToolOutput, tailLines } from "../output-tail.js";
import { bashSchema } from "../tool-schemas.js";
import description from "./bash.md";

/** opencode's default command timeout (`bashDefaultTimeoutMs`). */
export const OPENCODE_BASH_TIMEOUT_MS = 120_000;

const Args = z.looseObject({
  command: z.string(),
  timeout: z.number().int().optional(),
  workdir: z.string().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * opencode `bash` (1.18.33 `tool/shell.ts`): stdout and stderr merged, no exit status (a failing
 * command is an ordinary result), the newest 2,000 lines / 51,200 bytes kept with the whole
 * output saved to a file named above them, `(no output)` for silence, and a timeout or abort told
 * in a `<shell_metadata>` block after the output.
 */
export function bashTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "bash",
    description: description.trimEnd(),
    kind: "execute",
    capability: "exec",
    parameters: bashSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: workdir(args, ctx.cwd) }),
    async execute(args, ctx) {
      if (args.timeout !== undefined && args.timeout < 0)
        return {
          output: `Invalid timeout value: ${args.timeout}. Timeout must be a positive number.`,
          isError: true,
        };
      const timeout = args.timeout ?? OPENCODE_BASH_TIMEOUT_MS;
      const result = await ctx.exec.run({
        command: args.command,
        cwd: workdir(args, ctx.cwd),
        timeoutMs: timeout,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const tail = tailLines(result.output);
      let output = tail.text || "(no output)";
      if (tail.cut || result.droppedBytes > 0) {
        const file = await saveToolOutput(result.output, options.scratchDir);
        output = `...output truncated...\n\nFull output saved to: ${file}\n\n${output}`;
      }
      const notes: string[] = [];
      if (result.timedOut)
        notes.push(
          `shell tool terminated command after exceeding timeout ${timeout} ms. If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.`,
        );
      if (result.aborted) notes.push("User aborted the command");
      if (notes.length > 0) output += `\n\n<shell_metadata>\n${notes.join("\n")}\n</shell_metadata>`;
      return { output, display: [{ type: "text", text: fence(result.output) }] };
    },
  };
}

function workdir(args: Args, cwd: string): string {
  return args.workdir ? path.resolve(cwd, args.workdir) : cwd;
}
