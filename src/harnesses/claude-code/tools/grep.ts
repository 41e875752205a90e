import { stat } from "node:fs/promises";
import { z } from "zod";
import { grepFiles } from "../../../tools/fs/grep-files.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { resolveModelPath } from "../../shared/claude-code-core/file-access.js";
import { plural, toolUseError } from "../../shared/claude-code-core/format.js";
import { grepSchema } from "../../shared/claude-code-core/tool-schemas.js";
import description from "./grep.md";

const count = z.number().int().nonnegative().nullish();
const Args = z.looseObject({
  pattern: z.string().min(1),
  path: z.string().nullish(),
  glob: z.string().nullish(),
  type: z.string().nullish(),
  output_mode: z.enum(["content", "files_with_matches", "count"]).nullish(),
  "-i": z.boolean().nullish(),
  "-n": z.boolean().nullish(),
  "-A": count,
  "-B": count,
  "-C": count,
  context: count,
  multiline: z.boolean().nullish(),
  head_limit: count,
  offset: count,
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code `Grep` over the shared ripgrep executor, with GrepTool's result shapes:
 * `Found N files` + paths newest first (default mode), the matching lines or `No matches found`
 * (content), `path:count` lines + `Found N total occurrences across M files.` (count).
 */
export function grepTool(): Tool<Args> {
  const root = (args: Args, cwd: string) => (args.path ? resolveModelPath(args.path, cwd) : cwd);
  return {
    name: "Grep",
    description,
    kind: "search",
    capability: "search",
    parameters: grepSchema,
    schema: Args,
    preview: async (args, ctx) => ({ title: grepTitle(args, root(args, ctx.cwd)) }),
    access: (args, ctx) => ({ type: "read", paths: [root(args, ctx.cwd)] }),
    async execute(args, ctx) {
      const searchPath = root(args, ctx.cwd);
      const mode = args.output_mode ?? "files_with_matches";
      if (!(await ctx.fs.stat(searchPath))) {
        return {
          output: toolUseError(
            `Path does not exist: ${args.path}. Note: your current working directory is ${ctx.cwd}.`,
          ),
          isError: true,
        };
      }
      const context = args.context ?? args["-C"] ?? undefined;
      const skip = args.offset ?? 0;
      let result: Awaited<ReturnType<typeof grepFiles>>;
      try {
        result = await grepFiles({
          pattern: args.pattern,
          path: searchPath,
          signal: ctx.signal,
          glob: args.glob ?? undefined,
          type: args.type ?? undefined,
          ignoreCase: !!args["-i"],
          multiline: !!args.multiline,
          outputMode: mode,
          before: mode === "content" ? (context ?? args["-B"] ?? undefined) : undefined,
          after: mode === "content" ? (context ?? args["-A"] ?? undefined) : undefined,
          // Claude Code 2.1.44 numbers content lines unless told not to.
          lineNumbers: mode === "content" && args["-n"] !== false,
          headLimit: args.head_limit ? args.head_limit + skip : undefined,
        });
      } catch (error) {
        if (error instanceof FsToolError) return { output: toolUseError(error.message), isError: true };
        throw error;
      }
      const lines = result.lines.slice(skip);
      if (mode === "content") return { output: lines.join("\n") || "No matches found" };
      if (mode === "count") return { output: countOutput(lines) };
      const files = (await newestFirst(result.files)).slice(skip);
      if (files.length === 0) return { output: "No files found" };
      return { output: `Found ${files.length} ${plural(files.length, "file")}\n${files.join("\n")}` };
    },
  };
}

function countOutput(lines: string[]): string {
  let matches = 0;
  let files = 0;
  for (const line of lines) {
    const n = Number.parseInt(line.slice(line.lastIndexOf(":") + 1), 10);
    if (Number.isNaN(n)) continue;
    matches += n;
    files += 1;
  }
  const content = lines.join("\n") || "No matches found";
  return `${content}\n\nFound ${matches} total ${matches === 1 ? "occurrence" : "occurrences"} across ${files} ${plural(files, "file")}.`;
}

/** Upstream sorts matching files by modification time, newest first, then by name. */
async function newestFirst(files: string[]): Promise<string[]> {
  const times = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  return files
    .map((file, i) => ({ file, time: times[i] ?? 0 }))
    .sort((a, b) => b.time - a.time || a.file.localeCompare(b.file))
    .map((entry) => entry.file);
}

/** An rg-like command line as the editor's title, as the Claude Code ACP adapter renders it. */
function grepTitle(args: Args, searchPath: string): string {
  const parts = ["grep"];
  if (args["-i"]) parts.push("-i");
  if (args.output_mode === "content" && args["-n"] !== false) parts.push("-n");
  for (const flag of ["-A", "-B", "-C"] as const) if (args[flag] != null) parts.push(`${flag} ${args[flag]}`);
  if (args.context != null) parts.push(`-C ${args.context}`);
  if (args.output_mode === "files_with_matches" || !args.output_mode) parts.push("-l");
  if (args.output_mode === "count") parts.push("-c");
  if (args.glob) parts.push(`--include="${args.glob}"`);
  if (args.type) parts.push(`--type=${args.type}`);
  parts.push(`"${args.pattern}"`, searchPath);
  if (args.offset) parts.push(`| tail -n +${args.offset + 1}`);
  if (args.head_limit != null) parts.push(`| head -${args.head_limit}`);
  return parts.join(" ");
}
