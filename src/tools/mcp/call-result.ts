import type { CompatibilityCallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { DisplayContent, ResultPart } from "../../store/events.js";

/** What a tool call gives the model and the editor. */
export interface McpCallOutput {
  output: string;
  display: DisplayContent[];
  isError: boolean;
  /** Set when the result has images: its texts and images in order (`output` is the text alone). */
  parts?: ResultPart[];
}

/** Default cap on what one call gives the model. */
export const DEFAULT_MAX_OUTPUT_CHARS = 64 * 1024;

/**
 * Turns a `tools/call` result into text for an OpenAI-compatible chat-completions `tool`
 * message, which is text-only on most servers:
 * - `text` items are joined with newlines;
 * - an embedded `resource` with text comes under a `[resource <uri>]` header, one with a blob
 *   and a `resource_link` become a one-line descriptor;
 * - `image` items also go to the model as images (`parts`, in order with the texts), and in
 *   `output` as a placeholder with the mime type and size; `audio` only as such a placeholder;
 * - `structuredContent` is sent as JSON only when no item carried text (servers that declare
 *   an output schema are asked to repeat it as text, and most do);
 * - the legacy `{ toolResult }` shape is sent as JSON.
 * `isError` is kept. Output beyond `maxChars` is cut with a note saying how much was dropped.
 */
export function mapCallResult(
  result: CompatibilityCallToolResult,
  maxChars = DEFAULT_MAX_OUTPUT_CHARS,
): McpCallOutput {
  const parts: string[] = [];
  const modelParts: ResultPart[] = [];
  let sawText = false;
  const content = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  for (const item of content) {
    const mapped = mapContent(item);
    sawText ||= mapped.isText;
    parts.push(mapped.text);
    if (item.type === "image") modelParts.push({ type: "image", mimeType: item.mimeType, data: item.data });
    else modelParts.push({ type: "text", text: mapped.text });
  }
  if (!sawText && isObject(result.structuredContent)) parts.push(JSON.stringify(result.structuredContent));
  if (content.length === 0 && "toolResult" in result && result.toolResult !== undefined) {
    parts.push(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));
  }
  const output = cap(parts.join("\n"), maxChars);
  const images = modelParts.some((part) => part.type === "image");
  return {
    output,
    display: output === "" ? [] : [{ type: "text", text: output }],
    isError: result.isError === true,
    ...(images ? { parts: withTextCapped(modelParts, maxChars) } : {}),
  };
}

function mapContent(item: ContentBlock): { text: string; isText: boolean } {
  switch (item.type) {
    case "text":
      return { text: item.text, isText: true };
    case "image":
      return { text: `[image: ${item.mimeType}, ${formatBytes(base64Bytes(item.data))}]`, isText: false };
    case "audio":
      return { text: `[audio: ${item.mimeType}, ${formatBytes(base64Bytes(item.data))}]`, isText: false };
    case "resource": {
      const { resource } = item;
      if ("text" in resource && typeof resource.text === "string") {
        return { text: `[resource ${resource.uri}]\n${resource.text}`, isText: true };
      }
      const blob = "blob" in resource && typeof resource.blob === "string" ? base64Bytes(resource.blob) : 0;
      return { text: `[resource ${resource.uri}${describe(resource.mimeType, blob)}]`, isText: false };
    }
    case "resource_link": {
      const label = item.name && item.name !== item.uri ? `${item.name} <${item.uri}>` : item.uri;
      const about = item.description ? `: ${item.description}` : "";
      return { text: `[resource link ${label}${describe(item.mimeType, item.size)}${about}]`, isText: false };
    }
    default:
      return { text: `[${String((item as { type?: unknown }).type)} content]`, isText: false };
  }
}

function describe(mimeType: string | undefined, bytes: number | undefined): string {
  const facts = [mimeType, bytes ? formatBytes(bytes) : undefined].filter((fact) => fact !== undefined);
  return facts.length > 0 ? ` (${facts.join(", ")})` : "";
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The texts among `parts` held to the same budget as `output`, images kept. */
function withTextCapped(parts: ResultPart[], maxChars: number): ResultPart[] {
  let left = maxChars;
  return parts.flatMap((part): ResultPart[] => {
    if (part.type !== "text") return [part];
    if (left <= 0) return [];
    const text = cap(part.text, left);
    left -= part.text.length;
    return text === "" ? [] : [{ type: "text", text }];
  });
}

function cap(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters not shown]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
