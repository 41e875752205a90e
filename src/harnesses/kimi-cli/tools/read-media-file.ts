import { z } from "zod";
import { readImage } from "../../../tools/image/prompt-image.js";
import { sniffImage } from "../../../tools/image/sniff-image.js";
import type { Tool } from "../../../tools/types.js";
import { outsideError, resolveUserPath } from "../paths.js";
import { kimiError } from "../result-builder.js";
import { fillSlots } from "../slots.js";
import { readMediaFileSchema } from "../tool-schemas.js";
import description from "./read-media-file.md";

export const MAX_MEDIA_MEGABYTES = 100;

const Args = z.object({ path: z.string() });
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `ReadMediaFile` (`tools/file/read_media.py`), registered only for a model
 * that takes images: the image as it is on disk, between `<image path="…">` and `</image>` text
 * parts, after the `<system>` line naming its type, size and pixel size. Videos are not read (we
 * send no video parts); any file we cannot tell as an image is "not readable".
 */
export function readMediaFileTool(): Tool<Args> {
  return {
    name: "ReadMediaFile",
    description: fillSlots(description, { MAX_MEDIA_MEGABYTES }),
    kind: "read",
    capability: "read",
    parameters: readMediaFileSchema,
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
      const info = await ctx.fs.stat(file);
      if (!info) return kimiError(`\`${args.path}\` does not exist.`);
      if (!info.isFile) return kimiError(`\`${args.path}\` is not a file.`);
      const bytes = await ctx.fs.readBytes(file);
      const mimeType = sniffImage(bytes);
      if (!mimeType) {
        if (!bytes.subarray(0, 8192).includes(0))
          return kimiError(`\`${args.path}\` is a text file. Use ReadFile to read text files.`);
        return kimiError(
          `\`${args.path}\` seems not readable as an image or video file. You may need to read it with proper shell commands, Python tools or MCP tools if available. If you read/operate it with Python, you MUST ensure that any third-party packages are installed in a virtual environment (venv).`,
        );
      }
      if (bytes.length === 0) return kimiError(`\`${file}\` is empty.`);
      if (bytes.length > MAX_MEDIA_MEGABYTES << 20)
        return kimiError(
          `\`${file}\` is ${bytes.length} bytes, which exceeds the max ${MAX_MEDIA_MEGABYTES}MB bytes for media files.`,
        );
      const size = await readImage(bytes).then(
        ({ size }) => `, original size ${size.width}x${size.height}px`,
        () => "",
      );
      const status = `<system>Loaded image file \`${file}\` (${mimeType}, ${bytes.length} bytes${size}). If you need to output coordinates, output relative coordinates first and compute absolute coordinates using the original image size; if you generate or edit images/videos via commands or scripts, read the result back immediately before continuing.</system>`;
      const open = `<image path="${escapeAttr(file)}">`;
      return {
        output: `${status}${open}</image>`,
        parts: [
          { type: "text", text: status },
          { type: "text", text: open },
          { type: "image", mimeType, data: Buffer.from(bytes).toString("base64") },
          { type: "text", text: "</image>" },
        ],
      };
    },
  };
}

/** Python's `html.escape(value, quote=True)`. */
function escapeAttr(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}
