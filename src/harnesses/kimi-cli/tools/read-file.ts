import path from "node:path";
import { z } from "zod";
import type { Tool, ToolResult } from "../../../tools/types.js";
import { isSensitiveFile, outsideError, resolveUserPath } from "../paths.js";
import { kimiError, kimiResult, truncateLine } from "../result-builder.js";
import { fillSlots } from "../slots.js";
import { readFileSchema } from "../tool-schemas.js";
import description from "./read-file.md";

export const MAX_LINES = 1000;
export const MAX_LINE_LENGTH = 2000;
export const MAX_BYTES = 100 << 10;

const Args = z.object({
  path: z.string(),
  line_offset: z
    .number()
    .int()
    .default(1)
    .refine((n) => n !== 0, "line_offset cannot be 0; use 1 for the first line or -1 for the last line")
    .refine(
      (n) => n >= -MAX_LINES,
      `line_offset cannot be less than -${MAX_LINES}. Use a positive line_offset with the total line count to read from a specific position.`,
    ),
  n_lines: z.number().int().min(1).default(MAX_LINES),
});
type Args = z.infer<typeof Args>;

/** What 1.49.0 sends to its media tool rather than reading as text (`utils/media.py`, by extension). */
const MEDIA =
  /\.(png|jpe?g|gif|webp|bmp|tiff?|ico|heic|heif|avif|svgz|mp4|mov|avi|mkv|webm|m4v|flv|wmv|3gp)$/i;

/**
 * Kimi CLI 1.49.0 `ReadFile` (`tools/file/read.py`): `cat -n` lines (`{n:6}\t{line}`), at most
 * 1000 lines or 100 KiB, lines over 2000 characters cut with `...`; a negative `line_offset`
 * reads that many lines from the end. The message counts what was read and why it stopped.
 */
export function readFileTool(): Tool<Args> {
  return {
    name: "ReadFile",
    description: fillSlots(description, { MAX_LINES, MAX_LINE_LENGTH }),
    kind: "read",
    capability: "read",
    parameters: readFileSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: `Read ${args.path}`,
      locations: [{ path: resolveUserPath(args.path, ctx.cwd) }],
    }),
    access: (args, ctx) => ({ type: "read", paths: [resolveUserPath(args.path, ctx.cwd)] }),
    async execute(args, ctx) {
      if (!args.path) return kimiError("File path cannot be empty.");
      const file = resolveUserPath(args.path, ctx.cwd);
      const outside = outsideError({ raw: args.path, absolute: file, roots: ctx.roots, verb: "read" });
      if (outside) return kimiError(outside);
      if (isSensitiveFile(file))
        return kimiError(
          `\`${args.path}\` appears to contain secrets (matched sensitive file pattern). Reading this file is blocked to protect credentials.`,
        );
      const info = await ctx.fs.stat(file);
      if (!info) return kimiError(`\`${args.path}\` does not exist.`);
      if (!info.isFile) return kimiError(`\`${args.path}\` is not a file.`);
      if (MEDIA.test(path.basename(file))) {
        const kind = /\.(mp4|mov|avi|mkv|webm|m4v|flv|wmv|3gp)$/i.test(file) ? "video" : "image";
        return kimiError(
          `\`${args.path}\` is a ${kind} file. Use other appropriate tools to read image or video files.`,
        );
      }
      const bytes = await ctx.fs.readBytes(file);
      if (bytes.subarray(0, 8192).includes(0))
        return kimiError(
          `\`${args.path}\` seems not readable. You may need to read it with proper shell commands, Python tools or MCP tools if available. If you read/operate it with Python, you MUST ensure that any third-party packages are installed in a virtual environment (venv).`,
        );
      return readLines(new TextDecoder().decode(bytes), args);
    },
  };
}

interface Line {
  no: number;
  text: string;
  cut: boolean;
}

/** Python's text mode reads `\r\n` and `\r` as `\n`; each line keeps its break. */
function fileLines(text: string): Line[] {
  const lines = text.replace(/\r\n?/g, "\n").match(/[^\n]*\n|[^\n]+/g) ?? [];
  return lines.map((line, i) => {
    const cut = truncateLine(line, MAX_LINE_LENGTH);
    return { no: i + 1, text: cut, cut: cut !== line };
  });
}

function readLines(text: string, args: Args): ToolResult {
  const all = fileLines(text);
  let lines: Line[];
  let maxLines = false;
  let maxBytes = false;
  if (args.line_offset > 0) {
    lines = [];
    let bytes = 0;
    for (const line of all.slice(args.line_offset - 1)) {
      lines.push(line);
      bytes += Buffer.byteLength(line.text);
      if (lines.length >= args.n_lines) break;
      if (lines.length >= MAX_LINES) {
        maxLines = true;
        break;
      }
      if (bytes >= MAX_BYTES) {
        maxBytes = true;
        break;
      }
    }
  } else {
    // Tail: the last |offset| lines, then n_lines from their start, then the newest that fit 100 KiB.
    const tail = all.slice(Math.max(0, all.length + args.line_offset));
    lines = tail.slice(0, Math.min(args.n_lines, MAX_LINES));
    maxLines = tail.length > MAX_LINES && lines.length === MAX_LINES;
    if (lines.reduce((sum, line) => sum + Buffer.byteLength(line.text), 0) > MAX_BYTES) {
      maxBytes = true;
      let bytes = 0;
      let kept = 0;
      for (const line of [...lines].reverse()) {
        bytes += Buffer.byteLength(line.text);
        if (bytes > MAX_BYTES) break;
        kept += 1;
      }
      lines = lines.slice(lines.length - kept);
    }
  }
  const start = args.line_offset > 0 ? args.line_offset : (lines[0]?.no ?? all.length + 1);
  let message =
    lines.length > 0
      ? `${lines.length} lines read from file starting from line ${start}.`
      : "No lines read from file.";
  message += ` Total lines in file: ${all.length}.`;
  if (maxLines) message += ` Max ${MAX_LINES} lines reached.`;
  else if (maxBytes) message += ` Max ${MAX_BYTES} bytes reached.`;
  else if (lines.length < args.n_lines) message += " End of file reached.";
  const cut = lines.filter((line) => line.cut).map((line) => line.no);
  if (cut.length > 0) message += ` Lines [${cut.join(", ")}] were truncated.`;
  return kimiResult({
    message,
    output: lines.map((line) => `${String(line.no).padStart(6)}\t${line.text}`).join(""),
  });
}
