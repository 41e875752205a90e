import { fitWithin, type PromptImage, readImage } from "./prompt-image.js";
import { sniffImage } from "./sniff-image.js";

/** Codex 0.171's bounds for an image it resizes: each side at most 2048 px... */
export const CODEX_MAX_DIMENSION = 2048;
/** ...and at most 2500 patches of 32 × 32 px (the model's budget at `high` detail). */
export const CODEX_PATCH_BUDGET = 2500;
const PATCH = 32;
/** Codex refuses to read a larger file for a prompt. */
export const CODEX_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * An image as Codex 0.171's `view_image` sends it. `original` (models that take original
 * detail) keeps the file as it is; otherwise a larger image is scaled down to Codex's bounds.
 * PNG, JPEG and WebP within the bounds go byte for byte; a GIF (or a resized PNG) goes as PNG, a
 * resized JPEG as JPEG (quality 85), a resized WebP as lossless WebP.
 */
export async function codexImage(bytes: Uint8Array, options: { original: boolean }): Promise<PromptImage> {
  if (bytes.length > CODEX_MAX_FILE_BYTES)
    throw new Error(`image exceeds the ${CODEX_MAX_FILE_BYTES}-byte limit`);
  const sniffed = sniffImage(bytes);
  if (!sniffed || sniffed === "image/bmp") throw new Error("invalid or unsupported image data");
  const { sharp, size } = await readImage(bytes).catch(() => {
    throw new Error("invalid or unsupported image data");
  });
  const keepsBytes = sniffed !== "image/gif";
  const target = options.original ? size : codexBounds(size);
  if (target.width === size.width && target.height === size.height) {
    if (keepsBytes) return { data: Buffer.from(bytes), mimeType: sniffed, ...target };
    const data = await sharp(bytes).png().toBuffer();
    return { data, mimeType: "image/png", ...target };
  }
  const resized = sharp(bytes).autoOrient().resize(target.width, target.height, { fit: "fill" });
  if (sniffed === "image/jpeg") {
    return { data: await resized.jpeg({ quality: 85 }).toBuffer(), mimeType: "image/jpeg", ...target };
  }
  if (sniffed === "image/webp") {
    return { data: await resized.webp({ lossless: true }).toBuffer(), mimeType: "image/webp", ...target };
  }
  return { data: await resized.ensureAlpha().png().toBuffer(), mimeType: "image/png", ...target };
}

/**
 * The size Codex scales an image to: within 2048 px a side, then, over the patch budget, the
 * largest scale whose whole patches fit it (sides rounded down), as OpenAI sizes images.
 */
export function codexBounds(size: { width: number; height: number }): { width: number; height: number } {
  const fitted = fitWithin(size, CODEX_MAX_DIMENSION);
  const { width, height } = fitted;
  if (patches(width, height) <= CODEX_PATCH_BUDGET) return fitted;
  let scale = Math.sqrt((PATCH * PATCH * CODEX_PATCH_BUDGET) / (width * height));
  const across = (width * scale) / PATCH;
  const down = (height * scale) / PATCH;
  scale *= Math.min(Math.floor(across) / across, Math.floor(down) / down);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

function patches(width: number, height: number): number {
  return Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
}
