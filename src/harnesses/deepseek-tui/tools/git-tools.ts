import path from "node:path";
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../../../tools/types.js";
import { gitDiffSchema, gitStatusSchema } from "../git-web-schemas.js";
import { forContext, invalidInput } from "../tool-result.js";
import diffDescription from "./git-diff.md";
import statusDescription from "./git-status.md";
import { resolvePath } from "./resolve-path.js";

const MAX_CHARS = 40_000;
const StatusArgs = z.looseObject({ path: z.string().optional() });
const DiffArgs = z.looseObject({
  path: z.string().optional(),
  cached: z.boolean().optional(),
  unified: z.number().int().min(0).optional(),
});

/** Where git runs and what it is limited to: a folder runs there on `.`, a file from its folder. */
export async function scope(
  tool: string,
  raw: string | undefined,
  ctx: ToolContext,
): Promise<{ dir: string; spec?: string } | ToolResult> {
  if (raw === undefined) return { dir: ctx.cwd };
  const resolved = resolvePath(raw, ctx.cwd);
  const info = await ctx.fs.stat(resolved);
  if (!info)
    return invalidInput(
      tool,
      `Path does not exist or is not accessible: ${raw} (No such file or directory (os error 2))`,
    );
  return info.isDirectory
    ? { dir: resolved, spec: "." }
    : { dir: path.dirname(resolved), spec: path.basename(resolved) };
}

const quote = (word: string) => (/^[\w./=-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

export function gitCommand(args: string[], spec: string | undefined): string {
  return ["git", ...args, ...(spec ? ["--", spec] : [])].map(quote).join(" ");
}

/** git's stdout, cut at 40,000 characters with the original's note; a failure is `failure` and git's stderr. */
export async function runGit(options: {
  tool: string;
  command: string;
  dir: string;
  /** What a failure says before git's stderr, e.g. `git diff failed`. */
  failure: string;
  model: string;
  ctx: ToolContext;
}): Promise<ToolResult> {
  const { ctx } = options;
  const result = await ctx.exec.run({
    command: options.command,
    cwd: options.dir,
    timeoutMs: 120_000,
    signal: ctx.signal,
  });
  const stdout = result.streams?.stdout ?? result.output;
  if (result.exitCode !== 0)
    return { output: `${options.failure}: ${(result.streams?.stderr ?? "").trim()}`, isError: true };
  const chars = [...stdout];
  const text =
    chars.length <= MAX_CHARS
      ? stdout
      : `${chars.slice(0, MAX_CHARS).join("")}\n\n[output truncated to ${MAX_CHARS} characters; ${chars.length - MAX_CHARS} characters omitted]`;
  return { output: forContext({ model: options.model, tool: options.tool, output: text }) };
}

/**
 * CodeWhale `git_status` and `git_diff` (0.8.44 `tools/git.rs`): `git status --porcelain=v1 -b`
 * (paths unquoted) and `git diff --no-color --no-ext-diff --unified=N [--cached]`, scoped to a
 * path when given, stdout cut at 40,000 characters; a failure is `git … failed:` and git's stderr.
 */
export function gitTools(options: { model: string }): Tool[] {
  const status: Tool<z.infer<typeof StatusArgs>> = {
    name: "git_status",
    description: statusDescription.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: gitStatusSchema,
    schema: StatusArgs,
    preview: async () => ({ title: "git status" }),
    access: (args, ctx) => ({
      type: "exec",
      command: "git status --porcelain=v1 -b",
      cwd: resolvePath(args.path ?? ".", ctx.cwd),
    }),
    async execute(args, ctx) {
      const where = await scope("git_status", args.path, ctx);
      if ("output" in where) return where;
      const command = gitCommand(
        ["-c", "core.quotepath=false", "status", "--porcelain=v1", "-b"],
        where.spec,
      );
      return runGit({
        tool: "git_status",
        command,
        dir: where.dir,
        failure: "git status failed",
        model: options.model,
        ctx,
      });
    },
  };
  const diff: Tool<z.infer<typeof DiffArgs>> = {
    name: "git_diff",
    description: diffDescription.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: gitDiffSchema,
    schema: DiffArgs,
    preview: async () => ({ title: "git diff" }),
    access: (args, ctx) => ({
      type: "exec",
      command: "git diff",
      cwd: resolvePath(args.path ?? ".", ctx.cwd),
    }),
    async execute(args, ctx) {
      const where = await scope("git_diff", args.path, ctx);
      if ("output" in where) return where;
      const unified = Math.min(args.unified ?? 3, 50);
      const flags = [
        "diff",
        "--no-color",
        "--no-ext-diff",
        `--unified=${unified}`,
        ...(args.cached ? ["--cached"] : []),
      ];
      return runGit({
        tool: "git_diff",
        command: gitCommand(flags, where.spec),
        dir: where.dir,
        failure: "git diff failed",
        model: options.model,
        ctx,
      });
    },
  };
  return [diff as Tool, status as Tool];
}
