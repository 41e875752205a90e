import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "../../acp/local-client.js";
import { sniffImage } from "../../tools/image/sniff-image.js";

/** The image files the composer attaches: the formats every vision model of the wires reads. */
const EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp"]);

/**
 * A png, jpeg, gif or webp file's bytes and type (read from its first bytes: a `.png` full of
 * text is no image); nothing for anything else.
 */
function readImageFile(file: string): { mimeType?: string; bytes?: Buffer } {
  if (!EXTENSIONS.has(path.extname(file).toLowerCase())) return {};
  try {
    if (!statSync(file).isFile()) return {};
    const bytes = readFileSync(file);
    const mimeType = sniffImage(bytes);
    return mimeType && mimeType !== "image/bmp" ? { mimeType, bytes } : {};
  } catch {
    return {};
  }
}

interface Attachment {
  /** The path as it was pasted or completed: what a model without images is sent instead. */
  typed: string;
  mimeType: string;
  bytes: Buffer;
}

/**
 * The files a pasted text names, as terminals paste dropped files: one path (absolute, relative
 * to the workspace or under `~`), or several as a shell reads them (quoted, or with `\ ` before
 * spaces), or `file://` URLs. Each comes with the text that named it. Empty when the paste is
 * no such list.
 */
export function pastedPaths(text: string, cwd: string): { file: string; typed: string }[] {
  const whole = text.trim();
  if (!whole || whole.includes("\n")) return [];
  const one = resolveName(whole, cwd);
  if (one && existsSync(one)) return [{ file: one, typed: whole }];
  const found: { file: string; typed: string }[] = [];
  for (const word of shellWords(whole) ?? []) {
    const file = resolveName(word, cwd);
    if (!file) return [];
    found.push({ file, typed: word });
  }
  return found;
}

function resolveName(name: string, cwd: string): string | undefined {
  let plain = name;
  if (plain.startsWith("file://")) {
    try {
      plain = fileURLToPath(plain);
    } catch {
      return undefined;
    }
  }
  if (plain === "~" || plain.startsWith("~/")) plain = path.join(homedir(), plain.slice(1));
  return path.resolve(cwd, plain);
}

/** The words of `text` as a POSIX shell splits them (quotes, backslash escapes); undefined when a quote is left open. */
export function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === "\\" && /["\\$`]/.test(text[i + 1] ?? "")) word += text[++i] as string;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < text.length) word = (word ?? "") + text[++i];
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + c;
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(word);
  return words;
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

  /**
   * The markers for `text` when it names image files, every one of them, else undefined (the
   * paste stays text as it is).
   */
  attach(text: string): string | undefined {
    const named = pastedPaths(text, this.cwd);
    const images = named.map(({ file, typed }) => ({ file, typed, ...readImageFile(file) }));
    if (images.length === 0 || images.some((image) => !image.mimeType)) return undefined;
    return images
      .map(({ file, typed, mimeType, bytes }) => {
        this.count += 1;
        const marker = `[image #${this.count} ${path.basename(file)}]`;
        this.byMarker.set(marker, { typed, mimeType: mimeType as string, bytes: bytes as Buffer });
        return marker;
      })
      .join(" ");
  }

  /** `text` with each marker turned back into the path it stands for (what history keeps). */
  plain(text: string): string {
    let plain = text;
    for (const { marker, attachment } of this.markersIn(text))
      plain = plain.replace(marker, () => attachment.typed);
    return plain;
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
    if (!images) return [{ type: "text", text: this.plain(text) }];
    // Loaded at the first image sent, not when the chat starts.
    const { boundImage } = await import("../../tools/image/bound-image.js");
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
