import type { Sharp } from "./load-sharp.js";
import { fitWithin, type ImageSize, readImage } from "./prompt-image.js";

/** Kimi Code 2.1.0's image budget for a read: the longest edge and the encoded bytes. */
export const KIMI_MAX_EDGE = 2000;
export const KIMI_BYTE_BUDGET = 262_144;
/** Images it decodes to crop or resize at most; larger ones are refused for region and full views. */
export const KIMI_MAX_DECODE_BYTES = 64 * 1024 * 1024;
const JPEG_QUALITIES = [80, 60, 40, 20];
const FALLBACK_EDGES = [2000, 1000, 768, 512, 384, 256];
const PNG_FLOOR_EDGE = 1000;

/** What Kimi Code's note says about the image it sent. */
export interface KimiImage {
  data: Buffer;
  mimeType: string;
  width: number;
  height: number;
  /** The file's own size in pixels (0 × 0 when it could not be read). */
  original: { width: number; height: number };
  /** `downsampled`: re-encoded smaller; `untouched`: the file's own bytes. */
  delivery: "downsampled" | "untouched";
}

/**
 * An image read the way Kimi Code 2.1.0's ReadMediaFile sends it: the file's own bytes when
 * they fit the budget (2000 px, 262 144 bytes) or cannot be re-encoded (GIF, BMP); else scaled to
 * 2000 px and encoded within the budget: PNG first for lossless sources (then smaller PNGs down
 * to 1000 px), then JPEG at falling quality, then JPEG at smaller sizes; the smallest try when
 * none fits. A result no smaller than the file in bytes or pixels sends the file instead.
 */
export async function kimiImage(bytes: Uint8Array, mimeType: string): Promise<KimiImage> {
  const untouched = (size: { width: number; height: number }): KimiImage => ({
    data: Buffer.from(bytes),
    mimeType,
    ...size,
    original: size,
    delivery: "untouched",
  });
  const read = await readImage(bytes).catch(() => undefined);
  const size = read ? { width: read.size.width, height: read.size.height } : { width: 0, height: 0 };
  const recodable = read && ["image/png", "image/jpeg", "image/webp"].includes(mimeType);
  if (!read || !recodable) return untouched(size);
  if (bytes.length <= KIMI_BYTE_BUDGET && Math.max(size.width, size.height) <= KIMI_MAX_EDGE)
    return untouched(size);
  if (bytes.length > KIMI_MAX_DECODE_BYTES) return untouched(size);
  const encoded = await encodeWithinBudget({
    sharp: read.sharp,
    bytes,
    size: read.size,
    lossless: mimeType !== "image/jpeg",
  });
  if (encoded.data.length >= bytes.length && encoded.width * encoded.height >= size.width * size.height)
    return untouched(size);
  return { ...encoded, original: size, delivery: "downsampled" };
}

/** A crop of the image at its own resolution (`full`) or fitted to the budget like a whole read. */
export async function kimiCrop(
  bytes: Uint8Array,
  options: {
    mimeType: string;
    region: { x: number; y: number; width: number; height: number };
    full: boolean;
  },
): Promise<
  (Omit<KimiImage, "delivery"> & { region: typeof options.region; resized: boolean }) | { error: string }
