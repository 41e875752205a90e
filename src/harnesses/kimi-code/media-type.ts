import path from "node:path";
import { sniffImage } from "../../tools/image/sniff-image.js";

/** What Kimi Code 2.1.0 takes a file for (`agent/media/file-type.ts`, in its media mode). */
export type MediaType =
  | { kind: "image" | "video"; mimeType: string }
  | { kind: "text" }
  /** Neither: random bytes, an empty file, or a `.png` whose bytes are not an image. */
  | { kind: "unknown" };

const IMAGE_SUFFIXES = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".bmp",
  ".tif",
  ".tiff",
  ".webp",
  ".ico",
  ".heic",
  ".heif",
  ".avif",
  ".svgz",
]);
const VIDEO_SUFFIXES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".mpg": "video/mpeg",
  ".mpeg": "video/mpeg",
  ".mkv": "video/x-matroska",
  ".avi": "video/x-msvideo",
  ".mov": "video/quicktime",
  ".ogv": "video/ogg",
  ".wmv": "video/x-ms-wmv",
  ".webm": "video/webm",
  ".m4v": "video/x-m4v",
  ".flv": "video/x-flv",
  ".3gp": "video/3gpp",
  ".3g2": "video/3gpp2",
};
/** Formats a suffix alone never makes text: documents, archives, design files. */
const NOT_TEXT =
  /\.(icns|psd|ai|eps|pdf|docx?|dotx?|rtf|odt|xls[xmt]?|xlt[xm]?|ods|pp[ts][xm]?|odp|pages|numbers|key|zip|rar|7z|tar|gz|tgz|bz2|xz|exe|dll|so|dylib|bin|class|jar|wasm)$/i;
const FTYP_IMAGES: Record<string, string> = {
  avif: "image/avif",
  avis: "image/avif",
  heic: "image/heic",
  heif: "image/heif",
  heix: "image/heif",
  hevc: "image/heic",
  mif1: "image/heif",
  msf1: "image/heif",
};
const FTYP_VIDEOS: Record<string, string> = {
  isom: "video/mp4",
  iso2: "video/mp4",
  iso5: "video/mp4",
  mp41: "video/mp4",
  mp42: "video/mp4",
  avc1: "video/mp4",
  mp4v: "video/mp4",
  m4v: "video/x-m4v",
  qt: "video/quicktime",
  "3gp4": "video/3gpp",
  "3gp5": "video/3gpp",
  "3gp6": "video/3gpp",
  "3gp7": "video/3gpp",
  "3g2": "video/3gpp2",
};

/** The file's kind from its first bytes, its suffix deciding only when the bytes say nothing. */
export function mediaType(file: string, header: Uint8Array): MediaType {
  const sniffed = sniffMedia(header);
  if (sniffed) return sniffed;
  const suffix = path.extname(file).toLowerCase();
  if (IMAGE_SUFFIXES.has(suffix)) return { kind: "unknown" };
  const video = VIDEO_SUFFIXES[suffix];
  if (video) return { kind: "video", mimeType: video };
  if (header.includes(0) || NOT_TEXT.test(suffix)) return { kind: "unknown" };
  return { kind: "text" };
}

function sniffMedia(header: Uint8Array): MediaType | undefined {
  const image = sniffImage(header);
  if (image) return { kind: "image", mimeType: image };
  const text = Buffer.from(header).toString("latin1");
  const at = (offset: number, ...values: number[]) => values.every((v, i) => header[offset + i] === v);
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a))
    return { kind: "image", mimeType: "image/tiff" };
  if (at(0, 0x00, 0x00, 0x01, 0x00)) return { kind: "image", mimeType: "image/x-icon" };
  if (text.startsWith("RIFF") && text.slice(8, 12) === "AVI ")
    return { kind: "video", mimeType: "video/x-msvideo" };
  if (text.startsWith("FLV")) return { kind: "video", mimeType: "video/x-flv" };
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) {
    const lowered = text.toLowerCase();
    if (lowered.includes("webm")) return { kind: "video", mimeType: "video/webm" };
    if (lowered.includes("matroska")) return { kind: "video", mimeType: "video/x-matroska" };
  }
  if (header.length >= 12 && text.slice(4, 8) === "ftyp") {
    const brand = text
      .slice(8, 12)
      .toLowerCase()
      .replace(/[\s\0]+$/, "")
      .trim();
    const imageType = FTYP_IMAGES[brand];
    if (imageType) return { kind: "image", mimeType: imageType };
    const videoType = FTYP_VIDEOS[brand];
    if (videoType) return { kind: "video", mimeType: videoType };
  }
  return undefined;
}
