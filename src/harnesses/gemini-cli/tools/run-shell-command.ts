import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool } from "../../../tools/types.js";
import { resolveToolPath } from "../../shared/gemini-core/tool-paths.js";
import { startGeminiBackground } from "../background-shell.js";
import description from "../descriptions/run-shell-command.md";
import { formatShellOutput, SHELL_TIMEOUT_MS, spillShellOutput } from "../shell-output.js";
import { runShellCommandSchema } from "../tool-schemas.js";

const Args = z.looseObject({
  command: z.string(),
  description: z.string().optional(),
  dir_path: z.string().optional(),
  is_background: z.boolean().optional(),
  delay_ms: z.number().int().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Gemini CLI `run_shell_command`: `bash -c`, runs in `dir_path` (relative to the project) or the
 * project folder, Gemini's `Output:`/`Exit Code:` text inside `<untrusted_context>`, and output
 * beyond 40 000 characters spilled to a file under the session's scratch folder.
 * `is_background` starts the command for the rest of the session and answers after `delay_ms`
 * (200 by default) with its process group id, which list_background_processes and
 * read_background_output take.
 */
export function runShellCommandTool(options: { scratchDir: string }): Tool<Args> {
  const callIds = geminiCallIds("run_shell_command");
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
    access: (args, ctx) => ({ type: "exec", command: args.command, cwd: workdir(args, ctx.cwd) }),
    async execute(args, ctx) {
      if (!args.command.trim()) return { output: "Command cannot be empty.", isError: true };
      const cwd = workdir(args, ctx.cwd);
      const stat = await ctx.fs.stat(cwd);
      if (!stat?.isDirectory) return { output: `Directory '${cwd}' does not exist.`, isError: true };
      if (args.is_background) {
        const output = await startGeminiBackground({
          command: args.command,
          cwd,
          delayMs: args.delay_ms,
          scratchDir: options.scratchDir,
          ctx,
        });
        return { output };
      }
      const result = await ctx.exec.run({
        command: args.command,
        cwd,
        timeoutMs: SHELL_TIMEOUT_MS,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const output = await spillShellOutput({
        text: formatShellOutput(result),
        fs: ctx.fs,
        dir: options.scratchDir,
        sessionId: ctx.sessionId,
        callId: callIds(),
      });
      return {
        output,
        isError: result.exitCode !== 0,
        display: [{ type: "text", text: fence(result.output) }],
      };
    },
  };
}

/**
 * Gemini CLI's call ids, `<tool>_<unix ms>_<index in the model's batch>`: the index is 0 for a
 * lone call; calls within the same millisecond count up so their spilled files never collide.
 */
function geminiCallIds(tool: string): () => string {
  let last = 0;
  let index = 0;
  return () => {
    const now = Date.now();
    index = now === last ? index + 1 : 0;
    last = now;
    return `${tool}_${now}_${index}`;
  };
}

function workdir(args: Args, cwd: string): string {
  return args.dir_path ? resolveToolPath(cwd, args.dir_path) : cwd;
}
