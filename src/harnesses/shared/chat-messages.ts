import type { ChatContentPart, ChatMessage, ChatToolCall } from "../../providers/types.js";
import type { HistoryEvent } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";
import { type Adopt, adoptCall } from "./adopt-call.js";
import { type CallStep, historySteps } from "./history-steps.js";
import { INTERRUPTED_OUTPUT, joinUser, renderUserContent } from "./user-content.js";

type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/** How one harness lays the history out as chat messages; every field has the common default. */
export interface ChatLayout {
  /** Calls made under this harness stay as they were. */
  harness: string;
  /** This harness's tools, for `adoptCall`'s rule; without them every call stays as it was. */
  tools?: readonly Tool[];
  /** Puts a call made under another harness in this harness's terms (`adoptCall`). */
  adopt?: Adopt;
  /** The id a call is replayed with. */
  callId?(id: string): string;
  /** The arguments a call is replayed with. */
  callArguments?(json: string): string;
  /** What the model is shown as a call's result (`step.result` is undefined for a cut call). */
  resultText?(step: CallStep): string;
  /** Messages sent right after every user message. */
  afterUser?: readonly ChatMessage[];
  /** Whether a user message joins a user message right before it (default true). */
  joinUsers?: boolean;
  /** Send `reasoning_content` on every assistant message, empty when there was none. */
  alwaysReasoning?: boolean;
}

/**
 * Renders the canonical history as chat-completions messages. Keeps the adjacency rule of
 * chat APIs: every assistant `tool_calls` entry is answered by a `tool` message before any
 * other message (a call cut by a crash is answered as interrupted). A call with no counterpart
 * in this harness is shown as text in the assistant message, its result as a user message.
 */
export function renderChatMessages(history: readonly HistoryEvent[], layout: ChatLayout): ChatMessage[] {
  const callId = layout.callId ?? ((id: string) => id);
  const callArguments = layout.callArguments ?? ((json: string) => json);
  const resultText = layout.resultText ?? ((step: CallStep) => step.result?.output ?? INTERRUPTED_OUTPUT);
  const messages: ChatMessage[] = [];
  const pushUser = (content: string | ChatContentPart[]) => {
    const previous = messages.at(-1);
    if (layout.joinUsers !== false && previous?.role === "user")
      previous.content = joinUser(previous.content, content);
    else messages.push({ role: "user", content });
  };

  for (const step of historySteps(history)) {
    if (step.type === "user") {
      pushUser(renderUserContent(step.content));
      messages.push(...structuredClone(layout.afterUser ?? []));
    } else if (step.type === "correction") {
      pushUser(step.text);
    } else if (step.type === "response") {
      const message: AssistantMessage = { role: "assistant", content: step.text || null };
      if (step.reasoning || layout.alwaysReasoning) message.reasoning_content = step.reasoning;
      const answers: ChatMessage[] = [];
      const asText: ChatMessage[] = [];
      for (const call of step.calls) {
        const wire = adoptCall(call.call, layout);
        if (!wire) {
          const { name, arguments: args } = call.call;
          message.content = `${message.content ?? ""}\n[called ${name} with ${args}]`.trimStart();
          if (call.result) asText.push({ role: "user", content: `[result of ${name}]\n${resultText(call)}` });
          continue;
        }
        const id = callId(call.call.callId);
        const toolCall: ChatToolCall = {
          id,
          type: "function",
          function: { name: wire.name, arguments: callArguments(wire.arguments || "{}") },
        };
        message.tool_calls = [...(message.tool_calls ?? []), toolCall];
        answers.push({ role: "tool", tool_call_id: id, content: resultText(call) });
      }
      messages.push(message, ...answers, ...asText);
    }
  }
  return messages;
}
