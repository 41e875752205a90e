import type { Message, UserPart } from "../../providers/model-request.js";
import type { ContentBlock, HistoryEvent } from "../../store/events.js";
import { historySteps, type ToolCallEvent } from "./history-steps.js";
import { blockText, INTERRUPTED_OUTPUT, imagePart, joinUser, textPart } from "./user-content.js";

/** How a text-protocol harness (no native tool calls) shows the canonical history to its model. */
export interface TextProtocol {
  /** Calls issued under this id are already written in the assistant text the model produced. */
  harness: string;
  /** A call made under another harness, written the way this protocol writes calls. */
  foreignCall(call: ToolCallEvent): string;
  /** The user-message text that carries the results of one step's calls back to the model. */
  observations(results: Array<{ call: ToolCallEvent; output: string }>): string;
  /** Wraps the text of the session's first user message (e.g. mini-swe-agent's instance template). */
  firstUser?(text: string): string;
}

/**
 * Renders the canonical history for a model without tool support: only `user` and `assistant`
 * messages. Assistant turns are the raw text the model wrote, results come back as user
 * messages in the protocol's observation format, format corrections as user messages. Adjacent
 * user messages are joined, since many chat templates require strict alternation; a response
 * with nothing to show (only reasoning) is left out.
 */
export function renderTextMessages(history: readonly HistoryEvent[], protocol: TextProtocol): Message[] {
  const messages: Message[] = [];
  const pushUser = (content: UserPart[]) => {
    const previous = messages.at(-1);
    if (previous?.role === "user") previous.content = joinUser(previous.content, content);
    else messages.push({ role: "user", content });
  };
  for (const step of historySteps(history)) {
    if (step.type === "user") {
      pushUser(userContent(step.content, step.first ? protocol.firstUser : undefined));
    } else if (step.type === "correction") {
      pushUser([textPart(step.text)]);
    } else if (step.type === "response") {
      const foreign = step.calls
        .filter(({ call }) => call.harness !== protocol.harness)
        .map(({ call }) => protocol.foreignCall(call));
      const text = [step.text, ...foreign].filter(Boolean).join("\n\n");
      if (text) messages.push({ role: "assistant", content: [{ type: "text", text }] });
      if (step.calls.length > 0) {
        const results = step.calls.map(({ call, result }) => ({
          call,
          output: result?.output ?? INTERRUPTED_OUTPUT,
        }));
        pushUser([textPart(protocol.observations(results))]);
      }
    }
  }
  return messages;
}

/** The texts joined (the first one wrapped by the protocol), then the images. */
function userContent(blocks: ContentBlock[], wrap: ((text: string) => string) | undefined): UserPart[] {
  const texts: string[] = [];
  const images: UserPart[] = [];
  for (const block of blocks) {
    const text = blockText(block);
    if (text !== undefined) texts.push(text);
    else {
      const image = imagePart(block);
      if (image) images.push(image);
    }
  }
  const text = wrap ? wrap(texts.join("\n")) : texts.join("\n");
  return [textPart(text), ...images];
}
