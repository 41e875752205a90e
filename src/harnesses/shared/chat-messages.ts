import type { AssistantPart, Message, UserPart } from "../../providers/model-request.js";
import type { HistoryEvent } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";
import { type Adopt, adoptCall } from "./adopt-call.js";
import { type BackgroundEndedEvent, type CallStep, historySteps } from "./history-steps.js";
import { INTERRUPTED_OUTPUT, joinUser, renderUserContent, resultParts, textPart } from "./user-content.js";

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
  afterUser?: readonly Message[];
  /** Whether a user message joins a user message right before it (default true). */
  joinUsers?: boolean;
  /** A reasoning part on every assistant message, empty when there was none (Chat `reasoning_content: ""`). */
  alwaysReasoning?: boolean;
  /** Chat: a result's images stay inside its tool message (Kimi Code's layout). */
  imagesInside?: boolean;
  /**
   * How the end of a background command is told (default: not at all). `text` is the user
   * message the original sends, undefined for none; `at` is where: `place`, where the session put
   * the event (after the results the model last saw), or `next-user`, with the next user message
   * (an original that tells it once the turn is over).
   */
  backgroundEnded?: { text(event: BackgroundEndedEvent): string | undefined; at: "place" | "next-user" };
}

/**
 * Renders the canonical history as messages with native tool calls. Keeps the adjacency rule of
 * every tool-calling API: each call is answered by a `tool` message before any other message (a
 * call cut by a crash is answered as interrupted). A call with no counterpart in this harness is
 * shown as text in the assistant message, its result as a user message. A completed result
 * with parts (an image read) is shown as those parts instead of its text.
 */
export function renderChatMessages(history: readonly HistoryEvent[], layout: ChatLayout): Message[] {
  const callId = layout.callId ?? ((id: string) => id);
  const callArguments = layout.callArguments ?? ((json: string) => json);
  const resultText = layout.resultText ?? ((step: CallStep) => step.result?.output ?? INTERRUPTED_OUTPUT);
  const messages: Message[] = [];
  const pushUser = (content: UserPart[]) => {
    const previous = messages.at(-1);
    if (layout.joinUsers !== false && previous?.role === "user")
      previous.content = joinUser(previous.content, content);
    else messages.push({ role: "user", content });
  };
  /** Ends told with the next user message. */
  let held: string[] = [];

  for (const step of historySteps(history)) {
    if (step.type === "background_ended") {
      const text = layout.backgroundEnded?.text(step.event);
      if (text === undefined) continue;
      if (layout.backgroundEnded?.at === "place") pushUser([textPart(text)]);
      else held.push(text);
    } else if (step.type === "user") {
      for (const text of held) pushUser([textPart(text)]);
      held = [];
      pushUser(renderUserContent(step.content));
      messages.push(...structuredClone(layout.afterUser ?? []));
    } else if (step.type === "correction") {
      pushUser([textPart(step.text)]);
    } else if (step.type === "response") {
      const content: AssistantPart[] = [];
      if (step.reasoning || step.continuation.length > 0 || layout.alwaysReasoning) {
        content.push({
          type: "reasoning",
          text: step.reasoning,
          ...(step.continuation.length > 0 ? { continuation: step.continuation } : {}),
        });
      }
      let text = step.text;
      const calls: AssistantPart[] = [];
      const answers: Message[] = [];
      const asText: Message[] = [];
      for (const call of step.calls) {
        const wire = adoptCall(call.call, layout);
        if (!wire) {
          const { name, arguments: args } = call.call;
          text = `${text}\n[called ${name} with ${args}]`.trimStart();
          if (call.result) {
            const images = partsOf(call)?.filter((part) => part.type === "image") ?? [];
            asText.push({
              role: "user",
              content: [textPart(`[result of ${name}]\n${resultText(call)}`), ...images],
            });
          }
          continue;
        }
        const id = callId(call.call.callId);
        calls.push({
          type: "tool_call",
          id,
          name: wire.name,
          arguments: callArguments(wire.arguments || "{}"),
        });
        // Anything but a completed call is an error to the model (Messages `is_error`).
        const isError = call.result?.status !== "completed";
        const parts = partsOf(call);
        answers.push({
          role: "tool",
          callId: id,
          content: parts ?? [textPart(resultText(call))],
          ...(isError ? { isError } : {}),
          ...(parts && layout.imagesInside ? { imagesInside: true } : {}),
        });
      }
      if (text) content.push({ type: "text", text });
      content.push(...calls);
      messages.push({ role: "assistant", content }, ...answers, ...asText);
    }
  }
  return messages;
}

/** The parts a completed call gave the model, when it gave more than text. */
function partsOf(step: CallStep): UserPart[] | undefined {
  const { result } = step;
  if (result?.status !== "completed" || !result.parts) return undefined;
  return resultParts(result.parts);
}
