import type { ResultPart } from "../../store/events.js";
import { loadSharp, type Sharp } from "./load-sharp.js";

/** An image as it goes to a model: its bytes, their type and size in pixels. */
export interface PromptImage {
  data: Buffer;
  mimeType: string;
  width: number;
  height: number;
}

/** Width and height as the image is shown (EXIF orientations 5 to 8 swap them). */
export interface ImageSize {
  width: number;
  height: number;
  /** sharp's name of the format: `png`, `jpeg`, `webp`, `gif`, ... */
  format: string;
}

/** The decoder, and the size and format of `bytes`; rejects when they are no image it reads. */
export async function readImage(bytes: Uint8Array): Promise<{ sharp: Sharp; size: ImageSize }> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height || !meta.format) throw new Error("invalid or unsupported image data");
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    sharp,
    size: {
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      format: meta.format,
    },
  };
}

/** `width × height` scaled to fit a `box × box` square, each side rounded, at least 1. */
export function fitWithin(
  size: { width: number; height: number },
  box: number,
): { width: number; height: number } {
  const longest = Math.max(size.width, size.height);
  if (longest <= box) return { width: size.width, height: size.height };
  const factor = box / longest;
  return {
    width: Math.max(1, Math.round(size.width * factor)),
    height: Math.max(1, Math.round(size.height * factor)),
  };
}

/** `image/<format>` for sharp's format names (`jpg` is `jpeg`). */
export function mimeOf(format: string): string {
  return `image/${format === "jpg" ? "jpeg" : format}`;
}

/** The image as a stored result part (base64), with the Responses detail its original asks for. */
export function imageResultPart(
  image: Pick<PromptImage, "data" | "mimeType">,
  detail?: "high" | "original",
): Extract<ResultPart, { type: "image" }> {
  return {
    type: "image",
    mimeType: image.mimeType,
    data: image.data.toString("base64"),
    ...(detail ? { detail } : {}),
  };
}
