import type { ReasoningBack } from "../config/types.js";
import type { Message, ModelRequest, ToolSpec, UserPart } from "./model-request.js";
import { textOf } from "./model-request.js";

/** Chat Completions JSON, as much of it as we send. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatContentPart[] }
  | { role: "assistant"; content: string | null; reasoning_content?: string; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string | ChatContentPart[] };

export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

export interface ChatWireOptions {
  model: string;
  reasoningBack?: ReasoningBack;
}

/** The request as a Chat Completions body, without the stream fields the provider adds. */
export function chatBody(request: ModelRequest, options: ChatWireOptions): Record<string, unknown> {
  const knobs = request.knobs ?? {};
  return {
    model: options.model,
    messages: chatMessages(request, options.reasoningBack ?? "present"),
    ...(request.tools.length > 0 ? { tools: request.tools.map(chatTool) } : {}),
    ...(knobs.maxTokens !== undefined ? { max_tokens: knobs.maxTokens } : {}),
    ...(knobs.temperature !== undefined ? { temperature: knobs.temperature } : {}),
    ...(knobs.topP !== undefined ? { top_p: knobs.topP } : {}),
    ...(knobs.promptCacheKey !== undefined ? { prompt_cache_key: knobs.promptCacheKey } : {}),
    ...(knobs.parallelToolCalls !== undefined ? { parallel_tool_calls: knobs.parallelToolCalls } : {}),
    ...(knobs.reasoning?.effort !== undefined ? { reasoning_effort: knobs.reasoning.effort } : {}),
    ...knobs.extra?.chat,
  };
}

export function chatMessages(request: ModelRequest, reasoningBack: ReasoningBack = "present"): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (request.system.length > 0) messages.push({ role: "system", content: textOf(request.system, "\n\n") });
  // Chat tool messages hold text only: images of a run of results follow it as one user message.
  let images: ChatContentPart[] = [];
  const flushImages = () => {
    if (images.length > 0) messages.push({ role: "user", content: images });
    images = [];
  };
  for (const message of request.messages) {
    if (message.role !== "tool") flushImages();
    messages.push(...chatMessage(message, reasoningBack, images));
  }
  flushImages();
  return messages;
}

function chatMessage(
  message: Message,
  reasoningBack: ReasoningBack,
  images: ChatContentPart[],
): ChatMessage[] {
  switch (message.role) {
    case "developer":
      return [{ role: "system", content: textOf(message.content, "\n\n") }];
    case "user":
      return [{ role: "user", content: userContent(message.content, message.asParts === true) }];
    case "tool": {
      const hasImages = message.content.some((part) => part.type === "image");
      if (hasImages && message.imagesInside) {
        return [{ role: "tool", tool_call_id: message.callId, content: userContent(message.content, true) }];
      }
      for (const part of message.content) if (part.type === "image") images.push(imageUrl(part.url));
      return [
        {
          role: "tool",
          tool_call_id: message.callId,
          // Chat allows text parts here; Qwen Code sends its results that way.
          content: message.asParts
            ? message.content.flatMap((part) =>
                part.type === "text" ? [{ type: "text", text: part.text }] : [],
              )
            : textOf(message.content, "\n"),
        },
      ];
    }
    case "assistant": {
      const calls = message.content.flatMap((part) =>
        part.type === "tool_call"
          ? [
              {
                id: part.id,
                type: "function" as const,
                function: { name: part.name, arguments: part.arguments },
              },
            ]
          : [],
      );
      // Beside calls, no text part is `null` and an empty one `""` (what Qwen Code sends). Without
      // calls the content is a string even when empty: a response cut during its reasoning is
      // still an assistant turn, so roles keep alternating, and `null` there is refused.
      const hasText = message.content.some((part) => part.type === "text");
      const out: Extract<ChatMessage, { role: "assistant" }> = {
        role: "assistant",
        content: hasText || calls.length === 0 ? textOf(message.content) : null,
      };
      const reasoning = message.content.filter((part) => part.type === "reasoning");
      if (reasoning.length > 0 && reasoningBack !== "never")
        out.reasoning_content = reasoning.map((part) => part.text).join("");
      if (calls.length > 0) out.tool_calls = calls;
      return [out];
    }
  }
}

/** One text part is sent as a string, as chat templates expect; anything else as parts. */
function userContent(parts: UserPart[], asParts: boolean): string | ChatContentPart[] {
  if (!asParts && parts.length === 1 && parts[0]?.type === "text") return parts[0].text;
  return parts.map((part) => (part.type === "text" ? { type: "text", text: part.text } : imageUrl(part.url)));
}

function imageUrl(url: string): ChatContentPart {
  return { type: "image_url", image_url: { url } };
}

/** A freeform tool becomes a function with one string parameter, the form Codex uses off Responses. */
export function chatTool(tool: ToolSpec): ChatTool {
  if (tool.type === "custom") {
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
      },
    };
  }
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    },
  };
}
