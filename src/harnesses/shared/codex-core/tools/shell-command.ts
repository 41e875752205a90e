import path from "node:path";
import { z } from "zod";
import { patchPaths } from "../../../../tools/apply-patch/apply-patch.js";
import { extractShellPatch } from "../../../../tools/apply-patch/shell-intercept.js";
import { fence } from "../../../../tools/markdown-fence.js";
import type { Tool } from "../../../../tools/types.js";
import { shellCommandSchema } from "../tool-schemas.js";
import { formatExecOutput } from "../truncate.js";
import { runPatch } from "./run-patch.js";
import description from "./shell-command.md";

/** Codex's default when the model sets no `timeout_ms`. */
const DEFAULT_TIMEOUT_MS = 10_000;

const Args = z.looseObject({
  command: z.string().min(1),
  workdir: z.string().optional(),
  timeout_ms: z.number().int().positive().optional(),
  sandbox_permissions: z.string().nullish(),
  justification: z.string().nullish(),
});
type Args = z.infer<typeof Args>;

/** Codex `shell_command`: a script for the user's shell; `apply_patch` heredocs are applied natively. */
export function shellCommandTool(): Tool<Args> {
  const workdir = (args: Args, cwd: string) => (args.workdir ? path.resolve(cwd, args.workdir) : cwd);
  // `cd dir && apply_patch <<EOF` resolves `dir` against the command's own working directory.
  const patchDir = (args: Args, patch: { workdir?: string }, cwd: string) =>
    path.resolve(workdir(args, cwd), patch.workdir ?? ".");
  return {
    name: "shell_command",
    description,
    kind: "execute",
    capability: "exec",
    parameters: shellCommandSchema,
    schema: Args,
    async preview(args, ctx) {
      const patch = extractShellPatch(args.command);
      if (patch) return runPatch.preview(patch.patch, patchDir(args, patch, ctx.cwd), ctx);
      return { title: args.command };
    },
    access(args, ctx) {
      const patch = extractShellPatch(args.command);
      if (patch) return { type: "write", paths: patchPaths(patch.patch, patchDir(args, patch, ctx.cwd)) };
      const escalated =
        args.sandbox_permissions === "require_escalated"
          ? { justification: args.justification ?? undefined }
          : undefined;
      return { type: "exec", command: args.command, cwd: workdir(args, ctx.cwd), escalated };
    },
    async execute(args, ctx) {
      const patch = extractShellPatch(args.command);
      if (patch) return runPatch.apply(patch.patch, patchDir(args, patch, ctx.cwd), ctx);
      const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
      const result = await ctx.exec.run({
        command: args.command,
        cwd: workdir(args, ctx.cwd),
        timeoutMs,
        signal: ctx.signal,
        onOutput: ctx.onProgress,
      });
      const output = formatExecOutput({ ...result, timeoutMs });
      return {
        output,
        isError: result.exitCode !== 0,
        display: [{ type: "text", text: fence(result.output) }],
      };
    },
  };
}
