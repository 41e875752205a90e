import type { ResultPart } from "../../store/events.js";
import { fitClaude } from "./claude-image.js";
import { loadSharp } from "./load-sharp.js";

type ImageResultPart = Extract<ResultPart, { type: "image" }>;

/**
 * An image from elsewhere (an MCP server) held to the bounds every wire accepts, as Claude Code
 * holds MCP images: 2000 px a side, 3.75 MiB (claude-image.ts); a small one is kept as it came.
 * One no decoder reads becomes a line of text saying what it was, so nothing unreadable is sent.
 */
export async function boundImage(part: ImageResultPart): Promise<ResultPart> {
  const bytes = Buffer.from(part.data, "base64");
  try {
    const fitted = await fitClaude(await loadSharp(), bytes, part.mimeType);
    if (fitted.data.length === bytes.length && fitted.mimeType === part.mimeType) return part;
    return { ...part, mimeType: fitted.mimeType, data: fitted.data.toString("base64") };
  } catch {
    return {
      type: "text",
      text: `[image: ${part.mimeType}, ${bytes.length} bytes, not readable as an image]`,
    };
  }
}

/** The parts with every image bounded (see `boundImage`), in order. */
export async function boundImages(parts: readonly ResultPart[]): Promise<ResultPart[]> {
  return Promise.all(parts.map((part) => (part.type === "image" ? boundImage(part) : part)));
}
