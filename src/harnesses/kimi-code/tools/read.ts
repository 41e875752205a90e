import { z } from "zod";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import { FsToolError } from "../../../tools/fs/types.js";
import type { Tool } from "../../../tools/types.js";
import { resolveKimiPath } from "../path-access.js";
import { EMPTY_OUTPUT, spillOversized } from "../tool-result.js";
import { readSchema } from "../tool-schemas.js";
import description from "./read.md";
import { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES, readView } from "./read-view.js";

const Args = z.object({
  path: z.string(),
  line_offset: z.union([z.number().int().min(1), z.number().int().min(-MAX_LINES).max(-1)]).optional(),
  n_lines: z.number().int().positive().optional(),
});
type Args = z.infer<typeof Args>;

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|tiff?|heic|avif)$/i;
const VIDEO = /\.(mp4|mov|webm|mkv|avi|m4v)$/i;

/** Kimi Code `Read` (kimi-code `agent/tools/os/read/readTool.ts`), messages as upstream words them. */
export function readTool(options: { scratchDir: string; images: boolean }): Tool<Args> {
  return {
    name: "Read",
    description: description
      .replaceAll("{{MAX_LINES}}", String(MAX_LINES))
      .replaceAll("{{MAX_KB}}", String(MAX_BYTES / 1000))
      .replaceAll("{{MAX_LINE_LENGTH}}", String(MAX_LINE_LENGTH)),
    kind: "read",
    capability: "read",
    parameters: readSchema,
    schema: Args,
    async preview(args, ctx) {
      const resolved = resolveKimiPath({ ...pathArgs(args, ctx), operation: "read", checkSensitive: false });
      return { title: `Read ${args.path}`, locations: resolved.ok ? [{ path: resolved.path }] : [] };
    },
    access(args, ctx) {
      const resolved = resolveKimiPath({ ...pathArgs(args, ctx), operation: "read", checkSensitive: false });
      return resolved.ok ? { type: "read", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const resolved = resolveKimiPath({ ...pathArgs(args, ctx), operation: "read", checkSensitive: true });
      if (!resolved.ok) return { output: resolved.error, isError: true };
      const media = IMAGE.test(resolved.path) ? "image" : VIDEO.test(resolved.path) ? "video" : undefined;
      if (media) return fail(mediaRefusal(args.path, media, options.images));
      let content: string;
      try {
        content = (await readTextFile({ fs: ctx.fs, path: resolved.path })).content;
      } catch (error) {
        return fail(readError(error, args.path));
      }
      const view = readView(content, { lineOffset: args.line_offset, nLines: args.n_lines });
      // Upstream spills an oversized body (not the status block) to a file before it is shown.
      const body = await spillOversized({
        text: view.body,
        toolName: "Read",
        scratchDir: options.scratchDir,
      });
      return { output: `${body.trim() === "" ? EMPTY_OUTPUT : body}\n${view.note}` };
    },
  };
}

/** Kimi Code's Read on a media file: where to look instead, or why the model cannot. */
function mediaRefusal(shown: string, kind: "image" | "video", images: boolean): string {
  const what = `"${shown}" is ${kind === "image" ? "an" : "a"} ${kind} file.`;
  // Video input is never wired here, and image input only where the model takes images.
  if (kind === "video" || !images) {
    return `${what} The current model does not support ${kind} input (missing ${kind}_in capability), so this agent cannot view it. Only text files can be read.`;
  }
  return `${what} Only text files can be read; use ReadMediaFile for image and video files.`;
}

function pathArgs(args: Args, ctx: { cwd: string; roots: string[] }) {
  return { path: args.path, cwd: ctx.cwd, roots: ctx.roots };
}

function fail(output: string) {
  return { output, isError: true };
}

function readError(error: unknown, shown: string): string {
  if (error instanceof FsToolError) {
    if (error.code === "not_found") return `"${shown}" does not exist.`;
    if (error.code === "is_directory") return `"${shown}" is not a file.`;
    if (error.code === "binary" && error.message.includes("UTF-8")) {
      return `"${shown}" is not valid UTF-8 or UTF-16 text. Only UTF-8 and UTF-16 text files can be read; for other encodings (e.g. GBK), convert the file to UTF-8 first (e.g. with \`iconv\`).`;
    }
    if (error.code === "binary")
      return `"${shown}" is not readable as UTF-8 text. Only text files can be read.`;
    return error.message;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return `"${shown}" is not a file.`;
  return error instanceof Error ? error.message : String(error);
}
