import type { ChatMessage, ChatRequest } from "../../../providers/types.js";
import type { HistoryEvent } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import { renderChatMessages } from "../chat-messages.js";
import { chatTools } from "../chat-tools.js";

/**
 * A Claude Code request over chat completions: one system message, the canonical history, and
 * the context reminders (skills, AGENTS.md) at the start of the first user message. Claude Code
 * sends them as the first text blocks of the first user message; they are joined into that same
 * message here so chat templates that insist on alternating roles never see two user messages in
 * a row.
 */
export function renderClaudeCode(options: {
  history: HistoryEvent[];
  tools: Tool[];
  /** The harness id, so calls made under other harnesses are put in these tools' terms. */
  harness: string;
  system: string;
  /** Texts that open the first user message, in order. */
  reminders: string[];
  knobs?: Record<string, unknown>;
}): ChatRequest {
  const messages: ChatMessage[] = [
    { role: "system", content: options.system },
    ...renderChatMessages(options.history, { tools: options.tools, harness: options.harness }),
  ];
  if (options.reminders.length > 0) withReminder(messages, options.reminders.join("\n\n"));
  return {
    messages,
    tools: chatTools(options.tools),
    ...(options.knobs ? { knobs: options.knobs } : {}),
  };
}

function withReminder(messages: ChatMessage[], reminder: string): void {
  const index = messages.findIndex((message) => message.role === "user");
  const first = messages[index];
  if (first?.role !== "user") {
    messages.push({ role: "user", content: reminder });
    return;
  }
  const content =
    typeof first.content === "string"
      ? `${reminder}\n\n${first.content}`
      : [{ type: "text" as const, text: reminder }, ...first.content];
  messages[index] = { role: "user", content };
}
