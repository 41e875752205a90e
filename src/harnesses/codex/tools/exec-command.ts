import path from "node:path";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { patchPaths } from "../../../tools/apply-patch/apply-patch.js";
import { extractShellPatch } from "../../../tools/apply-patch/shell-intercept.js";
import { fence } from "../../../tools/markdown-fence.js";
import type { Tool, ToolContext, ToolResult } from "../../../tools/types.js";
import { runPatch } from "../../shared/codex-core/tools/run-patch.js";
import { type ExecChunkInput, formatExecChunk, type TruncationPolicy } from "../exec-output.js";
import { execCommandSchema } from "../tool-schemas.js";
import description from "./exec-command.md";

/** Codex's yield window for `exec_command`: 10 s unless asked, held to 250 ms – 30 s. */
const YIELD = { default: 10_000, min: 250, max: 30_000 };

const Args = z.looseObject({
  cmd: z.string().min(1),
  workdir: z.string().nullish(),
  yield_time_ms: z.number().nonnegative().nullish(),
  max_output_tokens: z.number().nonnegative().nullish(),
  shell: z.string().nullish(),
  login: z.boolean().nullish(),
  tty: z.boolean().nullish(),
  sandbox_permissions: z.enum(["use_default", "require_escalated"]).nullish(),
  justification: z.string().nullish(),
  prefix_rule: z.array(z.string()).nullish(),
});
type Args = z.infer<typeof Args>;

export interface ExecCommandOptions {
  policy: TruncationPolicy;
}

/**
 * Codex `exec_command` (unified exec): runs `cmd` and waits up to `yield_time_ms`; a command
 * still running then keeps running and answers with its session id, which `write_stdin` polls.
 * It ends with the turn at the latest, as in Codex. `apply_patch` invocations are applied natively.
 */
export function execCommandTool(options: ExecCommandOptions): Tool<Args> {
  const workdir = (args: Args, cwd: string) => (args.workdir ? path.resolve(cwd, args.workdir) : cwd);
  // `cd dir && apply_patch <<EOF` resolves `dir` against the command's own working directory.
  const patchDir = (args: Args, patch: { workdir?: string }, cwd: string) =>
    path.resolve(workdir(args, cwd), patch.workdir ?? ".");
  return {
    name: "exec_command",
    description,
    kind: "execute",
    capability: "exec",
    parameters: execCommandSchema,
    schema: Args,
    async preview(args, ctx) {
      const patch = extractShellPatch(args.cmd);
      if (patch) return runPatch.preview(patch.patch, patchDir(args, patch, ctx.cwd), ctx);
      return { title: args.cmd };
    },
    access(args, ctx) {
      const patch = extractShellPatch(args.cmd);
      if (patch) return { type: "write", paths: patchPaths(patch.patch, patchDir(args, patch, ctx.cwd)) };
      const escalated =
        args.sandbox_permissions === "require_escalated"
          ? { justification: args.justification ?? undefined }
          : undefined;
      return { type: "exec", command: args.cmd, cwd: workdir(args, ctx.cwd), escalated };
    },
    async execute(args, ctx) {
      const patch = extractShellPatch(args.cmd);
      if (patch) return applyThroughShell(patch.patch, patchDir(args, patch, ctx.cwd), ctx);
      const process = ctx.background.start({
        exec: ctx.exec,
        command: args.cmd,
        cwd: workdir(args, ctx.cwd),
        signal: ctx.signal,
      });
      const waitMs = clamp(args.yield_time_ms ?? YIELD.default, YIELD.min, YIELD.max);
      const chunk = await process.next({ waitMs, signal: ctx.signal, onOutput: ctx.onProgress });
      const input: ExecChunkInput = {
        waitedMs: chunk.waitedMs,
        output: chunk.output,
        policy: options.policy,
        ...(args.max_output_tokens != null ? { maxOutputTokens: args.max_output_tokens } : {}),
        ...(chunk.exit ? { exitCode: exitCodeOf(chunk.exit) } : { sessionId: Number(process.id) }),
      };
      // Codex forgets a session once its end was reported.
      if (chunk.exit) ctx.background.forget(process.id);
      return {
        output: formatExecChunk(input),
        isError: chunk.exit !== undefined && exitCodeOf(chunk.exit) !== 0,
        display: [{ type: "text", text: fence(chunk.output.text) }],
      };
    },
  };
}

/**
 * A patch sent as a command: Codex 0.171 answers a success with its exec result wrapped in the
 * unified exec's wall-time header, a failed verification bare.
 */
async function applyThroughShell(patch: string, cwd: string, ctx: ToolContext): Promise<ToolResult> {
  const started = performance.now();
  const result = await runPatch.apply(patch, cwd, ctx, { verification: true });
  if (result.isError) return result;
  const seconds = ((performance.now() - started) / 1000).toFixed(4);
  return { ...result, output: `Wall time: ${seconds} seconds\nOutput:\n${result.output}` };
}

/** A process a signal ended reports -1, as Codex does when it has no exit code. */
export function exitCodeOf(exit: { exitCode: number | null }): number {
  return exit.exitCode ?? -1;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
