/** Image formats told apart by their first bytes. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/bmp";

/**
 * The image format of `bytes` by its magic number, or undefined when it is none of these. Every
 * original sniffs rather than trusting the file name: a `.png` full of text is not a PNG.
 */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  const at = (offset: number, ...values: number[]) => values.every((v, i) => bytes[offset + i] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  if (at(0, 0x42, 0x4d) && bytes.length >= 26) return "image/bmp";
  return undefined;
}
