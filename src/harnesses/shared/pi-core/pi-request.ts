import type { HistoryEvent } from "../../../store/events.js";
import type { Tool } from "../../../tools/types.js";
import type { CompactionRule } from "../../types.js";
import { renderChatMessages } from "../chat-messages.js";
import compactPrompt from "./compact-prompt.md";

/** pi's default output cap (`maxTokens` of its built-in models). */
const PI_MAX_TOKENS = 32_000;

/** pi: compact when fewer than `reserveTokens` (16384) stay free. */
export const piCompaction: CompactionRule = { reserve: 16_384, prompt: compactPrompt };

/** pi's openai-completions body fields: no server-side storage, its output cap by that name. */
export const piChatExtra = { store: false, max_completion_tokens: PI_MAX_TOKENS };

/** The history as pi's openai-completions provider sends it: user text as a parts array, never a plain string. */
export function piMessages(history: HistoryEvent[], options: { tools: Tool[]; harness: string }) {
  return renderChatMessages(history, options).map((message) =>
    message.role === "user" ? { ...message, asParts: true } : message,
  );
}
