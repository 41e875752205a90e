import type { Message, ModelRequest, UserPart } from "./model-request.js";

/** What a model that reads no images is shown where an image was. */
export const IMAGE_OMITTED =
  "[image omitted: this model does not accept images (config `model_supports_images = false`)]";

/**
 * The request with every image replaced by a short text, for a model that takes text only: an
 * image in the editor's prompt, in an earlier tool result (a read made before the model was
 * switched) or in an MCP result would otherwise fail the whole request.
 */
export function withoutImages(request: ModelRequest): ModelRequest {
  if (!request.messages.some(hasImage)) return request;
  return { ...request, messages: request.messages.map(textOnly) };
}

/** The request as it may go to a model: unchanged where the model `accepts` images, else without them. */
export function imagesFor(request: ModelRequest, accepts: boolean): ModelRequest {
  return accepts ? request : withoutImages(request);
}

function hasImage(message: Message): boolean {
  return (message.role === "user" || message.role === "tool") && message.content.some(isImage);
}

function textOnly(message: Message): Message {
  if (!hasImage(message) || (message.role !== "user" && message.role !== "tool")) return message;
  const content: UserPart[] = message.content.map((part) =>
    isImage(part) ? { type: "text", text: IMAGE_OMITTED } : part,
  );
  return { ...message, content } as Message;
}

function isImage(part: { type: string }): boolean {
  return part.type === "image";
}
