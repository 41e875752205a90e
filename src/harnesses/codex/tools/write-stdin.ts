import { z } from "zod";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool } from "../../../tools/types.js";
import { type ExecChunkInput, formatExecChunk, type TruncationPolicy } from "../exec-output.js";
import { writeStdinSchema } from "../tool-schemas.js";
import { clamp, exitCodeOf } from "./exec-command.js";
import description from "./write-stdin.md";

/** Codex's wait for an empty `write_stdin` poll: 5 s unless asked, held to 5 s – 300 s. */
const POLL = { default: 5_000, min: 5_000, max: 300_000 };

const Args = z.looseObject({
  session_id: z.number().int(),
  chars: z.string().nullish(),
  yield_time_ms: z.number().nonnegative().nullish(),
  max_output_tokens: z.number().nonnegative().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * Codex `write_stdin`: waits for more output from a session `exec_command` left running and
 * answers in the same format. Commands run with stdin closed here (no PTY), so a write is
 * refused with a result that says so; an empty `chars` polls.
 */
export function writeStdinTool(options: { policy: TruncationPolicy }): Tool<Args> {
  return {
    name: "write_stdin",
    description,
    kind: "execute",
    capability: "other",
    parameters: writeStdinSchema,
    schema: Args,
    preview: async (args) => ({
      title: args.chars ? `Write to session ${args.session_id}` : `Wait for session ${args.session_id}`,
    }),
    // The command was approved when it started; reading its output asks nothing more.
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const process = ctx.background.get(String(args.session_id));
      if (!process)
        return { output: `write_stdin failed: Unknown process id ${args.session_id}`, isError: true };
      if (args.chars) return { output: `write_stdin failed: ${STDIN_CLOSED}`, isError: true };
      const waitMs = clamp(args.yield_time_ms ?? POLL.default, POLL.min, POLL.max);
      const chunk = await process.next({ waitMs, signal: ctx.signal, onOutput: ctx.onProgress });
      const input: ExecChunkInput = {
        waitedMs: chunk.waitedMs,
        output: chunk.output,
        policy: options.policy,
        ...(args.max_output_tokens != null ? { maxOutputTokens: args.max_output_tokens } : {}),
        ...(chunk.exit ? { exitCode: exitCodeOf(chunk.exit) } : { sessionId: args.session_id }),
      };
      if (chunk.exit) ctx.background.forget(process.id);
      return {
        output: formatExecChunk(input),
        display: [{ type: "text", text: fence(chunk.output.text) }],
      };
    },
  };
}

/**
 * Codex's answer to a write to a session without a PTY. Here no session has one (`tty` is
 * accepted and has no effect), so every write gets it.
 */
const STDIN_CLOSED = "stdin is closed for this session; rerun exec_command with tty=true to keep stdin open";
