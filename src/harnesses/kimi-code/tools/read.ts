import { z } from "zod";
import type { Tool, ToolContext } from "../../../tools/types.js";
import { resolveKimiPath } from "../path-access.js";
import { readSchema } from "../tool-schemas.js";
import description from "./read.md";
import { DEFAULT_MAX_CHARS, encodingName, MAX_CHARS_LIMIT } from "./read-page.js";
import { decodeSource, TRANSCODE_MAX_BYTES } from "./read-source.js";
import { readView } from "./read-view.js";

const Args = z.object({
  path: z.string(),
  line_offset: z.union([z.number().int().min(1), z.number().int().max(-1)]).optional(),
  column_offset: z.number().int().min(0).optional(),
  n_lines: z.number().int().positive().optional(),
  max_chars: z.number().int().positive().optional(),
});
type Args = z.infer<typeof Args>;

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|tiff?|heic|avif)$/i;
const VIDEO = /\.(mp4|mov|webm|mkv|avi|m4v)$/i;

/**
 * Kimi Code 2.1.0's `Read` (kimi-code `agent/tools/os/read/readTool.ts`): one page of a text
 * file within a character budget, with the status block and continuation that read-view.ts
 * builds; messages as upstream words them. Its result is never spilled to a file: the budget
 * already bounds it.
 */
export function readTool(options: { images: boolean }): Tool<Args> {
  return {
    name: "Read",
    description: description
      .replaceAll("{{DEFAULT_MAX_CHARS}}", String(DEFAULT_MAX_CHARS))
      .replaceAll("{{MAX_CHARS}}", String(MAX_CHARS_LIMIT)),
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
      if (args.column_offset !== undefined && (args.line_offset ?? 1) < 0) {
        return fail(
          "column_offset is only supported for forward reads. Use a positive line_offset or the forward Next Read arguments.",
        );
      }
      const resolved = resolveKimiPath({ ...pathArgs(args, ctx), operation: "read", checkSensitive: true });
      if (!resolved.ok) return fail(resolved.error);
      try {
        return await readPage(args, resolved.path, ctx, options.images);
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
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

async function readPage(args: Args, file: string, ctx: ToolContext, images: boolean) {
  const shown = args.path;
  const info = await ctx.fs.stat(file);
  if (!info) return fail(`"${shown}" does not exist.`);
  if (!info.isFile) return fail(`"${shown}" is not a file.`);
  const media = IMAGE.test(file) ? "image" : VIDEO.test(file) ? "video" : undefined;
  if (media) return fail(mediaRefusal(shown, media, images));
  const source = decodeSource(await ctx.fs.readBytes(file));
  if (source === "not_text")
    return fail(`"${shown}" is not readable as UTF-8 text. Only text files can be read.`);
  if (source === "not_utf8") {
    return fail(
      `"${shown}" is not valid UTF-8 or UTF-16 text. Only UTF-8 and UTF-16 text files can be read; for other encodings (e.g. GBK), convert the file to UTF-8 first (e.g. with \`iconv\`).`,
    );
  }
  if ("tooLargeToTranscode" in source) {
    return fail(
      `"${shown}" is ${encodingName(source.tooLargeToTranscode)} text but too large to transcode (${info.size} bytes > ${TRANSCODE_MAX_BYTES}). Convert it to UTF-8 first (e.g. with \`iconv\`).`,
    );
  }
  return readView(source, args);
}

function pathArgs(args: Args, ctx: { cwd: string; roots: string[] }) {
  return { path: args.path, cwd: ctx.cwd, roots: ctx.roots };
}

function fail(output: string) {
  return { output, isError: true };
}
