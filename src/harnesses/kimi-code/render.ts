import type { ChatMessage, ChatToolCall } from "../../providers/types.js";
import type { HistoryEvent } from "../../store/events.js";
import { INTERRUPTED_OUTPUT, renderUserContent } from "../render-history.js";
import reminder from "./auto-mode-reminder.md";
import { repeatNudges, systemReminder } from "./repeat-nudges.js";
import { modelText } from "./tool-result.js";
import { translateCall } from "./translate-call.js";

/** Sent as its own user message right after every user message (OI `kimi_code.rs`). */
export const AUTO_MODE_REMINDER = systemReminder(reminder);

type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/**
 * The conversation as Kimi Code sends it (OI `kimi_code.rs` with `kimi_cli.rs`
 * `MessageBuildOptions::kimi_code()`, kosong `providers/kimi.ts`):
 * - every user message is followed by the auto-mode `<system-reminder>` user message;
 * - assistant messages always carry `reasoning_content`, empty when there was none;
 * - tool-call ids are replayed with `:` replaced by `_`, arguments as compact JSON in the
 *   model's key order;
 * - tool results in Kimi's `<system>` wrapping, with the repeated-call nudges appended;
 * - calls made under another harness become Kimi calls where the capability maps, text
 *   otherwise; every call is answered before the next message (chat adjacency).
 */
export function renderKimiMessages(history: HistoryEvent[], harness: string): ChatMessage[] {
  const nudges = repeatNudges(history);
  const textual = new Map<string, string>();
  const messages: ChatMessage[] = [];
  let assistant: AssistantMessage | undefined;
  let assistantKey = "";
  let open: ChatToolCall[] = [];
  const answered = new Set<string>();

  const closeAssistant = () => {
    for (const call of open) {
      if (!answered.has(call.id)) {
        messages.push({
          role: "tool",
          tool_call_id: call.id,
          content: modelText("cancelled", INTERRUPTED_OUTPUT),
        });
      }
    }
    assistant = undefined;
    open = [];
  };
  const currentAssistant = (key: string): AssistantMessage => {
    if (assistant && assistantKey === key) return assistant;
    closeAssistant();
    assistant = { role: "assistant", content: null, reasoning_content: "" };
    assistantKey = key;
    messages.push(assistant);
    return assistant;
  };

  for (const event of history) {
    switch (event.type) {
      case "user_message":
        closeAssistant();
        messages.push({ role: "user", content: renderUserContent(event.content) });
        messages.push({ role: "user", content: AUTO_MODE_REMINDER });
        break;
      case "format_error":
        closeAssistant();
        messages.push({ role: "user", content: event.text });
        break;
      case "assistant_message": {
        const message = currentAssistant(`${event.turnId}:${event.step}`);
        if (event.text) message.content = (message.content ?? "") + event.text;
        message.reasoning_content = (message.reasoning_content ?? "") + event.reasoning;
        break;
      }
      case "tool_call": {
        const message = currentAssistant(`${event.turnId}:${event.step}`);
        const mapped =
          event.harness === harness ? { name: event.name, arguments: event.arguments } : translateCall(event);
        if (!mapped) {
          message.content =
            `${message.content ?? ""}\n[called ${event.name} with ${event.arguments}]`.trimStart();
          textual.set(event.callId, event.name);
          break;
        }
        const call: ChatToolCall = {
          id: kimiCallId(event.callId),
          type: "function",
          function: { name: mapped.name, arguments: compactJson(mapped.arguments || "{}") },
        };
        message.tool_calls = [...(message.tool_calls ?? []), call];
        open.push(call);
        break;
      }
      case "tool_result": {
        const text =
          modelText(event.status, event.output) +
          (nudges.has(event.callId) ? `\n\n${nudges.get(event.callId)}` : "");
        const name = textual.get(event.callId);
        if (name !== undefined) {
          closeAssistant();
          messages.push({ role: "user", content: `[result of ${name}]\n${text}` });
          break;
        }
        const id = kimiCallId(event.callId);
        if (!open.some((call) => call.id === id) || answered.has(id)) break;
        answered.add(id);
        messages.push({ role: "tool", tool_call_id: id, content: text });
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

/** Kimi's own ids look like `functions.Read:3`; Kimi Code sends them back as `functions.Read_3`. */
export function kimiCallId(id: string): string {
  return id.replaceAll(":", "_");
}

/** Drops whitespace outside strings, keeping the model's key order (OI `compact_json_whitespace_preserving_order`). */
export function compactJson(input: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const char of input) {
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (!/\s/.test(char)) {
      out += char;
    }
  }
  return out;
}
