import type { ChatContentPart, ChatMessage, ChatToolCall } from "../providers/types.js";
import type { ContentBlock, HistoryEvent, HistoryEventOf } from "../store/events.js";
import type { Tool } from "../tools/types.js";

/** Told to the model for a call that never got a result (crash, cancel mid-call). */
export const INTERRUPTED_OUTPUT = "aborted: the tool call was interrupted before it finished";

/**
 * Renders the canonical history as chat-completions messages, the part every chat harness
 * shares. Guarantees the adjacency rule of chat APIs: every assistant `tool_calls` entry is
 * answered by a `tool` message before any other message.
 */
export function renderHistory(
  history: HistoryEvent[],
  /** With these, calls made under another harness are put in this harness's terms. */
  options: { tools?: Tool[]; harness?: string } = {},
): ChatMessage[] {
  const translate = options.tools ? translator(options.tools, options.harness) : undefined;
  const textual = new Map<string, string>();
  const messages: ChatMessage[] = [];
  let assistant: Extract<ChatMessage, { role: "assistant" }> | undefined;
  let assistantKey = "";
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

  for (const event of history) {
    switch (event.type) {
      case "format_error":
      case "user_message": {
        closeAssistant();
        const content = event.type === "format_error" ? event.text : renderUserContent(event.content);
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
        const mapped = translate ? translate(event) : { name: event.name, arguments: event.arguments };
        if (!mapped) {
          // Made under another harness with no counterpart here: shown as text.
          message.content =
            `${message.content ?? ""}\n[called ${event.name} with ${event.arguments}]`.trimStart();
          textual.set(event.callId, event.name);
          break;
        }
        const call: ChatToolCall = {
          id: event.callId,
          type: "function",
          function: { name: mapped.name, arguments: mapped.arguments || "{}" },
        };
        message.tool_calls = [...(message.tool_calls ?? []), call];
        open.push(call);
        break;
      }
      case "tool_result": {
        const name = textual.get(event.callId);
        if (name !== undefined) {
          closeAssistant();
          messages.push({ role: "user", content: `[result of ${name}]\n${event.output}` });
          break;
        }
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

/** A user message's content: plain text when it is all text, else text and image parts. */
export function renderUserContent(blocks: ContentBlock[]): string | ChatContentPart[] {
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

/**
 * Maps a call made under another harness onto this harness's tools: same name as is; a
 * command (every harness's shell tool takes `command`) onto this harness's shell tool;
 * anything else has no counterpart (undefined).
 */
function translator(tools: Tool[], harness: string | undefined) {
  const names = new Set(tools.map((t) => t.name));
  const shell = tools.find((t) => t.capability === "exec");
  return (call: HistoryEventOf<"tool_call">): { name: string; arguments: string } | undefined => {
    // The harness's own calls stay as they were, even unknown names (the model saw them fail).
    if (call.harness === harness || names.has(call.name))
      return { name: call.name, arguments: call.arguments };
    if (call.capability !== "exec" || !shell) return undefined;
    try {
      const args = JSON.parse(call.arguments) as { command?: unknown; cmd?: unknown };
      const command = typeof args.command === "string" ? args.command : args.cmd;
      if (typeof command !== "string") return undefined;
      return { name: shell.name, arguments: JSON.stringify({ command }) };
    } catch {
      return undefined;
    }
  };
}
