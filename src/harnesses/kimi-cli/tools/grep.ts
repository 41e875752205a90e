import { statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { shellQuote } from "../../../tools/terminal/tmux-script.js";
import type { Tool, ToolContext, ToolResult } from "../../../tools/types.js";
import { isSensitiveFile, resolveUserPath, sensitiveWarning } from "../paths.js";
import { kimiError, ResultBuilder } from "../result-builder.js";
import { grepSchema } from "../tool-schemas.js";
import description from "./grep.md";

const RG_TIMEOUT_S = 20;
const VCS_DIRS = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];

const Args = z.object({
  pattern: z.string(),
  path: z.string().default("."),
  glob: z.string().nullable().optional(),
  output_mode: z.string().default("files_with_matches"),
  "-B": z.number().int().nullable().optional(),
  "-A": z.number().int().nullable().optional(),
  "-C": z.number().int().nullable().optional(),
  "-n": z.boolean().default(true),
  "-i": z.boolean().default(false),
  type: z.string().nullable().optional(),
  head_limit: z.number().int().min(0).nullable().default(250),
  offset: z.number().int().min(0).default(0),
  multiline: z.boolean().default(false),
  include_ignored: z.boolean().default(false),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `Grep` (`tools/file/grep_local.py`): ripgrep with its flags (hidden files,
 * version-control directories left out, `--max-columns 500` outside content mode), matching
 * files newest first, paths relative to the searched directory, secret files filtered with a
 * warning, a total for counts, then `offset` and `head_limit` paging with an `offset=` hint.
 */
export function grepTool(): Tool<Args> {
  return {
    name: "Grep",
    description,
    kind: "search",
    capability: "search",
    parameters: grepSchema,
    schema: Args,
    preview: async (args) => ({ title: `Grep ${args.pattern}` }),
    access: (args, ctx) => ({ type: "read", paths: [resolveUserPath(args.path, ctx.cwd)] }),
    execute: (args, ctx) => grep(args, ctx),
  };
}

function rgCommand(args: Args, target: string): string {
  const argv = ["rg"];
  if (args.output_mode !== "content") argv.push("--max-columns", "500");
  argv.push("--hidden");
  if (args.include_ignored) argv.push("--no-ignore");
  for (const dir of VCS_DIRS) argv.push("--glob", `!${dir}`);
  if (args["-i"]) argv.push("--ignore-case");
  if (args.multiline) argv.push("--multiline", "--multiline-dotall");
  if (args.output_mode === "content") {
    if (args["-B"] != null) argv.push("--before-context", String(args["-B"]));
    if (args["-A"] != null) argv.push("--after-context", String(args["-A"]));
    if (args["-C"] != null) argv.push("--context", String(args["-C"]));
    if (args["-n"]) argv.push("--line-number");
  }
  if (args.glob) argv.push("--glob", args.glob);
  if (args.type) argv.push("--type", args.type);
  if (args.output_mode === "files_with_matches") argv.push("--files-with-matches");
  else if (args.output_mode === "count_matches") argv.push("--count-matches");
  argv.push("--", args.pattern, target);
  return argv.map(shellQuote).join(" ");
}

async function grep(args: Args, ctx: ToolContext): Promise<ToolResult> {
  const target = resolveUserPath(args.path, ctx.cwd);
  // ripgrep gets the path as the model gave it (`~` expanded), run from the working directory:
  // with the default `.` its paths read `./a.py`, as 1.49.0's do.
  const given = args.path === "~" || args.path.startsWith("~/") ? target : args.path;
  const run = await ctx.exec.run({
    command: rgCommand(args, given),
    cwd: ctx.cwd,
    timeoutMs: RG_TIMEOUT_S * 1000,
    signal: ctx.signal,
  });
  let output = run.streams?.stdout ?? "";
  const messages: string[] = [];
  if (run.timedOut) {
    if (!output.trim())
      return kimiError(`Grep timed out after ${RG_TIMEOUT_S}s. Try a more specific path or pattern.`);
    messages.push(`Grep timed out after ${RG_TIMEOUT_S}s. Partial results returned.`);
  } else if (run.exitCode !== 0 && run.exitCode !== 1) {
    return kimiError(`Failed to grep. Error: ${run.streams?.stderr ?? run.output}`);
  }
  if (!run.timedOut && args.output_mode === "files_with_matches") {
    const mtime = (file: string) => {
      try {
        return statSync(file).mtimeMs;
      } catch {
        return 0;
      }
    };
    output = output
      .split("\n")
      .filter((line) => line.trim())
      .sort((a, b) => mtime(path.resolve(ctx.cwd, b)) - mtime(path.resolve(ctx.cwd, a)))
      .join("\n");
  }
  let base = target;
  if (statSync(base, { throwIfNoEntry: false })?.isFile()) base = path.dirname(base);
  const prefix = base.replace(/[/\\]+$/, "") + path.sep;
  output = output
    .split("\n")
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
    .join("\n");
  output = filterSensitive(output, args.output_mode, messages);
  let lines = output.split("\n");
  if (lines.at(-1) === "") lines = lines.slice(0, -1);
  if (args.output_mode === "count_matches") {
    let matches = 0;
    let files = 0;
    for (const line of lines) {
      const count = Number(line.slice(line.lastIndexOf(":") + 1));
      if (line.lastIndexOf(":") > 0 && Number.isInteger(count)) {
        matches += count;
        files += 1;
      }
    }
    messages.push(`Found ${matches} total occurrences across ${files} files.`);
  }
  if (args.offset > 0) lines = lines.slice(args.offset);
  const limit = args.head_limit;
  if (limit && lines.length > limit) {
    const total = lines.length + args.offset;
    lines = lines.slice(0, limit);
    messages.push(
      `Results truncated to ${limit} lines (total: ${total}). Use offset=${args.offset + limit} to see more.`,
    );
  }
  output = lines.join("\n");
  const builder = new ResultBuilder();
  const message = messages.join(" ");
  if (!output) return builder.ok(message ? `No matches found. ${message}` : "No matches found");
  builder.write(output);
  return builder.ok(message);
}

/** ripgrep lines whose file looks like a secret are dropped; the message names them. */
function filterSensitive(output: string, mode: string, messages: string[]): string {
  const skipped: string[] = [];
  const kept: string[] = [];
  for (const line of output.split("\n")) {
    if (mode === "content" && line === "--") {
      kept.push(line);
      continue;
    }
    const file =
      mode === "content"
        ? (/^(.*?)([:-])(\d+)\2/.exec(line)?.[1] ?? line)
        : mode === "count_matches" && line.lastIndexOf(":") > 0
          ? line.slice(0, line.lastIndexOf(":"))
          : line;
    if (file && isSensitiveFile(file)) {
      if (!skipped.includes(file)) skipped.push(file);
    } else kept.push(line);
  }
  if (skipped.length === 0) return output;
  while (kept.at(-1) === "--") kept.pop();
  messages.push(sensitiveWarning(skipped));
  return kept.join("\n");
}
