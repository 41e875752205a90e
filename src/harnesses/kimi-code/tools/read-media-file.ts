import { z } from "zod";
import {
  KIMI_BYTE_BUDGET,
  KIMI_MAX_DECODE_BYTES,
  KIMI_MAX_EDGE,
  kimiCrop,
  kimiImage,
} from "../../../tools/image/kimi-image.js";
import { imageResultPart, readImage } from "../../../tools/image/prompt-image.js";
import type { Tool, ToolResult } from "../../../tools/types.js";
import {
  conversionGuidance,
  type Delivery,
  decodeLimitError,
  deliveryLimitError,
  fullResolutionLimitError,
  mediaNote,
  NO_VIDEO_INPUT,
} from "../media-note.js";
import { mediaType } from "../media-type.js";
import { resolveKimiPath } from "../path-access.js";
import { readMediaFileSchema } from "../tool-schemas.js";
import description from "./read-media-file.md";

/** The largest media file Kimi Code reads. */
const MAX_MEDIA_BYTES = 100 * 1024 * 1024;
/** Kimi's API takes images up to 5 MiB each inline. */
const INLINE_BUDGET = 5 * 1024 * 1024;
/** What Kimi's API accepts; anything else is answered with how to convert it. */
const ACCEPTED = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/bmp",
  "image/heic",
  "image/heif",
]);
const RECODABLE = new Set(["image/png", "image/jpeg", "image/webp"]);

const Region = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
const Args = z.object({
  path: z.string(),
  region: Region.optional(),
  full_resolution: z.boolean().optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `ReadMediaFile` for images: the result is `<image path="…">`, the image,
 * `</image>` and a `<system>` note, as parts of the tool message. Whole images go within 2000 px
 * and 262 144 bytes (kimi-image.ts); `region` crops, `full_resolution` sends the file as it is.
 * Videos are refused with Kimi's text for a model without video input: none is wired here.
 */
export function readMediaFileTool(): Tool<Args> {
  return {
    name: "ReadMediaFile",
    description: description.replaceAll("{{MAX_MEGABYTES}}", "100"),
    kind: "read",
    capability: "other",
    parameters: readMediaFileSchema,
    schema: Args,
    async preview(args, ctx) {
      const resolved = resolveKimiPath({ ...where(args, ctx), operation: "read", checkSensitive: false });
      return {
        title: `Reading media: ${args.path}`,
        locations: resolved.ok ? [{ path: resolved.path }] : [],
      };
    },
    access(args, ctx) {
      const resolved = resolveKimiPath({ ...where(args, ctx), operation: "read", checkSensitive: false });
      return resolved.ok ? { type: "read", paths: [resolved.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      if (!args.path) return fail("File path cannot be empty.");
      const resolved = resolveKimiPath({ ...where(args, ctx), operation: "read", checkSensitive: true });
      if (!resolved.ok) return fail(resolved.error);
      const file = resolved.path;
      const stat = await ctx.fs.stat(file);
      if (!stat) return fail(`Failed to read ${args.path}: read failed: path does not exist`);
      if (stat.isDirectory) return fail(`Failed to read ${args.path}: read failed: path is a directory`);
      const bytes = Buffer.from(await ctx.fs.readBytes(file));
      const type = mediaType(file, bytes.subarray(0, 512));
      if (type.kind === "text") return fail(`"${args.path}" is a text file. Use Read to read text files.`);
      if (type.kind === "unknown") {
        return fail(
          `"${args.path}" is not a supported image or video file. Use Read for text files, or Bash or an MCP tool for other binary formats.`,
        );
      }
      if (type.kind === "video") return fail(NO_VIDEO_INPUT);
      if (!ACCEPTED.has(type.mimeType)) return fail(conversionGuidance(file, type.mimeType));
      if (bytes.length === 0) return fail(`"${args.path}" is empty.`);
      if (bytes.length > MAX_MEDIA_BYTES) {
        return fail(
          `"${args.path}" is ${bytes.length} bytes, which exceeds the maximum 100MB for media files.`,
        );
      }
      const focused = args.region !== undefined || args.full_resolution === true;
      if (focused && bytes.length > KIMI_MAX_DECODE_BYTES)
        return fail(decodeLimitError(bytes.length, KIMI_MAX_DECODE_BYTES));
      if (!args.region && args.full_resolution && bytes.length > INLINE_BUDGET) {
        return fail(fullResolutionLimitError(args.path, bytes.length, INLINE_BUDGET));
      }
      const shown = { mimeType: type.mimeType, bytes: bytes.length, file };
      if (args.region) {
        const crop = await kimiCrop(bytes, {
          mimeType: type.mimeType,
          region: args.region,
          full: args.full_resolution === true,
        });
        if ("error" in crop) return fail(`Cannot read region from "${args.path}": ${crop.error}`);
        const delivery: Delivery = {
          kind: "crop",
          region: crop.region,
          ...(crop.resized ? { resized: { width: crop.width, height: crop.height } } : {}),
        };
        return imageResult(shown, crop, crop.original, delivery);
      }
      if (args.full_resolution) {
        const size = await readImage(bytes).then(
          (read) => read.size,
          () => undefined,
        );
        return imageResult(shown, { data: bytes, mimeType: type.mimeType }, size && known(size), {
          kind: "full",
        });
      }
      const image = await kimiImage(bytes, type.mimeType);
      const limit = RECODABLE.has(type.mimeType) ? undefined : Math.max(KIMI_BYTE_BUDGET, INLINE_BUDGET);
      if (limit !== undefined && image.data.length > limit) {
        return fail(conversionGuidance(file, type.mimeType, { bytes: image.data.length, limit }));
      }
      const over =
        image.data.length > KIMI_BYTE_BUDGET || Math.max(image.width, image.height) > KIMI_MAX_EDGE;
      if (limit === undefined && over) return fail(deliveryLimitError(image.data.length));
      const delivery: Delivery =
        image.delivery === "downsampled"
          ? {
              kind: "downsampled",
              width: image.width,
              height: image.height,
              mimeType: image.mimeType,
              bytes: image.data.length,
            }
          : { kind: "untouched" };
      return imageResult(shown, image, known(image.original), delivery);
    },
  };
}

function imageResult(
  shown: { mimeType: string; bytes: number; file: string },
  image: { data: Buffer; mimeType: string },
  dimensions: { width: number; height: number } | undefined,
  delivery: Delivery,
): ToolResult {
  const open = `<image path="${shown.file}">`;
  const note = mediaNote({
    mimeType: shown.mimeType,
    bytes: shown.bytes,
    ...(dimensions ? { dimensions } : {}),
    delivery,
  });
  return {
    output: `${open}\n</image>\n${note}`,
    parts: [
      { type: "text", text: open },
      imageResultPart(image),
      { type: "text", text: "</image>" },
      { type: "text", text: note },
    ],
  };
}

/** Sizes the decoder could not read are left out of the note. */
function known(size: { width: number; height: number }): { width: number; height: number } | undefined {
  return size.width > 0 && size.height > 0 ? size : undefined;
}

function where(args: Args, ctx: { cwd: string; roots: string[] }) {
  return { path: args.path, cwd: ctx.cwd, roots: ctx.roots };
}

function fail(output: string): ToolResult {
  return { output, isError: true };
}