> {
  const { region, mimeType } = options;
  if (!["image/png", "image/jpeg", "image/webp"].includes(mimeType))
    return { error: `Cropping is only supported for PNG, JPEG, and WebP images; got ${mimeType}.` };
  const read = await readImage(bytes).catch(() => undefined);
  if (!read) return { error: "Failed to decode the image for cropping: invalid or unsupported image data" };
  const { width, height } = read.size;
  if (region.x >= width || region.y >= height) {
    return {
      error: `Region (x=${region.x}, y=${region.y}, width=${region.width}, height=${region.height}) lies outside the ${width}x${height} image.`,
    };
  }
  const applied = {
    x: region.x,
    y: region.y,
    width: Math.min(region.width, width - region.x),
    height: Math.min(region.height, height - region.y),
  };
  const cropped = await read
    .sharp(bytes)
    .autoOrient()
    .extract({ left: applied.x, top: applied.y, width: applied.width, height: applied.height })
    .png()
    .toBuffer();
  const lossless = mimeType !== "image/jpeg";
  const original = { width, height };
  if (options.full) {
    const data = lossless
      ? await read.sharp(cropped).png({ compressionLevel: 9 }).toBuffer()
      : await read.sharp(cropped).jpeg({ quality: 90 }).toBuffer();
    if (data.length > KIMI_BYTE_BUDGET) {
      return {
        error: `The cropped region encodes to ${data.length} bytes (${kimiByteSize(data.length)}), over the ${KIMI_BYTE_BUDGET}-byte (${kimiByteSize(KIMI_BYTE_BUDGET)}) per-image limit. Choose a smaller region, or allow downscaling.`,
      };
    }
    const mime = lossless ? "image/png" : "image/jpeg";
    return {
      data,
      mimeType: mime,
      width: applied.width,
      height: applied.height,
      original,
      region: applied,
      resized: false,
    };
  }
  const encoded = await encodeWithinBudget({
    sharp: read.sharp,
    bytes: cropped,
    size: { width: applied.width, height: applied.height, format: "png" },
    lossless,
  });
  const resized = encoded.width !== applied.width || encoded.height !== applied.height;
  return { ...encoded, original, region: applied, resized };
}

/** Kimi Code's byte sizes in notes: `17 KB`, `1.8 MB`, `79 B`. */
export function kimiByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function encodeWithinBudget(o: {
  sharp: Sharp;
  bytes: Uint8Array;
  size: ImageSize;
  lossless: boolean;
}): Promise<{ data: Buffer; mimeType: string; width: number; height: number }> {
  let current = fitWithin(o.size, KIMI_MAX_EDGE);
  type Try = { data: Buffer; mimeType: string; width: number; height: number };
  let smallest: Try | undefined;
  const consider = (data: Buffer, mimeType: string): Try => {
    const tried = { data, mimeType, ...current };
    if (!smallest || data.length < smallest.data.length) smallest = tried;
    return tried;
  };
  const at = () => o.sharp(o.bytes).autoOrient().resize(current.width, current.height, { fit: "fill" });
  const png = async () => consider(await at().png({ compressionLevel: 9 }).toBuffer(), "image/png");
  const jpegLadder = async (): Promise<Try | undefined> => {
    for (const quality of JPEG_QUALITIES) {
      const tried = consider(await at().jpeg({ quality }).toBuffer(), "image/jpeg");
      if (tried.data.length <= KIMI_BYTE_BUDGET) return tried;
    }
    return undefined;
  };
  const smaller = (edge: number) => {
    if (Math.max(current.width, current.height) <= edge) return false;
    current = fitWithin(current, edge);
    return true;
  };
  if (o.lossless) {
    const first = await png();
    if (first.data.length <= KIMI_BYTE_BUDGET) return first;
    for (const edge of FALLBACK_EDGES) {
      if (edge < PNG_FLOOR_EDGE) break;
      if (!smaller(edge)) continue;
      const tried = await png();
      if (tried.data.length <= KIMI_BYTE_BUDGET) return tried;
    }
    const atFloor = await jpegLadder();
    if (atFloor) return atFloor;
    for (const edge of FALLBACK_EDGES) {
      if (edge >= PNG_FLOOR_EDGE || !smaller(edge)) continue;
      const tried = await jpegLadder();
      if (tried) return tried;
    }
    return smallest as Try;
  }
  const fitted = await jpegLadder();
  if (fitted) return fitted;
  for (const edge of FALLBACK_EDGES) {
    if (!smaller(edge)) continue;
    const tried = await jpegLadder();
    if (tried) return tried;
  }
  return smallest as Try;
}
