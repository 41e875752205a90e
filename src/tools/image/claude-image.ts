import type { Sharp } from "./load-sharp.js";
import { loadSharp } from "./load-sharp.js";
import type { PromptImage } from "./prompt-image.js";
import { sniffImage } from "./sniff-image.js";

/** Claude Code 2.1.44's bounds for an image it sends: 2000 × 2000 px and 3.75 MiB of bytes. */
export const CLAUDE_MAX_SIDE = 2000;
export const CLAUDE_MAX_BYTES = 3_932_160;
/** Read's token cap; an image whose base64 costs more (1 token per 8 characters) is made smaller. */
export const CLAUDE_READ_MAX_TOKENS = 25_000;
const QUALITIES = [80, 60, 40, 20];

/**
 * An image read the way Claude Code 2.1.44's Read sends it (sharp, as it uses): within bounds,
 * the file as it is; else a palette PNG (for PNGs) or JPEG at falling quality that fits; else
 * scaled into 2000 × 2000 and tried the same way; at worst a small JPEG. Then, when its base64
 * would cost more than 25 000 tokens, the file is compressed again from the original to fit
 * 75 % of that budget. The media type is sniffed from the bytes (PNG when unknown), and a file
 * sharp cannot read is sent as it is. Palette quantization runs at sharp's lowest effort: the
 * default spends seconds per try on a photo-like PNG for files a few percent smaller.
 */
export async function claudeImage(
  bytes: Uint8Array,
  maxTokens = CLAUDE_READ_MAX_TOKENS,
): Promise<PromptImage> {
  const sharp = await loadSharp();
  const sniffed = (sniffImage(bytes) ?? "image/png").replace("image/bmp", "image/png");
  const raw = (): PromptImage => ({ data: Buffer.from(bytes), mimeType: sniffed, width: 0, height: 0 });
  const first = await fitClaude(sharp, bytes, sniffed).catch(raw);
  if (Math.ceil(first.data.toString("base64").length * 0.125) <= maxTokens) return first;
  const budget = Math.floor(Math.floor(maxTokens / 0.125) * 0.75);
  return (await compressTo(sharp, bytes, budget).catch(() => undefined)) ?? first;
}

/** Claude Code's general bound (also what it does to MCP images): 2000 px a side, 3.75 MiB. */
export async function fitClaude(sharp: Sharp, bytes: Uint8Array, fallbackType: string): Promise<PromptImage> {
  const meta = await sharp(bytes).metadata();
  const format: string = meta.format ?? fallbackType.slice("image/".length);
  const mimeType = `image/${format}`;
  const size = bytes.length;
  const done = (data: Uint8Array, type: string, w = meta.width ?? 0, h = meta.height ?? 0): PromptImage => ({
    data: Buffer.from(data),
    mimeType: type,
    width: w,
    height: h,
  });
  if (!meta.width || !meta.height) {
    if (size > CLAUDE_MAX_BYTES)
      return done(await sharp(bytes).jpeg({ quality: 80 }).toBuffer(), "image/jpeg");
    return done(bytes, mimeType);
  }
  let width = meta.width;
  let height = meta.height;
  if (size <= CLAUDE_MAX_BYTES && width <= CLAUDE_MAX_SIDE && height <= CLAUDE_MAX_SIDE)
    return done(bytes, mimeType);
  const png = format === "png";
  const tryEncodings = async (resize?: {
    width: number;
    height: number;
  }): Promise<PromptImage | undefined> => {
    const base = () =>
      resize
        ? sharp(bytes).resize(resize.width, resize.height, { fit: "inside", withoutEnlargement: true })
        : sharp(bytes);
    if (png) {
      const data = await base().png({ compressionLevel: 9, palette: true, effort: 1 }).toBuffer();
      if (data.length <= CLAUDE_MAX_BYTES) return done(data, "image/png", resize?.width, resize?.height);
    }
    for (const quality of QUALITIES) {
      const data = await base().jpeg({ quality }).toBuffer();
      if (data.length <= CLAUDE_MAX_BYTES) return done(data, "image/jpeg", resize?.width, resize?.height);
    }
    return undefined;
  };
  const oversized = width > CLAUDE_MAX_SIDE || height > CLAUDE_MAX_SIDE;
  if (!oversized) {
    const fitted = await tryEncodings();
    if (fitted) return fitted;
  }
  if (width > CLAUDE_MAX_SIDE) {
    height = Math.round((height * CLAUDE_MAX_SIDE) / width);
    width = CLAUDE_MAX_SIDE;
  }
  if (height > CLAUDE_MAX_SIDE) {
    width = Math.round((width * CLAUDE_MAX_SIDE) / height);
    height = CLAUDE_MAX_SIDE;
  }
  const resized = await sharp(bytes)
    .resize(width, height, { fit: "inside", withoutEnlargement: true })
    .toBuffer();
  if (resized.length <= CLAUDE_MAX_BYTES) return done(resized, mimeType, width, height);
  const encoded = await tryEncodings({ width, height });
  if (encoded) return encoded;
  const smallWidth = Math.min(width, 1000);
  const smallHeight = Math.round((height * smallWidth) / Math.max(width, 1));
  const data = await sharp(bytes)
    .resize(smallWidth, smallHeight, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 20 })
    .toBuffer();
  return done(data, "image/jpeg", smallWidth, smallHeight);
}

/** Claude Code's compression to a byte budget: smaller scales, then fewer colours, then small JPEGs. */
async function compressTo(sharp: Sharp, bytes: Uint8Array, budget: number): Promise<PromptImage> {
  const meta = await sharp(bytes).metadata();
  const format: string = meta.format ?? "jpeg";
  if (bytes.length <= budget)
    return { data: Buffer.from(bytes), mimeType: `image/${format}`, width: 0, height: 0 };
  const inside = (w: number, h: number) =>
    sharp(bytes).resize(w, h, { fit: "inside", withoutEnlargement: true });
  const out = (data: Buffer, type: string): PromptImage => ({
    data,
    mimeType: `image/${type}`,
    width: 0,
    height: 0,
  });
  for (const scale of [1, 0.75, 0.5, 0.25]) {
    const w = Math.round((meta.width || 2000) * scale);
    const h = Math.round((meta.height || 2000) * scale);
    let pipeline = inside(w, h);
    if (format === "png") pipeline = pipeline.png({ compressionLevel: 9, palette: true, effort: 1 });
    else if (format === "jpeg") pipeline = pipeline.jpeg({ quality: 80 });
    else if (format === "webp") pipeline = pipeline.webp({ quality: 80 });
    const data = await pipeline.toBuffer();
    if (data.length <= budget) return out(data, format);
  }
  if (format === "png") {
    const data = await inside(800, 800)
      .png({ compressionLevel: 9, palette: true, colours: 64, effort: 1 })
      .toBuffer();
    if (data.length <= budget) return out(data, "png");
  }
  const medium = await inside(600, 600).jpeg({ quality: 50 }).toBuffer();
  if (medium.length <= budget) return out(medium, "jpeg");
  return out(await inside(400, 400).jpeg({ quality: 20 }).toBuffer(), "jpeg");
}
