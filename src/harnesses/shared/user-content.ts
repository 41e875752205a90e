import type { ImagePart, UserPart } from "../../providers/model-request.js";
import type { ContentBlock, ResultPart } from "../../store/events.js";

/** Told to the model for a call that never got a result (crash, cancel mid-call). */
export const INTERRUPTED_OUTPUT = "aborted: the tool call was interrupted before it finished";

/** A user message's content: one text part when it is all text, else text and image parts. */
export function renderUserContent(blocks: ContentBlock[]): UserPart[] {
  const parts: UserPart[] = [];
  for (const block of blocks) {
    const text = blockText(block);
    if (text !== undefined) parts.push({ type: "text", text });
    else {
      const image = imagePart(block);
      if (image) parts.push(image);
    }
  }
  if (parts.every((part) => part.type === "text"))
    return [textPart(parts.map((part) => part.text).join("\n"))];
  return parts;
}

/** Text a content block contributes to the prompt; undefined for images and unknown blocks. */
export function blockText(block: ContentBlock): string | undefined {
  if (block.type === "text" && typeof block.text === "string") return block.text;
  if (block.type === "resource_link" && typeof block.uri === "string") {
    return `[@${String(block.name ?? block.uri)}](${block.uri})`;
  }
  if (block.type === "resource" && typeof block.resource === "object" && block.resource !== null) {
    const resource = block.resource as { uri?: unknown; text?: unknown };
    if (typeof resource.text === "string") {
      return `<context ref="${String(resource.uri ?? "")}">\n${resource.text}\n</context>`;
    }
  }
  return undefined;
}

/** An image block as an image part (a data URL); undefined for anything else. */
export function imagePart(block: ContentBlock): ImagePart | undefined {
  if (block.type !== "image" || typeof block.data !== "string" || typeof block.mimeType !== "string")
    return undefined;
  return { type: "image", url: `data:${block.mimeType};base64,${block.data}` };
}

/** A tool result's stored parts as the model's parts: images as data URLs with their detail. */
export function resultParts(parts: readonly ResultPart[]): UserPart[] {
  return parts.map((part) =>
    part.type === "text"
      ? textPart(part.text)
      : {
          type: "image",
          url: `data:${part.mimeType};base64,${part.data}`,
          ...(part.detail ? { detail: part.detail } : {}),
        },
  );
}

export function textPart(text: string): UserPart {
  return { type: "text", text };
}

/**
 * Two user messages as one: many chat templates reject two in a row. Two plain texts become one
 * text, so chat servers still get a string.
 */
export function joinUser(a: UserPart[], b: UserPart[]): UserPart[] {
  const [only] = a;
  const [next] = b;
  if (a.length === 1 && b.length === 1 && only?.type === "text" && next?.type === "text")
    return [textPart(`${only.text}\n\n${next.text}`)];
  return [...a, ...b];
}
