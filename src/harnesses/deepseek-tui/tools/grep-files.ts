import path from "node:path";
import { z } from "zod";
import { walkTree } from "../../../tools/fs/walk-tree.js";
import type { Tool } from "../../../tools/types.js";
import { failed, forContext, invalidInput } from "../tool-result.js";
import { grepFilesSchema } from "../tool-schemas.js";
import { textLines } from "../unified-patch.js";
import { matchesGlob } from "./glob-match.js";
import description from "./grep-files.md";
import { ioText, resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  pattern: z.string(),
  path: z.string().optional(),
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  context_lines: z.number().int().min(0).optional(),
  case_insensitive: z.boolean().optional(),
  max_results: z.number().int().min(0).optional(),
});
type Args = z.infer<typeof Args>;

const EXCLUDED = [
  "node_modules/*",
  ".git/*",
  "target/*",
  "*.min.js",
  "*.min.css",
  "dist/*",
  "build/*",
  "__pycache__/*",
  ".venv/*",
  "venv/*",
];
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * CodeWhale `grep_files` (0.8.44 `tools/search.rs`): a regex over every line of the files under
 * `path` (links skipped, its default exclusions unless `exclude` is given; ignore files are not
 * read), answered as indented JSON: matches with their line and context, the counts, `truncated`.
 * One context line is given as a string instead of a list, as the original does.
 */
export function grepFilesTool(options: { model: string }): Tool<Args> {
  return {
    name: "grep_files",
    description: description.trimEnd(),
    kind: "search",
    capability: "read",
    parameters: grepFilesSchema,
    schema: Args,
    preview: async (args) => ({ title: `grep_files ${args.pattern}` }),
    access: (args, ctx) => ({ type: "read", paths: [resolvePath(args.path ?? ".", ctx.cwd)] }),
    async execute(args, ctx) {
      let regex: RegExp;
      try {
        regex = new RegExp(args.pattern, args.case_insensitive ? "iu" : "u");
      } catch (error) {
        return invalidInput("grep_files", `Invalid regex pattern: ${(error as Error).message}`);
      }
      const root = resolvePath(args.path ?? ".", ctx.cwd);
      const context = args.context_lines ?? 2;
      const max = args.max_results ?? 100;
      const include = args.include ?? [];
      const exclude = args.exclude ?? EXCLUDED;
      const info = await ctx.fs.stat(root);
      const files: string[] = [];
      if (info?.isFile) files.push(root);
      else {
        try {
          for await (const entry of walkTree({
            root,
            signal: ctx.signal,
            respectIgnoreFiles: false,
            skipNames: new Set(),
            include: (e) => e.type !== "symlink" && !exclude.some((p) => matchesGlob(e.rel, p)),
          }))
            if (
              entry.type === "file" &&
              (include.length === 0 || include.some((p) => matchesGlob(entry.rel, p)))
            )
              files.push(entry.abs);
        } catch (error) {
          return failed(`Failed to read directory ${root}: ${ioText(error)}`);
        }
      }
      const matches: unknown[] = [];
      let total = 0;
      let searched = 0;
      for (const file of files) {
        if (matches.length >= max) break;
        if (((await ctx.fs.stat(file))?.size ?? 0) > MAX_FILE_BYTES) continue;
        const text = await ctx.fs.readText(file).catch(() => undefined);
        if (text === undefined) continue;
        searched++;
        const lines = textLines(text);
        for (const [i, line] of lines.entries()) {
          if (!regex.test(line)) continue;
          total++;
          const before = lines.slice(Math.max(0, i - context), i);
          const after = lines.slice(i + 1, i + 1 + context);
          const inside = path.relative(ctx.cwd, file);
          const rel = inside.startsWith("..") || path.isAbsolute(inside) ? file : inside;
          matches.push(
            context === 1
              ? {
                  file: rel,
                  line_number: i + 1,
                  line,
                  context_before: before[0] ?? "",
                  context_after: after[0] ?? "",
                }
              : { file: rel, line_number: i + 1, line, context_before: before, context_after: after },
          );
          if (matches.length >= max) break;
        }
      }
      const output = JSON.stringify(
        { matches, total_matches: total, files_searched: searched, truncated: total > max },
        null,
        2,
      );
      return { output: forContext({ model: options.model, tool: "grep_files", output }) };
    },
  };
}
