import type { ChatContentPart, ChatMessage } from "../../providers/types.js";
import type { ContentBlock, HistoryEvent, HistoryEventOf } from "../../store/events.js";
import { blockText, INTERRUPTED_OUTPUT } from "../render-history.js";

type ToolCall = HistoryEventOf<"tool_call">;
type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/** How a text-protocol harness (no native tool calls) shows the canonical history to its model. */
export interface TextProtocol {
  /** Calls issued under this id are already written in the assistant text the model produced. */
  harness: string;
  /** A call made under another harness, written the way this protocol writes calls. */
  foreignCall(call: ToolCall): string;
  /** The user-message text that carries the results of one step's calls back to the model. */
  observations(results: Array<{ call: ToolCall | undefined; output: string }>): string;
  /** Wraps the text of the session's first user message (e.g. mini-swe-agent's instance template). */
  firstUser?(text: string): string;
}

/**
 * Renders the canonical history for a model without tool support: only `system`, `user` and
 * `assistant` messages. Assistant turns are the raw text the model wrote, results come back as
 * user messages in the protocol's observation format, format corrections as user messages.
 * Adjacent user messages are joined, since many chat templates require strict alternation.
 */
export function renderTextHistory(history: HistoryEvent[], protocol: TextProtocol): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const calls = new Map<string, ToolCall>();
  let open: string[] = [];
  let results: Array<{ call: ToolCall | undefined; output: string }> = [];
  let assistantKey = "";
  let firstUser = true;

  const pushUser = (content: string | ChatContentPart[]) => {
    const previous = messages.at(-1);
    if (previous?.role === "user") previous.content = joinUser(previous.content, content);
    else messages.push({ role: "user", content });
  };
  const flushResults = () => {
    for (const id of open) results.push({ call: calls.get(id), output: INTERRUPTED_OUTPUT });
    open = [];
    if (results.length > 0) pushUser(protocol.observations(results));
    results = [];
    assistantKey = "";
  };
  const assistant = (event: { turnId: string; step: number }): AssistantMessage => {
    const key = `${event.turnId}:${event.step}`;
    const last = messages.at(-1);
    if (key === assistantKey && last?.role === "assistant") return last;
    flushResults();
    assistantKey = key;
    const message: AssistantMessage = { role: "assistant", content: "" };
    messages.push(message);
    return message;
  };

  for (const event of history) {
    switch (event.type) {
      case "user_message": {
        flushResults();
        const content = userContent(event.content, firstUser ? protocol.firstUser : undefined);
        firstUser = false;
        pushUser(content);
        break;
      }
      case "format_error":
        flushResults();
        pushUser(event.text);
        break;
      case "assistant_message":
        if (event.text) {
          const message = assistant(event);
          message.content = (message.content ?? "") + event.text;
        }
        break;
      case "tool_call": {
        const message = assistant(event);
        calls.set(event.callId, event);
        open.push(event.callId);
        if (event.harness !== protocol.harness) {
          const text = protocol.foreignCall(event);
          message.content = message.content ? `${message.content}\n\n${text}` : text;
        }
        break;
      }
      case "tool_result":
        if (!open.includes(event.callId)) break;
        open = open.filter((id) => id !== event.callId);
        results.push({ call: calls.get(event.callId), output: event.output });
        break;
      default:
        break;
    }
  }
  flushResults();
  // An assistant step with no text (only reasoning) leaves nothing to show; drop it and rejoin.
  const shown: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role === "assistant" && !message.content) continue;
    const previous = shown.at(-1);
    if (message.role === "user" && previous?.role === "user") {
      previous.content = joinUser(previous.content, message.content);
    } else shown.push(message);
  }
  return shown;
}

function userContent(
  blocks: ContentBlock[],
  wrap: ((text: string) => string) | undefined,
): string | ChatContentPart[] {
  const texts: string[] = [];
  const images: ChatContentPart[] = [];
  for (const block of blocks) {
    const text = blockText(block);
    if (text !== undefined) texts.push(text);
    else if (block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string") {
      images.push({ type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } });
    }
  }
  const text = wrap ? wrap(texts.join("\n")) : texts.join("\n");
  return images.length === 0 ? text : [{ type: "text", text }, ...images];
}

function joinUser(a: string | ChatContentPart[], b: string | ChatContentPart[]): string | ChatContentPart[] {
  if (typeof a === "string" && typeof b === "string") return `${a}\n\n${b}`;
  const parts = (x: string | ChatContentPart[]): ChatContentPart[] =>
    typeof x === "string" ? [{ type: "text", text: x }] : x;
  return [...parts(a), ...parts(b)];
}

/** The command of a shell call from any harness (`command` or `cmd`), if it has one. */
export function shellCommandOf(call: ToolCall): string | undefined {
  if (call.capability !== "exec") return undefined;
  try {
    const args = JSON.parse(call.arguments) as { command?: unknown; cmd?: unknown };
    const command = typeof args.command === "string" ? args.command : args.cmd;
    if (typeof command === "string") return command;
    if (Array.isArray(args.command) && args.command.every((part) => typeof part === "string")) {
      return args.command.join(" ");
    }
  } catch {}
  return undefined;
}
