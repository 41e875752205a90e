import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { gitBlameSchema, gitLogSchema, gitShowSchema } from "../git-web-schemas.js";
import { invalidInput } from "../tool-result.js";
import blameDescription from "./git-blame.md";
import logDescription from "./git-log.md";
import showDescription from "./git-show.md";
import { gitCommand, runGit, scope } from "./git-tools.js";
import { resolvePath } from "./resolve-path.js";

const LogArgs = z.looseObject({
  path: z.string().optional(),
  max_count: z.number().int().optional(),
  author: z.string().optional(),
  since: z.string().optional(),
  until: z.string().optional(),
});
const ShowArgs = z.looseObject({
  rev: z.string(),
  path: z.string().optional(),
  patch: z.boolean().optional(),
  stat: z.boolean().optional(),
  unified: z.number().int().min(0).optional(),
});
const BlameArgs = z.looseObject({
  path: z.string(),
  rev: z.string().optional(),
  start_line: z.number().int().optional(),
  max_lines: z.number().int().optional(),
  porcelain: z.boolean().optional(),
});

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** Read-only git views share their shape: a title, no access beyond the command, the exec port. */
function gitTool<A>(o: {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  schema: z.ZodType<A>;
  command: string;
  execute: Tool<A>["execute"];
}): Tool<A> {
  return {
    name: o.name,
    description: o.description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: o.parameters,
    schema: o.schema,
    preview: async () => ({ title: o.command }),
    access: (_args, ctx) => ({ type: "exec", command: o.command, cwd: ctx.cwd }),
    execute: o.execute,
  };
}

/**
 * CodeWhale `git_log`, `git_show` and `git_blame` (0.8.44 `tools/git_history.rs`): their git
 * flags (log as `%H` / `Author:` / `Date:` / `Subject:` blocks with ISO dates, 20 commits by
 * default and 200 at most; show with `--stat` and the patch; blame over 200 lines by default and
 * 2,000 at most), stdout cut at 40,000 characters, failures in their words.
 */
export function gitHistoryTools(options: { model: string }): Tool[] {
  const { model } = options;
  const log = gitTool({
    name: "git_log",
    description: logDescription,
    parameters: gitLogSchema,
    schema: LogArgs,
    command: "git log",
    async execute(args, ctx) {
      const where = await scope("git_log", args.path, ctx);
      if ("output" in where) return where;
      const flags = [
        "log",
        "--no-color",
        `--max-count=${clamp(args.max_count ?? 20, 1, 200)}`,
        "--date=iso-strict",
        "--pretty=format:%H%nAuthor: %an <%ae>%nDate: %ad%nSubject: %s%n",
        ...(args.author ? [`--author=${args.author}`] : []),
        ...(args.since ? [`--since=${args.since}`] : []),
        ...(args.until ? [`--until=${args.until}`] : []),
      ];
      const command = gitCommand(flags, where.spec);
      return runGit({ tool: "git_log", command, dir: where.dir, failure: "git log failed", model, ctx });
    },
  });
  const show = gitTool({
    name: "git_show",
    description: showDescription,
    parameters: gitShowSchema,
    schema: ShowArgs,
    command: "git show",
    async execute(args, ctx) {
      const where = await scope("git_show", args.path, ctx);
      if ("output" in where) return where;
      const flags = [
        "show",
        "--no-color",
        "--no-ext-diff",
        args.patch === false ? "--no-patch" : `--unified=${Math.min(args.unified ?? 3, 50)}`,
        ...(args.stat === false ? [] : ["--stat"]),
        args.rev,
      ];
      const command = gitCommand(flags, where.spec);
      return runGit({
        tool: "git_show",
        command,
        dir: where.dir,
        failure: `git show failed for '${args.rev}'`,
        model,
        ctx,
      });
    },
  });
  const blame = gitTool({
    name: "git_blame",
    description: blameDescription,
    parameters: gitBlameSchema,
    schema: BlameArgs,
    command: "git blame",
    async execute(args, ctx) {
      const info = await ctx.fs.stat(resolvePath(args.path, ctx.cwd));
      if (!info)
        return invalidInput(
          "git_blame",
          `Path does not exist or is not accessible: ${args.path} (No such file or directory (os error 2))`,
        );
      if (!info.isFile) return invalidInput("git_blame", `Path must point to a file: ${args.path}`);
      const where = (await scope("git_blame", args.path, ctx)) as { dir: string; spec: string };
      const rev = args.rev ?? "HEAD";
      const start = Math.max(args.start_line ?? 1, 1);
      const end = start + clamp(args.max_lines ?? 200, 1, 2000) - 1;
      const flags = [
        "blame",
        "--date=iso",
        `-L${start},${end}`,
        ...(args.porcelain ? ["--line-porcelain"] : []),
        rev,
      ];
      return runGit({
        tool: "git_blame",
        command: gitCommand(flags, where.spec),
        dir: where.dir,
        failure: `git blame failed for '${args.path}' at '${rev}'`,
        model,
        ctx,
      });
    },
  });
  return [blame as Tool, log as Tool, show as Tool];
}
