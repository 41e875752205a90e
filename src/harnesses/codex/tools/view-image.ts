import path from "node:path";
import { z } from "zod";
import { codexImage } from "../../../tools/image/codex-image.js";
import { imageResultPart } from "../../../tools/image/prompt-image.js";
import type { Tool } from "../../../tools/types.js";
import { viewImageSchema } from "../tool-schemas.js";
import description from "./view-image.md";

/** Codex's answer when the model cannot take images (its model info lacks image input). */
export const VIEW_IMAGE_UNSUPPORTED = "view_image is not allowed because you do not support image inputs";

const Args = z.looseObject({
  path: z.string(),
  /** Not in 0.171's schema, but its handler reads it: `high`, or `original` where the model allows it. */
  detail: z.string().nullish(),
});
type Args = z.infer<typeof Args>;

/**
 * Codex 0.171 `view_image`: the image as the only content of the function output, at `high`
 * detail scaled to Codex's bounds, or at `original` detail as the file is for the models whose
 * catalog entry allows it (the gpt-5 family). Failures are plain texts, as Codex words them.
 */
export function viewImageTool(options: { images: boolean; originalDetail: boolean }): Tool<Args> {
  return {
    name: "view_image",
    description,
    kind: "read",
    capability: "other",
    parameters: viewImageSchema,
    schema: Args,
    preview: async (args, ctx) => {
      const file = path.resolve(ctx.cwd, args.path);
      return { title: `View image ${file}`, locations: [{ path: file }] };
    },
    access: (args, ctx) => ({ type: "read", paths: [path.resolve(ctx.cwd, args.path)] }),
    async execute(args, ctx) {
      if (!options.images) return { output: VIEW_IMAGE_UNSUPPORTED, isError: true };
      const detail = args.detail ?? undefined;
      if (detail !== undefined && detail !== "high" && detail !== "original") {
        return {
          output: `view_image.detail only supports \`high\` or \`original\`; omit \`detail\` for default high resized behavior, got \`${detail}\``,
          isError: true,
        };
      }
      const file = path.resolve(ctx.cwd, args.path);
      const stat = await ctx.fs.stat(file).catch(() => undefined);
      if (!stat) {
        return {
          output: `unable to locate image at \`${file}\`: No such file or directory (os error 2)`,
          isError: true,
        };
      }
      if (!stat.isFile) return { output: `image path \`${file}\` is not a file`, isError: true };
      let bytes: Uint8Array;
      try {
        bytes = await ctx.fs.readBytes(file);
      } catch (error) {
        return { output: `unable to read image at \`${file}\`: ${messageOf(error)}`, isError: true };
      }
      const original = options.originalDetail && detail !== "high";
      try {
        const image = await codexImage(bytes, { original });
        return {
          output: `[image ${file}: ${image.mimeType}, ${image.width}x${image.height}]`,
          parts: [imageResultPart(image, original ? "original" : "high")],
        };
      } catch (error) {
        return { output: `unable to process image: ${messageOf(error)}`, isError: true };
      }
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
