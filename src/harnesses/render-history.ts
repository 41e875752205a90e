import type { ChatContentPart, ChatMessage, ChatToolCall } from "../providers/types.js";
import type { ContentBlock, HistoryEvent } from "../store/events.js";

/** Told to the model for a call that never got a result (crash, cancel mid-call). */
export const INTERRUPTED_OUTPUT = "aborted: the tool call was interrupted before it finished";

/**
 * Renders the canonical history as chat-completions messages, the part every chat harness
 * shares. Guarantees the adjacency rule of chat APIs: every assistant `tool_calls` entry is
 * answered by a `tool` message before any other message.
 */
export function renderHistory(history: HistoryEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let assistant: Extract<ChatMessage, { role: "assistant" }> | undefined;
  let open: ChatToolCall[] = [];
  const answered = new Set<string>();

  const closeAssistant = () => {
    for (const call of open) {
      if (!answered.has(call.id))
        messages.push({ role: "tool", tool_call_id: call.id, content: INTERRUPTED_OUTPUT });
    }
    assistant = undefined;
    open = [];
  };
  const currentAssistant = (stepKey: string) => {
    if (assistant && assistantKey === stepKey) return assistant;
    closeAssistant();
    assistant = { role: "assistant", content: null };
    assistantKey = stepKey;
    messages.push(assistant);
    return assistant;
  };
  let assistantKey = "";

  for (const event of history) {
    switch (event.type) {
      case "user_message": {
        closeAssistant();
        const content = renderUserContent(event.content);
        const previous = messages.at(-1);
        // Some chat templates reject two user messages in a row (e.g. after a failed turn).
        if (previous?.role === "user") previous.content = joinUser(previous.content, content);
        else messages.push({ role: "user", content });
        break;
      }
      case "assistant_message": {
        const message = currentAssistant(`${event.turnId}:${event.step}`);
        if (event.text) message.content = (message.content ?? "") + event.text;
        if (event.reasoning) message.reasoning_content = (message.reasoning_content ?? "") + event.reasoning;
        break;
      }
      case "tool_call": {
        const message = currentAssistant(`${event.turnId}:${event.step}`);
        const call: ChatToolCall = {
          id: event.callId,
          type: "function",
          function: { name: event.name, arguments: event.arguments || "{}" },
        };
        message.tool_calls = [...(message.tool_calls ?? []), call];
        open.push(call);
        break;
      }
      case "tool_result": {
        if (!open.some((call) => call.id === event.callId) || answered.has(event.callId)) break;
        answered.add(event.callId);
        messages.push({ role: "tool", tool_call_id: event.callId, content: event.output });
        if (open.every((call) => answered.has(call.id))) {
          assistant = undefined;
          open = [];
        }
        break;
      }
      default:
        break;
    }
  }
  closeAssistant();
  return messages;
}

function renderUserContent(blocks: ContentBlock[]): string | ChatContentPart[] {
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    const text = blockText(block);
    if (text !== undefined) parts.push({ type: "text", text });
    else if (block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string") {
      parts.push({ type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } });
    }
  }
  if (parts.every((part) => part.type === "text")) return parts.map((part) => part.text).join("\n");
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

function joinUser(a: string | ChatContentPart[], b: string | ChatContentPart[]): string | ChatContentPart[] {
  if (typeof a === "string" && typeof b === "string") return `${a}\n\n${b}`;
  const asParts = (x: string | ChatContentPart[]): ChatContentPart[] =>
    typeof x === "string" ? [{ type: "text", text: x }] : x;
  return [...asParts(a), ...asParts(b)];
}
