import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "../../acp/local-client.js";
import { boundImage } from "../../tools/image/bound-image.js";
import { sniffImage } from "../../tools/image/sniff-image.js";

/** The image files the composer attaches: the formats every vision model of the wires reads. */
const EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp"]);

interface Attachment {
  /** The path as it was pasted or completed: what a model without images is sent instead. */
  typed: string;
  mimeType: string;
  bytes: Buffer;
}

/**
 * The file a pasted text names, as terminals paste a dragged file: a path, absolute, relative
 * to the workspace or under `~`, maybe in quotes, with backslash-escaped spaces, or a `file://`
 * URL. Undefined for anything that is not one line.
 */
export function pastedPath(text: string, cwd: string): string | undefined {
  let name = text.trim();
  if (!name || name.includes("\n")) return undefined;
  if (name.startsWith("file://")) {
    try {
      name = fileURLToPath(name);
    } catch {
      return undefined;
    }
  } else if (name.length >= 2 && /^(['"]).*\1$/.test(name)) name = name.slice(1, -1);
  else name = name.replace(/\\(.)/g, "$1");
  if (name === "~" || name.startsWith("~/")) name = path.join(homedir(), name.slice(1));
  return path.resolve(cwd, name);
}

/**
 * The composer's images: a pasted path (or one taken from `@` completion) that names a png,
 * jpeg, gif or webp file becomes `[image #1 shot.png]` in the composer; the file is read then,
 * and the prompt goes out as ACP blocks, the text around each marker and the image between.
 */
export class ImageAttachments {
  private readonly byMarker = new Map<string, Attachment>();
  private count = 0;

  constructor(private readonly cwd: string) {}

  /** The marker for `text` when it names an image file, else undefined (the text stays text). */
  attach(text: string): string | undefined {
    const file = pastedPath(text, this.cwd);
    if (!file || !EXTENSIONS.has(path.extname(file).toLowerCase())) return undefined;
    let bytes: Buffer;
    try {
      if (!statSync(file).isFile()) return undefined;
      bytes = readFileSync(file);
    } catch {
      return undefined;
    }
    // A `.png` full of text is no image: its name stays in the prompt as typed.
    const mimeType = sniffImage(bytes);
    if (!mimeType || mimeType === "image/bmp") return undefined;
    this.count += 1;
    const marker = `[image #${this.count} ${path.basename(file)}]`;
    this.byMarker.set(marker, { typed: text.trim(), mimeType, bytes });
    return marker;
  }

  /** Whether `text` holds a marker of an attached image. */
  holdsImages(text: string): boolean {
    return this.markersIn(text).length > 0;
  }

  /**
   * The prompt as ACP content: text, and each marker still in it as its image, held to the
   * bounds the agent holds images from elsewhere to (bound-image.ts). With `images` false
   * every marker becomes the path it stands for again, so the text loses nothing.
   */
  async blocks(text: string, images: boolean): Promise<ContentBlock[]> {
    const found = this.markersIn(text);
    if (!images) {
      let plain = text;
      for (const { marker, attachment } of found) plain = plain.replace(marker, () => attachment.typed);
      return [{ type: "text", text: plain }];
    }
    const blocks: ContentBlock[] = [];
    let rest = text;
    for (const { marker, attachment } of found) {
      const at = rest.indexOf(marker);
      const before = rest.slice(0, at);
      if (before.trim()) blocks.push({ type: "text", text: before });
      const part = await boundImage({
        type: "image",
        mimeType: attachment.mimeType,
        data: attachment.bytes.toString("base64"),
      });
      blocks.push(part.type === "image" ? { type: "image", mimeType: part.mimeType, data: part.data } : part);
      rest = rest.slice(at + marker.length);
    }
    if (rest.trim() || blocks.length === 0) blocks.push({ type: "text", text: rest });
    return blocks;
  }

  /** The markers in `text`, in the order they appear. */
  private markersIn(text: string): { marker: string; attachment: Attachment }[] {
    return [...this.byMarker]
      .map(([marker, attachment]) => ({ marker, attachment, at: text.indexOf(marker) }))
      .filter((found) => found.at >= 0)
      .sort((a, b) => a.at - b.at);
  }
}
