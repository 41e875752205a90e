import { randomBytes } from "node:crypto";
import { z } from "zod";
import { spillOutput } from "../../../../tools/fs/spill-output.js";
import { fence } from "../../../../tools/markdown-fence.js";
import type { ExecResult, Tool } from "../../../../tools/types.js";
import { bashDescription, bashSchema } from "../tool-schemas.js";
import { formatSize, PI_MAX_BYTES, truncateTail } from "../truncate.js";

const Args = z.looseObject({ command: z.string(), timeout: z.number().optional() });
type Args = z.infer<typeof Args>;

/**
 * pi `bash` (pi `core/tools/bash.ts`): merged stdout/stderr, tail-truncated at 2000 lines /
 * 50KB with a note naming the file that holds the full output; a non-zero exit appends
 * `Command exited with code N` and fails the call; no timeout unless the model sets one.
 */
export function bashTool(options: { scratchDir: string }): Tool<Args> {
  return {
    name: "bash",
    description: bashDescription,
    kind: "execute",
    capability: "exec",
    parameters: bashSchema,
    schema: Args,
    preview: async (args) => ({ title: args.command }),
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: ctx.cwd }),
    async execute(args, ctx) {
      const seconds = args.timeout !== undefined && args.timeout > 0 ? args.timeout : undefined;
      const result = await ctx.exec.run({
        command: args.command,
        cwd: ctx.cwd,
        timeoutMs: seconds === undefined ? Number.POSITIVE_INFINITY : seconds * 1000,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const formatted = await formatBash({ result, timeout: seconds, scratchDir: options.scratchDir });
      return { ...formatted, display: [{ type: "text", text: fence(result.output) }] };
    },
  };
}

export async function formatBash(input: {
  result: ExecResult;
  timeout?: number;
  scratchDir: string;
}): Promise<{ output: string; isError: boolean }> {
  const { result } = input;
  const t = truncateTail(result.output);
  if (result.aborted || result.timedOut) {
    const reason = result.aborted ? "Command aborted" : `Command timed out after ${input.timeout} seconds`;
    return { output: t.content ? `${t.content}\n\n${reason}` : reason, isError: true };
  }
  let output = t.content || "(no output)";
  if (t.truncated) {
    // Truncated output is never empty, so a zero limit always writes the file.
    const name = `pi-bash-${randomBytes(8).toString("hex")}.log`;
    const spill = await spillOutput({ text: result.output, dir: input.scratchDir, name, maxBytes: 0 });
    const file = spill.spilled ? spill.path : name;
    // The runner may have dropped the middle of a huge output: count lines of the whole stream.
    const total =
      result.droppedBytes > 0 ? result.totalLines + (result.output.endsWith("\n") ? 1 : 0) : t.totalLines;
    const first = total - t.outputLines + 1;
    if (t.lastLinePartial) {
      const lineSize = formatSize(Buffer.byteLength(result.output.split("\n").pop() ?? "", "utf8"));
      output += `\n\n[Showing last ${formatSize(t.outputBytes)} of line ${total} (line is ${lineSize}). Full output: ${file}]`;
    } else if (t.truncatedBy === "lines") {
      output += `\n\n[Showing lines ${first}-${total} of ${total}. Full output: ${file}]`;
    } else {
      output += `\n\n[Showing lines ${first}-${total} of ${total} (${formatSize(PI_MAX_BYTES)} limit). Full output: ${file}]`;
    }
  }
  if (result.exitCode !== 0 && result.exitCode !== null) {
    return { output: `${output}\n\nCommand exited with code ${result.exitCode}`, isError: true };
  }
  return { output, isError: false };
}
