import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { failed, forContext, invalidInput } from "../tool-result.js";
import { readFileSchema } from "../tool-schemas.js";
import { textLines } from "../unified-patch.js";
import description from "./read-file.md";
import { ioText, resolvePath } from "./resolve-path.js";

const Args = z.looseObject({
  path: z.string(),
  start_line: z.number().int().min(0).optional(),
  max_lines: z.number().int().min(0).optional(),
  pages: z.string().optional(),
});
type Args = z.infer<typeof Args>;

const DEFAULT_LINES = 200;
const MAX_LINES = 500;
const MAX_BYTES = 16 * 1024;

/**
 * CodeWhale `read_file` (0.8.44 `tools/file.rs`): a file of at most 200 lines and 16 KB read
 * without a range comes back as it is; otherwise a `<file>` element with `N│ ` numbered lines,
 * 200 by default and 500 at most, cut at 16 KB, and the original's continuation notes.
 */
export function readFileTool(options: { model: string }): Tool<Args> {
  return {
    name: "read_file",
    description: description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: readFileSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: `read_file ${args.path}`,
      locations: [{ path: resolvePath(args.path, ctx.cwd), line: args.start_line || 1 }],
    }),
    access: (args, ctx) => ({ type: "read", paths: [resolvePath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      const file = resolvePath(args.path, ctx.cwd);
      let text: string;
      try {
        text = await ctx.fs.readText(file);
      } catch (error) {
        return failed(`Failed to read ${file}: ${ioText(error)}`);
      }
      const result = (output: string) => ({
        output: forContext({ model: options.model, tool: "read_file", output }),
      });
      const lines = textLines(text);
      const ranged = args.start_line !== undefined || args.max_lines !== undefined;
      if (!ranged && lines.length <= DEFAULT_LINES && Buffer.byteLength(text) <= MAX_BYTES)
        return result(text);
      if (args.start_line === 0)
        return invalidInput("read_file", "start_line must be 1-based and greater than 0");
      if (args.max_lines === 0) return invalidInput("read_file", "max_lines must be greater than 0");
      const start = args.start_line ?? 1;
      const max = Math.min(args.max_lines ?? DEFAULT_LINES, MAX_LINES);
      const total = lines.length;
      if (start > total)
        return result(
          `<file path="${args.path}" total_lines="${total}" shown_lines="none" truncated="false">\n\n[NO CONTENT] start_line ${start} is beyond total_lines ${total}.\n</file>`,
        );
      const end = Math.min(start - 1 + max, total);
      const numbered = lines
        .slice(start - 1, end)
        .map((line, i) => `${String(start + i).padStart(6)}│ ${line}\n`)
        .join("");
      const shown = cutBytes(numbered, MAX_BYTES);
      const byLines = end < total;
      const byBytes = shown.length < numbered.length;
      let attrs = `path="${args.path}" total_lines="${total}" shown_lines="${start}-${end}" truncated="${byLines || byBytes}"`;
      if (byLines) attrs += ` next_start_line="${end + 1}"`;
      let output = `<file ${attrs}>\n${shown}`;
      if (byLines)
        output += `\n[TRUNCATED] Showing lines ${start}-${end} of ${total}. To continue, call read_file with path="${args.path}" start_line=${end + 1} max_lines=${max}\n`;
      if (byBytes)
        output +=
          "\n[TRUNCATED] The selected range exceeded 16KB. Continue with a smaller max_lines value.\n";
      return result(`${output}</file>`);
    },
  };
}

/** At most `max` UTF-8 bytes, never splitting a character. */
function cutBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}
