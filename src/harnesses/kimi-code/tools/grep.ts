import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { grepFiles } from "../../../tools/fs/grep-files.js";
import type { Tool } from "../../../tools/types.js";
import { OutputBuilder } from "../output-builder.js";
import { isSensitiveFile, relativizeIfUnder, resolveSearchRoot } from "../path-access.js";
import { grepSchema } from "../tool-schemas.js";
import description from "./grep.md";

export const DEFAULT_HEAD_LIMIT = 250;
/** Lines gathered before paging; upstream's equivalent bound is ripgrep's stdout buffer. */
const SCAN_LINES = 100_000;

const count = z.number().int().nonnegative().optional();
const Args = z.object({
  pattern: z.string(),
  path: z.string().optional(),
  glob: z.string().optional(),
  type: z.string().optional(),
  output_mode: z.enum(["content", "files_with_matches", "count_matches"]).optional(),
  "-i": z.boolean().optional(),
  "-n": z.boolean().optional(),
  "-A": count,
  "-B": count,
  "-C": count,
  head_limit: count,
  offset: count,
  multiline: z.boolean().optional(),
  include_ignored: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

interface Line {
  text: string;
  /** Absolute file behind the line; undefined for a `--` separator. */
  file?: string;
}

/**
 * Kimi Code `Grep` (kimi-code `agent/tools/os/grep/grepTool.ts`): ripgrep-shaped lines with paths
 * relative to the working directory, files newest first, a total line for counts, 250 entries
 * per page with an `offset=` hint, secrets filtered, the 50 000 / 2 000 character builder.
 */
export function grepTool(): Tool<Args> {
  return {
    name: "Grep",
    description,
    kind: "search",
    capability: "search",
    parameters: grepSchema,
    schema: Args,
    preview: async (args, ctx) => ({ title: `Searching for '${args.pattern}' in ${args.path ?? ctx.cwd}` }),
    access(args, ctx) {
      const resolved = resolveSearchRoot(args.path, ctx);
      return resolved.ok ? { type: "read", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const resolved = resolveSearchRoot(args.path, ctx);
      if (!resolved.ok) return { output: resolved.error, isError: true };
      const mode = args.output_mode ?? "files_with_matches";
      const content = mode === "content";
      let found: { lines: string[]; files: string[] };
      try {
        found = await grepFiles({
          pattern: args.pattern,
          path: resolved.path,
          signal: ctx.signal,
          glob: args.glob,
          type: args.type,
          ignoreCase: args["-i"],
          multiline: args.multiline,
          outputMode: mode === "count_matches" ? "count" : mode,
          before: content ? (args["-C"] ?? args["-B"]) : undefined,
          after: content ? (args["-C"] ?? args["-A"]) : undefined,
          lineNumbers: content && args["-n"] !== false,
          headLimit: SCAN_LINES,
        });
      } catch (error) {
        if (ctx.signal.aborted) return { output: "Grep aborted", isError: true };
        const message = error instanceof Error ? error.message : String(error);
        return { output: `Failed to grep: ${message}`, isError: true };
      }
      const isDirectory = (await stat(resolved.path)).isDirectory();
      const lines = attribute(found, resolved.path, isDirectory);
      const filtered = new Set<string>();
      let kept = lines.filter((line) => {
        if (line.file === undefined || !isSensitiveFile(line.file)) return true;
        filtered.add(line.file);
        return false;
      });
      if (content) kept = tidySeparators(kept);
      if (mode === "files_with_matches") kept = await newestFirst(kept);

      const offset = args.offset ?? 0;
      const headLimit = args.head_limit ?? DEFAULT_HEAD_LIMIT;
      const afterOffset = kept.slice(offset);
      const limited = headLimit > 0 ? afterOffset.slice(0, headLimit) : afterOffset;
      const paged = headLimit > 0 && afterOffset.length > headLimit;

      const headers: string[] = [];
      const messages: string[] = [];
      if (filtered.size > 0) {
        const shown = [...filtered].map((file) => relativizeIfUnder(file, ctx.cwd));
        messages.push(`Filtered ${filtered.size} sensitive file(s): ${shown.join(", ")}`);
      }
      if (mode === "count_matches" && kept.length > 0) headers.push(countSummary(kept, filtered.size > 0));
      if (paged) {
        const notice = `Results truncated to ${headLimit} lines (total: ${afterOffset.length + offset}). Use offset=${offset + headLimit} to see more.`;
        (mode === "count_matches" ? headers : messages).push(notice);
      }
      const display = (line: Line) => (line.file === undefined ? line.text : shownFrom(line, ctx.cwd));
      const body = limited.map(display).join("\n");
      const visible =
        body === "" && headers.length === 0 && messages.length === 0
          ? "No non-sensitive matches found"
          : body;
      const builder = new OutputBuilder();
      builder.write([...headers, visible, ...messages].filter((part) => part !== "").join("\n"));
      return { output: builder.ok().output };
    },
  };
}

/** Pairs each line with its file: lines come grouped by file, in the order of `files`. */
function attribute(found: { lines: string[]; files: string[] }, root: string, isDirectory: boolean): Line[] {
  const shownAs = (file: string) =>
    isDirectory ? path.relative(root, file).split(path.sep).join("/") : file;
  const out: Line[] = [];
  let index = 0;
  for (const text of found.lines) {
    if (text === "--") {
      out.push({ text });
      continue;
    }
    let probe = index;
    while (probe < found.files.length && !startsWithPath(text, shownAs(found.files[probe]!))) probe++;
    if (probe < found.files.length) index = probe;
    out.push({ text: text.slice(shownAs(found.files[index] ?? "").length), file: found.files[index] });
  }
  return out;
}

function startsWithPath(text: string, shown: string): boolean {
  if (!text.startsWith(shown)) return false;
  const next = text[shown.length];
  return next === undefined || next === ":" || next === "-";
}

/** The line with its path shown relative to the working directory, as upstream shows it. */
function shownFrom(line: Line, cwd: string): string {
  return relativizeIfUnder(line.file!, cwd) + line.text;
}

function tidySeparators(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    if (line.file === undefined && (out.length === 0 || out.at(-1)?.file === undefined)) continue;
    out.push(line);
  }
  while (out.length > 0 && out.at(-1)?.file === undefined) out.pop();
  return out;
}

/** Files with matches, most recently modified first (whole seconds, ties in search order). */
async function newestFirst(lines: Line[]): Promise<Line[]> {
  const stamped = await Promise.all(
    lines.map(async (line, index) => {
      const info = line.file ? await stat(line.file).catch(() => undefined) : undefined;
      return { line, index, mtime: Math.trunc((info?.mtimeMs ?? 0) / 1000) };
    }),
  );
  stamped.sort((a, b) => b.mtime - a.mtime || a.index - b.index);
  return stamped.map((entry) => entry.line);
}

function countSummary(lines: Line[], redacted: boolean): string {
  let matches = 0;
  let files = 0;
  for (const line of lines) {
    const value = Number(line.text.slice(line.text.lastIndexOf(":") + 1));
    if (!Number.isSafeInteger(value) || value < 0) continue;
    matches += value;
    files++;
  }
  const scope = redacted ? "total non-sensitive" : "total";
  return `Found ${matches} ${scope} ${matches === 1 ? "occurrence" : "occurrences"} across ${files} ${files === 1 ? "file" : "files"}.`;
}
