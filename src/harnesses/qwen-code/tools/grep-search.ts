import { z } from "zod";
import { grepFiles } from "../../../tools/fs/grep-files.js";
import type { Tool } from "../../../tools/types.js";
import { parseGrepLines } from "../../shared/gemini-core/parse-grep-lines.js";
import { searchDirs } from "../../shared/gemini-core/tool-paths.js";
import description from "../descriptions/grep-search.md";
import { grepSearchSchema } from "../tool-schemas.js";
import { TRUNCATE_LINES, TRUNCATE_THRESHOLD } from "../truncate.js";

const Args = z.looseObject({
  pattern: z.string(),
  glob: z.string().optional(),
  path: z.string().optional(),
  limit: z.number().int().min(1).optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Qwen Code `grep_search` (QwenLM/qwen-code `packages/core/src/tools/ripGrep.ts`): always
 * case-insensitive, `path:line:text` lines with absolute paths, at most 1 000 lines (or `limit`)
 * and 25 000 characters, then a `[N lines truncated] ...` note.
 */
export function grepSearchTool(): Tool<Args> {
  return {
    name: "grep_search",
    description: description.trimEnd(),
    kind: "search",
    capability: "search",
    parameters: grepSearchSchema(),
    schema: Args,
    preview: async (args) => ({
      title: `Grep '${args.pattern}'${args.path ? ` in ${args.path}` : ""}${args.glob ? ` (filter: '${args.glob}')` : ""}`,
    }),
    access: (args, ctx) => ({ type: "read", paths: searchDirs(args.path, ctx.cwd, ctx.roots) }),
    async execute(args, ctx) {
      try {
        new RegExp(args.pattern);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          output: `Invalid regular expression pattern: ${args.pattern}. Error: ${message}`,
          isError: true,
        };
      }
      const paths = searchDirs(args.path, ctx.cwd, ctx.roots);
      const where = args.path
        ? `in path "${args.path}"`
        : paths.length > 1
          ? `across ${paths.length} workspace directories`
          : "in the workspace directory";
      const filter = args.glob ? ` (filter: "${args.glob}")` : "";
      const lines: string[] = [];
      try {
        for (const base of paths) {
          const result = await grepFiles({
            pattern: args.pattern,
            path: base,
            signal: ctx.signal,
            glob: args.glob,
            ignoreCase: true,
            outputMode: "content",
            lineNumbers: true,
          });
          for (const match of parseGrepLines(result.lines, result.files, base)) {
            lines.push(`${match.absolutePath}:${match.lineNumber}:${match.line}`);
          }
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { output: `Error during grep search operation: ${message}` };
      }
      const unique = [...new Set(lines)];
      if (unique.length === 0)
        return { output: `No matches found for pattern "${args.pattern}" ${where}${filter}.` };
      return { output: formatMatches(unique, args, `${where}${filter}`) };
    },
  };
}

function formatMatches(lines: string[], args: Args, where: string): string {
  const total = lines.length;
  const header = `Found ${total} ${total === 1 ? "match" : "matches"} for pattern "${args.pattern}" ${where}:\n---\n`;
  const lineLimit = Math.min(TRUNCATE_LINES, args.limit ?? Number.POSITIVE_INFINITY);
  const candidates = lines.slice(0, lineLimit);
  const parts: string[] = [];
  let length = 0;
  let cut = false;
  for (const line of candidates) {
    const sep = parts.length > 0 ? 1 : 0;
    if (length + line.length + sep <= TRUNCATE_THRESHOLD) {
      parts.push(line);
      length += line.length + sep;
      continue;
    }
    parts.push(`${line.slice(0, Math.max(TRUNCATE_THRESHOLD - length - sep, 10))}...`);
    cut = true;
    break;
  }
  let text = header + parts.join("\n");
  if (cut || total > lineLimit) {
    const omitted = total - (cut ? parts.length - 1 : parts.length);
    text += `\n---\n[${omitted} ${omitted === 1 ? "line" : "lines"} truncated] ...`;
  }
  return text.trim();
}
