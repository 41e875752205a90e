import { createHash } from "node:crypto";
import type { Knobs, Message, ModelRequest, Wire } from "../../../providers/model-request.js";
import type { HistoryEvent } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import { type ChatLayout, renderChatMessages } from "../chat-messages.js";
import { toolSpecs } from "../tool-specs.js";

/**
 * A Claude Code request. On Anthropic Messages, as the original sends it: the identity line and
 * the rest of the system prompt as two cached blocks (2.1.44's billing-header block before them
 * is Anthropic's own accounting and is not sent), the context reminders as their own text
 * blocks opening the first user message, cache breakpoints on the last block of the last two
 * messages, and `metadata.user_id`. On the other wires: one system text, and the reminders
 * joined into the first user message so chat templates that insist on alternating roles never
 * see two user messages in a row.
 */
export function renderClaudeCode(options: {
  history: HistoryEvent[];
  tools: Tool[];
  /** The harness id, so calls made under other harnesses are put in these tools' terms. */
  harness: string;
  /** The first system block: one identity line. */
  identity: string;
  /** The rest of the system prompt. */
  system: string;
  /** Texts that open the first user message, in order. */
  reminders: string[];
  knobs?: Knobs;
  wire: Wire;
  sessionId: string;
  /** How the end of a background command is told (the full profile has background shells). */
  backgroundEnded?: ChatLayout["backgroundEnded"];
}): ModelRequest {
  const messages = renderChatMessages(options.history, {
    tools: options.tools,
    harness: options.harness,
    ...(options.backgroundEnded ? { backgroundEnded: options.backgroundEnded } : {}),
  });
  if (options.wire !== "messages") {
    if (options.reminders.length > 0) withReminder(messages, options.reminders.join("\n\n"));
    return {
      system: [{ type: "text", text: `${options.identity}\n\n${options.system}` }],
      messages,
      tools: toolSpecs(options.tools),
      ...(options.knobs ? { knobs: options.knobs } : {}),
    };
  }
  const reminders = options.reminders.map((text) => ({ type: "text" as const, text }));
  const first = messages.find((message) => message.role === "user");
  if (first) first.content = [...reminders, ...first.content];
  else if (reminders.length > 0) messages.push({ role: "user", content: reminders });
  markCacheBreakpoints(messages);
  return {
    system: [
      { type: "text", text: options.identity, cache: true },
      { type: "text", text: options.system, cache: true },
    ],
    messages,
    tools: toolSpecs(options.tools),
    knobs: { ...options.knobs, userId: claudeUserId(options.sessionId) },
  };
}

/**
 * The original's `user_<hex>_account__session_<uuid>` shape. It has a per-install id where the
 * hex is; without an account, ours is derived from the session, so nothing identifies the user.
 */
function claudeUserId(sessionId: string): string {
  const hex = createHash("sha256").update(`openinterpreter:${sessionId}`).digest("hex");
  return `user_${hex}_account__session_${sessionId}`;
}

/** The last block of the last message and of the last one before it of the other role. */
function markCacheBreakpoints(messages: Message[]): void {
  const side = (message: Message) => (message.role === "assistant" ? "assistant" : "user");
  const last = messages.at(-1);
  if (!last) return;
  markLast(last);
  for (let i = messages.length - 2; i >= 0; i--) {
    const message = messages[i] as Message;
    if (side(message) !== side(last)) {
      markLast(message);
      return;
    }
  }
}

function markLast(message: Message): void {
  if (message.role === "tool") {
    message.cache = true;
    return;
  }
  const part = message.content.at(-1);
  if (part && part.type !== "reasoning") part.cache = true;
}

function withReminder(messages: Message[], reminder: string): void {
  const first = messages.find((message) => message.role === "user");
  if (!first) {
    messages.push({ role: "user", content: [{ type: "text", text: reminder }] });
    return;
  }
  const [only] = first.content;
  first.content =
    first.content.length === 1 && only?.type === "text"
      ? [{ type: "text", text: `${reminder}\n\n${only.text}` }]
      : [{ type: "text", text: reminder }, ...first.content];
}
